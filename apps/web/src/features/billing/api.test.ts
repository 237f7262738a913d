// @vitest-environment node
/**
 * Billing's server state: a plan change, cancellation or resumption replaces the cached billing status
 * and refreshes the user (the navbar's plan chip and counter chip) and the credits; GET /billing is
 * polled while Stripe has not confirmed a change; the offline checkout sends the consent and quantity.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MutationObserver, QueryClient } from '@tanstack/react-query';
import type { BillingStatus } from '@sheaf/shared';
import { api } from '../../api/client.ts';
import { queryKeys } from '../../api/queryKeys.ts';
import {
  BILLING_POLL_MS, billingStatusQuery, cancelSubscriptionMutation, changePlanMutation, checkoutMutation, offlineCheckoutMutation, resumeSubscriptionMutation,
} from './api.ts';

const status = (extra: Partial<BillingStatus> = {}): BillingStatus => ({
  plan: 'Pro', cycle: 'year', billingDate: '2025-01-01T00:00:00Z', renewsAt: '2025-02-01T00:00:00Z', isUpdatingBillingPlan: false,
  subscription: { status: 'active', cancelAtPeriodEnd: false, currentPeriodEnd: '2026-01-01T00:00:00Z', paymentFailedAt: null },
  address: null, billingConfigured: true, ...extra,
});

const clients: QueryClient[] = [];
function client(): QueryClient {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity } } });
  clients.push(queryClient);
  return queryClient;
}

afterEach(() => {
  vi.restoreAllMocks();
  clients.splice(0).forEach((queryClient) => queryClient.clear());
});

describe('billing mutations', () => {
  it('a plan change replaces the status and refreshes the user and the credits', async () => {
    const queryClient = client();
    queryClient.setQueryData(queryKeys.billing.status, status());
    queryClient.setQueryData(queryKeys.me, { billingPlan: 'Pro' });
    queryClient.setQueryData(queryKeys.credits.forCount(10), { available: 1 });
    const answer = status({ plan: 'Enterprise', cycle: 'month' });
    const call = vi.spyOn(api, 'call').mockResolvedValue(answer as never);
    await new MutationObserver(queryClient, changePlanMutation(queryClient)).mutate({ plan: 'Enterprise', cycle: 'month' });
    expect(call).toHaveBeenCalledWith('changePlan', { body: { plan: 'Enterprise', cycle: 'month' } });
    expect(queryClient.getQueryData(queryKeys.billing.status)).toEqual(answer);
    expect(queryClient.getQueryState(queryKeys.me)?.isInvalidated).toBe(true);
    expect(queryClient.getQueryState(queryKeys.credits.forCount(10))?.isInvalidated).toBe(true);
  });

  it('cancel and resume answer the status the page shows ("usable until", Resume)', async () => {
    const queryClient = client();
    const cancelled = status({ subscription: { ...status().subscription!, cancelAtPeriodEnd: true } });
    const call = vi.spyOn(api, 'call').mockResolvedValueOnce(cancelled as never).mockResolvedValueOnce(status() as never);
    await new MutationObserver(queryClient, cancelSubscriptionMutation(queryClient)).mutate();
    expect(queryClient.getQueryData<BillingStatus>(queryKeys.billing.status)?.subscription?.cancelAtPeriodEnd).toBe(true);
    await new MutationObserver(queryClient, resumeSubscriptionMutation(queryClient)).mutate();
    expect(queryClient.getQueryData<BillingStatus>(queryKeys.billing.status)?.subscription?.cancelAtPeriodEnd).toBe(false);
    expect(call.mock.calls.map(([route]) => route)).toEqual(['cancelSubscription', 'resumeSubscription']);
  });

  it('checkouts send the plan or price with both consents', async () => {
    const call = vi.spyOn(api, 'call').mockResolvedValueOnce({ url: 'https://checkout.example/c/1' } as never).mockResolvedValueOnce({ clientSecret: 'cs', sessionId: 's' } as never);
    const consent = { acceptTerms: true, waiveWithdrawal: true } as const;
    await new MutationObserver(client(), checkoutMutation()).mutate({ plan: 'Pro', cycle: 'year', consent });
    await new MutationObserver(client(), offlineCheckoutMutation()).mutate({ priceId: 'price_offline_year', quantity: 2, consent });
    expect(call.mock.calls).toEqual([
      ['createCheckout', { body: { plan: 'Pro', cycle: 'year', acceptTerms: true, waiveWithdrawal: true } }],
      ['createOfflineCheckoutSession', { body: { priceId: 'price_offline_year', quantity: 2, acceptTerms: true, waiveWithdrawal: true } }],
    ]);
  });
});

describe('billing status', () => {
  // TanStack Query runs no interval timers outside a browser: the interval the query asks for is checked.
  const interval = (data: BillingStatus | undefined) => {
    const option = billingStatusQuery().refetchInterval as (query: { state: { data: BillingStatus | undefined } }) => number | false;
    return option({ state: { data } });
  };

  it('is asked again every few seconds while a change waits for Stripe, and no more once it is confirmed', () => {
    expect(interval(status({ plan: 'Free', isUpdatingBillingPlan: true, subscription: null }))).toBe(BILLING_POLL_MS);
    expect(interval(status())).toBe(false);
    expect(interval(undefined)).toBe(false);
  });
});
