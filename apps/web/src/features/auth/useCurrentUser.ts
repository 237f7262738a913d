/** The signed-in user (GET /v1/users/me), shared by every page under the queryKeys.me key. */
import { useQuery } from '@tanstack/react-query';
import { meQuery } from '../../api/routeQuery.ts';
import { useIsSignedIn } from './useAuth.ts';

export function useCurrentUser() {
  const signedIn = useIsSignedIn();
  return useQuery({ ...meQuery(), enabled: signedIn });
}
