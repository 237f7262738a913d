/**
 * Billing's server state (docs/billing.md#the-billing-pages), built from the shared route table: the
 * plans (public), the account's billing status, and the calls that change them. A change of plan moves
 * the navbar's plan chip and counter chip too: the user and the credits are refreshed with it.
 */
import { mutationOptions, queryOptions, type QueryClient } from '@tanstack/react-query';
import type { BillingAddress, BillingCycle, BillingStatus, SubscriptionPlan } from '@sheaf/shared';
import type { CallOptions } from '../../api/client.ts';
import { queryKeys } from '../../api/queryKeys.ts';
import { routeMutationFn, routeQuery } from '../../api/routeQuery.ts';
import type { Consent } from './consent.ts';

/** While Stripe has not confirmed a checkout or change (its webhook), GET /billing is asked this often. */
export const BILLING_POLL_MS = 2_000;

/** Prices, features, Stripe.js's address: the same for every visitor, read once per few minutes. */
export const plansQuery = () => ({ ...routeQuery(queryKeys.billing.plans, 'listPlans'), staleTime: 5 * 60_000 });

/** The account's plan and subscription; polled while `isUpdatingBillingPlan`. */
export const billingStatusQuery = () => queryOptions({
  ...routeQuery(queryKeys.billing.status, 'billingStatus'),
  refetchInterval: (query) => (query.state.data?.isUpdatingBillingPlan ? BILLING_POLL_MS : false),
});

/** One offline payment session, checked once (a 404, not this visitor's session, is not asked again). */
export const sessionStatusQuery = (sessionId: string) => queryOptions({
  ...routeQuery(queryKeys.billing.session(sessionId), 'sessionStatus', { query: { sessionId } }),
  staleTime: Infinity,
});

/** The plan moved (or may have): the plan chip, the counter chip and the credits follow. */
export function refreshPlanDependents(queryClient: QueryClient): void {
  void queryClient.invalidateQueries({ queryKey: queryKeys.me });
  void queryClient.invalidateQueries({ queryKey: queryKeys.credits.all });
}

/** A call that answers the billing status: it replaces the cached one, and the user follows. */
const keepStatus = (queryClient: QueryClient) => ({
  onSuccess: (status: BillingStatus) => {
    queryClient.setQueryData(queryKeys.billing.status, status);
    refreshPlanDependents(queryClient);
  },
});

type AddressInput = NonNullable<CallOptions<'updateBillingAddress'>['body']>;

export const saveAddressMutation = (queryClient: QueryClient) => mutationOptions({
  mutationKey: ['billing', 'address'],
  mutationFn: routeMutationFn('updateBillingAddress', (body: AddressInput | BillingAddress) => ({ body })),
  onSuccess: (status: BillingStatus) => queryClient.setQueryData(queryKeys.billing.status, status),
});

/** Stripe Checkout for a new subscription: the answer is the address to send the browser to. */
export const checkoutMutation = () => mutationOptions({
  mutationKey: ['billing', 'checkout'],
  mutationFn: routeMutationFn('createCheckout', (request: { plan: SubscriptionPlan; cycle: BillingCycle; consent: { acceptTerms: true; waiveWithdrawal: true } }) => ({
    body: { plan: request.plan, cycle: request.cycle, ...request.consent },
  })),
});

export const changePlanMutation = (queryClient: QueryClient) => mutationOptions({
  mutationKey: ['billing', 'change'],
  mutationFn: routeMutationFn('changePlan', (body: { plan: SubscriptionPlan; cycle: BillingCycle }) => ({ body })),
  ...keepStatus(queryClient),
});

export const cancelSubscriptionMutation = (queryClient: QueryClient) => mutationOptions({
  mutationKey: ['billing', 'cancel'],
  mutationFn: routeMutationFn('cancelSubscription', (_: void) => ({})),
  ...keepStatus(queryClient),
});

export const resumeSubscriptionMutation = (queryClient: QueryClient) => mutationOptions({
  mutationKey: ['billing', 'resume'],
  mutationFn: routeMutationFn('resumeSubscription', (_: void) => ({})),
  ...keepStatus(queryClient),
});

/** A link into Stripe's billing portal (invoices, payment method, cancellation of a licence's renewal). */
export const portalMutation = () => mutationOptions({
  mutationKey: ['billing', 'portal'],
  mutationFn: routeMutationFn('billingPortal', (_: void) => ({})),
});

/** The offline licence's embedded checkout: a client secret for Stripe.js. */
export const offlineCheckoutMutation = () => mutationOptions({
  mutationKey: ['billing', 'offlineCheckout'],
  mutationFn: routeMutationFn('createOfflineCheckoutSession', (request: { priceId: string; quantity: number; consent: Consent & { acceptTerms: true; waiveWithdrawal: true } }) => ({
    body: { priceId: request.priceId, quantity: request.quantity, acceptTerms: request.consent.acceptTerms, waiveWithdrawal: request.consent.waiveWithdrawal },
  })),
});

/** The account's offline licences (the account page lists them). */
export const licencesQuery = () => routeQuery(queryKeys.licences, 'listLicences');
