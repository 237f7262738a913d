import { useEffect, useState } from 'react';
import { api } from '../../api/client.ts';

/**
 * Thumbnails need the bearer token, so an <img src> cannot load them: they are fetched as blobs and
 * shown through object URLs, kept in memory per template and thumbnail URL (the URL changes when
 * the template file does). An older URL of the same template is released.
 */
const cache = new Map<string, { key: string; url: Promise<string> }>();

function thumbnailObjectUrl(templateId: string, key: string): Promise<string> {
  const cached = cache.get(templateId);
  if (cached?.key === key) return cached.url;
  if (cached) void cached.url.then((old) => URL.revokeObjectURL(old), () => undefined);
  const url = api.blob('thumbnail', { params: { id: templateId } }).then((blob) => URL.createObjectURL(blob));
  // A failure is not cached: the next render of the card tries again.
  url.catch(() => {
    if (cache.get(templateId)?.url === url) cache.delete(templateId);
  });
  cache.set(templateId, { key, url });
  return url;
}

export interface ThumbnailLoad {
  /** The object URL, or null while loading, when the template has none, or when it failed. */
  src: string | null;
  /** True while a thumbnail the server has is still being fetched. */
  pending: boolean;
}

/** The template's first-page thumbnail and whether it is still on its way. */
export function useThumbnailLoad(templateId: string, thumbnailUrl: string | null): ThumbnailLoad {
  const [loaded, setLoaded] = useState<{ key: string; url: string | null } | null>(null);
  const key = thumbnailUrl ? `${templateId} ${thumbnailUrl}` : null;

  useEffect(() => {
    if (!key) return;
    let live = true;
    thumbnailObjectUrl(templateId, key).then(
      (url) => live && setLoaded({ key, url }),
      () => live && setLoaded({ key, url: null }),
    );
    return () => {
      live = false;
    };
  }, [templateId, key]);

  const settled = key !== null && loaded?.key === key;
  return { src: settled ? loaded.url : null, pending: key !== null && !settled };
}

/** The object URL of the template's first-page thumbnail, or null while loading, missing or failed. */
export function useThumbnail(templateId: string, thumbnailUrl: string | null): string | null {
  return useThumbnailLoad(templateId, thumbnailUrl).src;
}
