/** Server state cache. Errors that are ours to show (4xx) are not retried; network blips are, twice. */
import { QueryClient } from '@tanstack/react-query';
import { ApiError } from '../api/client.ts';

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
