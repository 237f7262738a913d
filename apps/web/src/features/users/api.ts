/**
 * Server state of /users (TanStack Query): the account's child users with its seats, and the calls
 * that change them. Each answer updates the cached list, so the table and the seats follow at once.
 */
import { useCallback } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { ChildUser, ChildUserList } from '@sheaf/shared';
import { api } from '../../api/client.ts';
import { queryKeys } from '../../api/queryKeys.ts';
import { routeQuery } from '../../api/routeQuery.ts';
import type { ChildUserValues } from './childUsers.ts';

export const childUsersQuery = () => routeQuery(queryKeys.childUsers, 'listChildUsers');

/** The list; not asked for a child user (the server would refuse it). */
export function useChildUsers(enabled: boolean) {
  return useQuery({ ...childUsersQuery(), enabled });
}

export type ChildUserAction = 'disable' | 'enable' | 'reset' | 'delete';

/** The calls of /users; each keeps the cached list in step with the server's answer. */
export function useChildUserCalls() {
  const queryClient = useQueryClient();
  const update = useCallback((change: (list: ChildUserList) => ChildUserList) => {
    queryClient.setQueryData<ChildUserList>(queryKeys.childUsers, (list) => (list ? change(list) : list));
  }, [queryClient]);
  const replace = useCallback((user: ChildUser) => update((list) => ({ ...list, users: list.users.map((item) => (item.uid === user.uid ? user : item)) })), [update]);

  const create = useCallback(async (values: ChildUserValues): Promise<ChildUser> => {
    const user = await api.call('registerChild', { body: values });
    update((list) => ({ users: [...list.users, user], seats: { ...list.seats, used: list.seats.used + 1 } }));
    void queryClient.invalidateQueries({ queryKey: queryKeys.childUsers });
    return user;
  }, [queryClient, update]);

  const run = useCallback(async (action: ChildUserAction, uid: string): Promise<void> => {
    const params = { uid };
    if (action === 'disable') replace(await api.call('disableChildUser', { params }));
    else if (action === 'enable') replace(await api.call('enableChildUser', { params }));
    else if (action === 'reset') await api.call('resetChildPassword', { params });
    else {
      await api.call('deleteChildUser', { params });
      update((list) => ({ users: list.users.filter((item) => item.uid !== uid), seats: { ...list.seats, used: Math.max(1, list.seats.used - 1) } }));
      void queryClient.invalidateQueries({ queryKey: queryKeys.childUsers });
    }
  }, [queryClient, replace, update]);

  return { create, run };
}
