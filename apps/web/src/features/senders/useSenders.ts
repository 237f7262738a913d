/** Server state of the senders (TanStack Query) and the edition and plan the sender rules depend on. */
import { useCallback } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { BillingPlan, Sender } from '@sheaf/shared';
import { api } from '../../api/client.ts';
import { useCurrentUser } from '../auth/useCurrentUser.ts';

export const SENDERS_KEY = ['senders'] as const;
export const senderKey = (id: string) => ['senders', id] as const;

export function useSenders(enabled = true) {
  return useQuery({ queryKey: SENDERS_KEY, queryFn: ({ signal }) => api.call('listSenders', { signal }).then((data) => data.senders), enabled });
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
  const config = useQuery({ queryKey: ['config'], queryFn: () => api.call('config'), staleTime: Infinity });
  return config.data?.edition ?? 'web';
}

/** The signed-in user's plan ('Free' until known, the most restrictive reading). */
export function usePlan(): BillingPlan {
  return useCurrentUser().data?.billingPlan ?? 'Free';
}
