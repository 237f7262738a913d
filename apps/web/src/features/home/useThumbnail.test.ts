// @vitest-environment node
/**
 * Thumbnails in the query cache: fetched once per template and file as an object URL, and freed
 * when the cache drops them (a newer file, unused for a while, or signing out).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { QueryClient } from '@tanstack/react-query';
import { api } from '../../api/client.ts';
import { queryKeys } from '../../api/queryKeys.ts';
import { revokeObjectUrlsOnRemoval } from '../../app/queryClient.ts';
import { thumbnailQuery } from './useThumbnail.ts';

const ID = 'T'.repeat(20);

afterEach(() => vi.restoreAllMocks());

describe('thumbnail cache', () => {
  it('fetches a thumbnail once per file and frees its object URL when the cache drops it', async () => {
    const client = new QueryClient();
    const stop = revokeObjectUrlsOnRemoval(client);
    const blob = vi.spyOn(api, 'blob').mockResolvedValue(new Blob(['png'], { type: 'image/png' }));
    const revoke = vi.spyOn(URL, 'revokeObjectURL');
    const url = await client.fetchQuery(thumbnailQuery(ID, '/v1/templates/x/thumbnail?v=1'));
    expect(url).toMatch(/^blob:/);
    await client.fetchQuery(thumbnailQuery(ID, '/v1/templates/x/thumbnail?v=1'));
    expect(blob).toHaveBeenCalledTimes(1);
    // Data that is not an object URL stays alone.
    client.setQueryData(queryKeys.me, 'blob:not-ours');
    client.removeQueries({ queryKey: queryKeys.me });
    expect(revoke).not.toHaveBeenCalled();
    client.removeQueries({ queryKey: queryKeys.templates.thumbnail(ID, '/v1/templates/x/thumbnail?v=1') });
    expect(revoke).toHaveBeenCalledWith(url);
    stop();
  });
});
