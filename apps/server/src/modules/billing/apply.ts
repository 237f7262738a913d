/**
 * One way a subscription reaches the users row (docs/billing.md#webhooks): a subscription as read from
 * Stripe (by a webhook, or the answer of our own update) is applied under the row's lock, unless a
 * later read was applied already. Its price id gives the plan and cycle; an ended subscription leaves
 * the account on Free.
 */
import { INITIAL_PLAN } from '@sheaf/shared';
import type { AppContext } from '../../context.ts';
import type { Queryable } from '../../adapters/db/index.ts';
import type { Stripe, StripeClient } from '../../adapters/payments/stripe.ts';
import { isStripeNotFound } from '../../adapters/payments/stripe.ts';
import { subscriptionPlanOfPrice } from './plans.ts';
import { linkCustomer, lockBillingRow, saveSubscriptionState } from './repository.ts';
import { stripeFailure } from './stripe-calls.ts';

/**
 * Statuses in which the plan applies. past_due too: Stripe is still retrying the payment, and the
 * account keeps its plan meanwhile with the failure shown (docs/billing.md#failed-payments).
 */
export const LIVE_STATUSES: ReadonlySet<string> = new Set(['active', 'trialing', 'past_due']);

export const isLive = (status: string | null | undefined): boolean => status !== null && status !== undefined && LIVE_STATUSES.has(status);

/** What billing reads of a Stripe subscription. In this API version the period lives on its items. */
export interface SubscriptionFacts {
  id: string;
  customerId: string;
  status: string;
  live: boolean;
  /** The first item's price: an online plan has one item. */
  priceId: string;
  cancelAtPeriodEnd: boolean;
  periodStart: Date;
  periodEnd: Date;
  endedAt: Date | null;
  /** Licences of an offline subscription: the quantities of its items. */
  quantity: number;
  kind: 'offline' | 'subscription';
  /** The account that bought it (metadata of our checkout). */
  uid: string | undefined;
}

const idOf = (value: string | { id: string } | null | undefined): string => (typeof value === 'string' ? value : (value?.id ?? ''));
const fromSeconds = (seconds: number) => new Date(seconds * 1000);

export function subscriptionFacts(subscription: Stripe.Subscription): SubscriptionFacts {
  const items = subscription.items.data;
  const starts = items.map((item) => item.current_period_start);
  const ends = items.map((item) => item.current_period_end);
  return {
    id: subscription.id,
    customerId: idOf(subscription.customer),
    status: subscription.status,
    live: LIVE_STATUSES.has(subscription.status),
    priceId: items[0]?.price.id ?? '',
    cancelAtPeriodEnd: subscription.cancel_at_period_end,
    periodStart: fromSeconds(starts.length ? Math.min(...starts) : subscription.start_date),
    periodEnd: fromSeconds(ends.length ? Math.max(...ends) : subscription.start_date),
    endedAt: subscription.ended_at ? fromSeconds(subscription.ended_at) : null,
    quantity: items.reduce((sum, item) => sum + (item.quantity ?? 1), 0),
    kind: subscription.metadata?.['kind'] === 'offline' ? 'offline' : 'subscription',
    uid: subscription.metadata?.['uid'] || undefined,
  };
}

export interface ReadSubscription {
  facts: SubscriptionFacts;
  /**
   * When the request that read it was sent (ms, this server's clock). The read sent last after a change
   * at Stripe sees that change, so the read sent last is the one to keep; the time an answer arrives
   * says nothing (an answer can be slow).
   */
  readAt: number;
}

/**
 * The subscription as it is now at Stripe (a webhook's snapshot may be older than others already
 * applied). One Stripe no longer knows (resource_missing) is read from the event's snapshot.
 */
export async function readSubscription(ctx: AppContext, stripe: StripeClient, id: string, snapshot?: Stripe.Subscription): Promise<ReadSubscription> {
  const readAt = Date.now();
  try {
    const subscription = await stripe.subscriptions.retrieve(id);
    return { facts: subscriptionFacts(subscription), readAt };
  } catch (error) {
    if (snapshot && isStripeNotFound(error)) return { facts: subscriptionFacts(snapshot), readAt };
    throw stripeFailure(ctx, 'subscriptions.retrieve', error);
  }
}

export type ApplyOutcome = 'applied' | 'stale' | 'ignored';

/**
 * Applies a subscription read at `readAt` to the account `uid` (inside `tx`), unless a read sent later
 * was applied already (`stale`): events and answers arrive in any order. Ignored: an ended
 * subscription that is not the account's (so an operator's plan, `sheaf users plan`, stays), a second
 * live one while the account has one, a price the settings do not map to a plan. A new subscription
 * starts a quota period (counter back to 0).
 */
export async function applySubscription(ctx: AppContext, tx: Queryable, uid: string, read: ReadSubscription): Promise<ApplyOutcome> {
  const { facts, readAt } = read;
  const row = await lockBillingRow(tx, uid);
  if (!row) return 'ignored';
  if (readAt < row.subscription_read_at) return 'stale';
  const ours = row.stripe_subscription_id === facts.id;
  if (!ours && !facts.live) return 'ignored';
  if (!ours && row.stripe_subscription_id && isLive(row.subscription_status)) {
    ctx.log.error({ uid, subscription: facts.id, current: row.stripe_subscription_id }, 'a second live subscription for one account: not applied');
    return 'ignored';
  }
  if (facts.customerId) await linkCustomer(tx, uid, facts.customerId);
  if (!facts.live) {
    await saveSubscriptionState(tx, uid, {
      plan: INITIAL_PLAN.web, cycle: null, subscriptionId: null, status: facts.status, cancelAtPeriodEnd: false, currentPeriodEnd: null, readAt,
    });
    return 'applied';
  }
  const priced = subscriptionPlanOfPrice(ctx.config, facts.priceId);
  if (!priced) {
    ctx.log.error({ uid, subscription: facts.id, price: facts.priceId }, 'a subscription price that STRIPE_PRICE_IDS does not name: not applied');
    return 'ignored';
  }
  await saveSubscriptionState(tx, uid, {
    plan: priced.plan,
    cycle: priced.cycle,
    subscriptionId: facts.id,
    status: facts.status,
    cancelAtPeriodEnd: facts.cancelAtPeriodEnd,
    currentPeriodEnd: facts.periodEnd,
    readAt,
    ...(ours ? {} : { periodStart: facts.periodStart }),
  });
  return 'applied';
}
