/**
 * Changes to the signed-in user (profile, view, e-mail address), built from the route table: the
 * server's answer is the user as it is now and replaces the cached one (navbar, account, home).
 */
import { mutationOptions, type QueryClient } from '@tanstack/react-query';
import type { User } from '@sheaf/shared';
import type { CallOptions } from '../../api/client.ts';
import { queryKeys } from '../../api/queryKeys.ts';
import { routeMutationFn } from '../../api/routeQuery.ts';

type MeChange = NonNullable<CallOptions<'updateMe'>['body']>;
type EmailChange = NonNullable<CallOptions<'changeEmail'>['body']>;

const keepUser = (queryClient: QueryClient) => ({ onSuccess: (user: User) => queryClient.setQueryData<User>(queryKeys.me, user) });

export const updateMeMutation = (queryClient: QueryClient) => mutationOptions({
  mutationKey: ['me', 'update'],
  mutationFn: routeMutationFn('updateMe', (body: MeChange) => ({ body })),
  ...keepUser(queryClient),
});

export const changeEmailMutation = (queryClient: QueryClient) => mutationOptions({
  mutationKey: ['me', 'email'],
  mutationFn: routeMutationFn('changeEmail', (body: EmailChange) => ({ body })),
  ...keepUser(queryClient),
});
