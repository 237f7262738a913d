/** The signed-in user (GET /v1/users/me), shared by every page under the ['me'] query key. */
import { useQuery } from '@tanstack/react-query';
import { api } from '../../api/client.ts';
import { useIsSignedIn } from './useAuth.ts';

export const ME_QUERY_KEY = ['me'] as const;

export function useCurrentUser() {
  const signedIn = useIsSignedIn();
  return useQuery({
    queryKey: ME_QUERY_KEY,
    queryFn: ({ signal }) => api.call('me', { signal }),
    enabled: signedIn,
    staleTime: 60_000,
  });
}
