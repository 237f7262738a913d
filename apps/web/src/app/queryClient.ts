/** Server state cache. Errors that are ours to show (4xx) are not retried; network blips are, twice. */
import { QueryClient } from '@tanstack/react-query';
import { ApiError } from '../api/client.ts';

/**
 * Queries whose data is an object URL (meta.objectUrl: a picture fetched with the bearer token) free
 * it when the cache drops them (unused for gcTime, replaced by a newer file's key, or signed out).
 */
export function revokeObjectUrlsOnRemoval(client: QueryClient): () => void {
  return client.getQueryCache().subscribe((event) => {
    if (event.type !== 'removed' || !event.query.meta?.objectUrl) return;
    const url: unknown = event.query.state.data;
    if (typeof url === 'string') URL.revokeObjectURL(url);
  });
}

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 30_000,
      refetchOnWindowFocus: false,
      retry: (failures, error) => failures < 2 && error instanceof ApiError && (error.isNetwork || error.status >= 500),
    },
    mutations: { retry: false },
  },
});

revokeObjectUrlsOnRemoval(queryClient);
