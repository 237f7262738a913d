import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../api/client.ts';
import { queryKeys } from '../../api/queryKeys.ts';

/**
 * Thumbnails need the bearer token, so an <img src> cannot load them: they are fetched as blobs and
 * shown through object URLs, cached per template and thumbnail URL (the URL changes when the
 * template's file does). The cache frees an object URL when it drops the query (app/queryClient.ts).
 */
export const thumbnailQuery = (templateId: string, thumbnailUrl: string) => queryOptions({
  queryKey: queryKeys.templates.thumbnail(templateId, thumbnailUrl),
  queryFn: async ({ signal }) => URL.createObjectURL(await api.blob('thumbnail', { params: { id: templateId }, signal })),
  meta: { objectUrl: true },
  staleTime: Infinity,
  // A failure is not kept: the next time the card shows, it tries again.
  retry: false,
});

export interface ThumbnailLoad {
  /** The object URL, or null while loading, when the template has none, or when it failed. */
  src: string | null;
  /** True while a thumbnail the server has is still being fetched. */
  pending: boolean;
}

/** The template's first-page thumbnail and whether it is still on its way. */
export function useThumbnailLoad(templateId: string, thumbnailUrl: string | null): ThumbnailLoad {
  const thumbnail = useQuery({ ...thumbnailQuery(templateId, thumbnailUrl ?? ''), enabled: thumbnailUrl !== null });
  if (thumbnailUrl === null) return { src: null, pending: false };
  return { src: thumbnail.data ?? null, pending: thumbnail.isPending && !thumbnail.isError };
}

/** The object URL of the template's first-page thumbnail, or null while loading, missing or failed. */
export function useThumbnail(templateId: string, thumbnailUrl: string | null): string | null {
  return useThumbnailLoad(templateId, thumbnailUrl).src;
}
