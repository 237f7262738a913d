/** Server state of the senders (TanStack Query) and the edition and plan the sender rules depend on. */
import { useCallback } from 'react';
import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import type { BillingPlan, Sender } from '@sheaf/shared';
import { api } from '../../api/client.ts';
import { queryKeys } from '../../api/queryKeys.ts';
import { configQuery } from '../../api/routeQuery.ts';
import { useCurrentUser } from '../auth/useCurrentUser.ts';

export const SENDERS_KEY = queryKeys.senders.all;
export const senderKey = queryKeys.senders.one;

/** The verified and pending senders of the account. */
export const sendersQuery = () => queryOptions({
  queryKey: SENDERS_KEY,
  queryFn: ({ signal }) => api.call('listSenders', { signal }).then((data) => data.senders),
});

export function useSenders(enabled = true) {
  return useQuery({ ...sendersQuery(), enabled });
}

/** Puts a server answer (the whole list, or one changed sender) into the cache. */
export function useSetSenders(): { list: (senders: Sender[]) => void; one: (sender: Sender) => void } {
  const queryClient = useQueryClient();
  const list = useCallback((senders: Sender[]) => {
    queryClient.setQueryData(SENDERS_KEY, senders);
    senders.forEach((sender) => queryClient.setQueryData(senderKey(sender.id), sender));
  }, [queryClient]);
  const one = useCallback((sender: Sender) => {
    queryClient.setQueryData(senderKey(sender.id), sender);
    queryClient.setQueryData<Sender[]>(SENDERS_KEY, (senders) => {
      if (!senders) return senders;
      return senders.some((item) => item.id === sender.id) ? senders.map((item) => (item.id === sender.id ? sender : item)) : [...senders, sender];
    });
  }, [queryClient]);
  return { list, one };
}

/** The server's edition (web or desktop: desktop allows smtp senders only). */
export function useEdition(): 'web' | 'desktop' {
  const config = useQuery(configQuery());
  return config.data?.edition ?? 'web';
}

/** The signed-in user's plan ('Free' until known, the most restrictive reading). */
export function usePlan(): BillingPlan {
  return useCurrentUser().data?.billingPlan ?? 'Free';
}
