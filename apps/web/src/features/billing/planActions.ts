/**
 * What each card of the pricing table offers the signed-in account (docs/billing.md#the-billing-pages):
 * a Free account upgrades through Stripe Checkout; a subscriber switches plan or cycle (prorated) and
 * never pays twice; the current plan and cycle is marked, not offered.
 */
import { SUBSCRIPTION_PLANS, type BillingCycle, type BillingPlan, type BillingStatus, type PlanInfo, type SubscriptionPlan } from '@sheaf/shared';

export type CardAction =
  | { kind: 'current' }
  | { kind: 'upgrade'; plan: SubscriptionPlan }
  | { kind: 'switch'; plan: SubscriptionPlan; cycleOnly: boolean }
  | { kind: 'none' };

export const isSubscriptionPlan = (plan: BillingPlan): plan is SubscriptionPlan => (SUBSCRIPTION_PLANS as readonly string[]).includes(plan);

/** Stripe statuses after which there is nothing left to change: the account buys anew. */
const ENDED = new Set(['canceled', 'incomplete_expired']);

type Status = Pick<BillingStatus, 'plan' | 'cycle' | 'subscription'>;

/** The account pays a subscription that a change or a cancellation can act on. */
export const hasSubscription = (status: Status): boolean => status.subscription !== null && !ENDED.has(status.subscription.status);

export function cardAction(target: Pick<PlanInfo, 'plan' | 'kind'>, cycle: BillingCycle, status: Status): CardAction {
  if (!isSubscriptionPlan(target.plan)) return target.plan === status.plan ? { kind: 'current' } : { kind: 'none' };
  if (!hasSubscription(status)) return target.plan === status.plan ? { kind: 'current' } : { kind: 'upgrade', plan: target.plan };
  if (target.plan === status.plan && cycle === status.cycle) return { kind: 'current' };
  return { kind: 'switch', plan: target.plan, cycleOnly: target.plan === status.plan };
}

/** The plan the address asks for (?plan=Pro after signing up from a pricing link), if it is one on sale. */
export function chosenPlan(search: URLSearchParams): SubscriptionPlan | null {
  const value = search.get('plan');
  if (!value) return null;
  return SUBSCRIPTION_PLANS.find((plan) => plan.toLowerCase() === value.trim().toLowerCase()) ?? null;
}

/** What the address says about a return from Stripe Checkout. */
export function checkoutReturn(search: URLSearchParams): 'success' | 'cancelled' | null {
  const value = search.get('checkout');
  return value === 'success' || value === 'cancelled' ? value : null;
}
