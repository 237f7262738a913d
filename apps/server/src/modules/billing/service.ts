/**
 * The account's subscription (docs/billing.md): its state, a new subscription through Stripe Checkout,
 * plan changes with proration, cancellation at the period's end and its undoing, the billing portal.
 * Only the account's owner may (the 'billing' scope, never a child user's); there is no subscription
 * id in any request, so a user only ever acts on their own.
 */
import { PLAN_CATALOGUE, SUBSCRIPTION_STATUSES, SheafError, type BillingStatus, type PlanList } from '@sheaf/shared';
import type { z } from 'zod';
import type { ChangePlanRequestSchema, CheckoutRequestSchema } from '@sheaf/shared';
import type { AppContext } from '../../context.ts';
import type { Stripe, StripeClient } from '../../adapters/payments/stripe.ts';
import { accountFor, type Principal } from '../../access/index.ts';
import { currentPeriod, isUpdatingBillingPlan } from '../users/index.ts';
import { applySubscription, isLive, subscriptionFacts } from './apply.ts';
import { ensureCustomer } from './customer.ts';
import { listPlans, priceIdOf } from './plans.ts';
import { findBillingRow, markPlanUpdating, saveCheckoutSession, type BillingRow } from './repository.ts';
import { callStripe, idempotencyKey, requireStripe } from './stripe-calls.ts';

type CheckoutInput = z.output<typeof CheckoutRequestSchema>;
type ChangeInput = z.output<typeof ChangePlanRequestSchema>;

export function plans(ctx: AppContext): PlanList {
  return listPlans(ctx.config, ctx.stripe !== null);
}

export async function requireBillingRow(ctx: AppContext, uid: string): Promise<BillingRow> {
  const row = await findBillingRow(ctx.db, uid);
  if (!row) throw new SheafError('auth/unauthenticated');
  return row;
}

type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];
const subscriptionStatus = (status: string | null): SubscriptionStatus =>
  (SUBSCRIPTION_STATUSES as readonly string[]).includes(status ?? '') ? (status as SubscriptionStatus) : 'incomplete';

/** GET /billing: works without Stripe (what Stripe last told us). */
export async function billingStatus(ctx: AppContext, principal: Principal): Promise<BillingStatus> {
  const uid = accountFor(principal, 'billing');
  const period = await currentPeriod(ctx.db, uid);
  const row = await requireBillingRow(ctx, uid);
  return {
    plan: period.plan,
    cycle: row.billing_cycle === 'month' || row.billing_cycle === 'year' ? row.billing_cycle : null,
    billingDate: period.billingDate.toISOString(),
    renewsAt: period.renewsAt.toISOString(),
    isUpdatingBillingPlan: isUpdatingBillingPlan(row.billing_plan_updating_at),
    subscription: row.stripe_subscription_id
      ? {
          status: subscriptionStatus(row.subscription_status),
          cancelAtPeriodEnd: row.cancel_at_period_end,
          currentPeriodEnd: (row.current_period_end ?? period.renewsAt).toISOString(),
          paymentFailedAt: row.payment_failed_at?.toISOString() ?? null,
        }
      : null,
    address: row.billing_address,
    billingConfigured: ctx.stripe !== null,
  };
}

/** The price id of an online plan of the catalogue; billing/unknown-price for anything else. */
function subscriptionPrice(ctx: AppContext, input: CheckoutInput | ChangeInput): string {
  const price = PLAN_CATALOGUE[input.plan]?.kind === 'subscription' ? priceIdOf(ctx.config, input.plan, input.cycle) : undefined;
  if (!price) throw new SheafError('billing/unknown-price');
  return price;
}

/** POST /billing/checkout: a Stripe Checkout page for a new subscription (docs/billing.md#checkout). */
export async function createCheckout(ctx: AppContext, principal: Principal, input: CheckoutInput, clientKey: string | undefined): Promise<{ url: string }> {
  const uid = accountFor(principal, 'billing');
  const stripe = requireStripe(ctx);
  const row = await requireBillingRow(ctx, uid);
  if (row.stripe_subscription_id && isLive(row.subscription_status)) throw new SheafError('billing/already-subscribed');
  const price = subscriptionPrice(ctx, input);
  const customer = await ensureCustomer(ctx, stripe, row);
  const base = ctx.config.PUBLIC_URL;
  const metadata = { uid, plan: input.plan, cycle: input.cycle, kind: 'subscription' };
  const params: Stripe.Checkout.SessionCreateParams = {
    mode: 'subscription',
    customer,
    line_items: [{ price, quantity: 1 }],
    success_url: `${base}/billing?checkout=success&session_id={CHECKOUT_SESSION_ID}`,
    cancel_url: `${base}/billing?checkout=cancelled`,
    client_reference_id: uid,
    metadata,
    // The subscription carries the account too, for its own events.
    subscription_data: { metadata: { uid, kind: 'subscription' } },
  };
  const session = await callStripe(ctx, 'checkout.sessions.create', () =>
    stripe.checkout.sessions.create(params, { idempotencyKey: idempotencyKey('checkout', [uid, params], { clientKey, kind: 'perMinute' }) }),
  );
  if (!session.url) throw new SheafError('billing/failed');
  await saveCheckoutSession(ctx.db, { id: session.id, user_id: uid, visitor_token_hash: null, kind: 'subscription', plan: input.plan, cycle: input.cycle, quantity: 1 });
  await markPlanUpdating(ctx.db, uid, true);
  return { url: session.url };
}

/** The account's live subscription (billing/no-subscription without one). */
function liveSubscriptionId(row: BillingRow): string {
  if (!row.stripe_subscription_id || !isLive(row.subscription_status)) throw new SheafError('billing/no-subscription');
  return row.stripe_subscription_id;
}

/**
 * Runs an update of the account's subscription and applies Stripe's answer at once, by the webhook's
 * own rule (apply.ts): the page is right without waiting for the event, and a later read wins.
 */
async function updateSubscription(
  ctx: AppContext,
  stripe: StripeClient,
  uid: string,
  subscriptionId: string,
  what: string,
  params: Stripe.SubscriptionUpdateParams,
  clientKey: string | undefined,
): Promise<void> {
  await markPlanUpdating(ctx.db, uid, true);
  const readAt = Date.now();
  let updated: Stripe.Subscription;
  try {
    updated = await callStripe(ctx, what, () =>
      stripe.subscriptions.update(subscriptionId, params, { idempotencyKey: idempotencyKey(what, [uid, subscriptionId, params], { clientKey, kind: 'perRequest' }) }),
    );
  } catch (error) {
    await markPlanUpdating(ctx.db, uid, false);
    throw error;
  }
  const read = { facts: subscriptionFacts(updated), readAt };
  await ctx.db.transaction(async (tx) => {
    // Not applied (a later read was): that one's state stands, and the account waits no more.
    if ((await applySubscription(ctx, tx, uid, read)) !== 'applied') await markPlanUpdating(tx, uid, false);
  });
}

/**
 * POST /billing/change: the subscription's item moves to the new price. proration_behavior
 * 'always_invoice': the difference for the rest of the period is invoiced (or credited) now, so an
 * upgrade is paid when it is used, not at the next renewal (docs/billing.md#changing-plan).
 */
export async function changePlan(ctx: AppContext, principal: Principal, input: ChangeInput, clientKey: string | undefined): Promise<BillingStatus> {
  const uid = accountFor(principal, 'billing');
  const stripe = requireStripe(ctx);
  const row = await requireBillingRow(ctx, uid);
  const subscriptionId = liveSubscriptionId(row);
  const price = subscriptionPrice(ctx, input);
  if (row.billing_plan === input.plan && row.billing_cycle === input.cycle) throw new SheafError('billing/same-plan');
  const current = await callStripe(ctx, 'subscriptions.retrieve', () => stripe.subscriptions.retrieve(subscriptionId));
  const item = current.items.data[0];
  if (!item) throw new SheafError('billing/no-subscription');
  if (item.price.id === price) throw new SheafError('billing/same-plan');
  await updateSubscription(ctx, stripe, uid, subscriptionId, 'change', { items: [{ id: item.id, price }], proration_behavior: 'always_invoice' }, clientKey);
  return billingStatus(ctx, principal);
}

/** POST /billing/cancel: usable until the paid period ends, then Free (docs/billing.md#cancelling). */
export async function cancelSubscription(ctx: AppContext, principal: Principal, clientKey: string | undefined): Promise<BillingStatus> {
  return setCancelAtPeriodEnd(ctx, principal, true, clientKey);
}

/** POST /billing/resume: undoes a cancellation before the period ends. */
export async function resumeSubscription(ctx: AppContext, principal: Principal, clientKey: string | undefined): Promise<BillingStatus> {
  return setCancelAtPeriodEnd(ctx, principal, false, clientKey);
}

async function setCancelAtPeriodEnd(ctx: AppContext, principal: Principal, cancel: boolean, clientKey: string | undefined): Promise<BillingStatus> {
  const uid = accountFor(principal, 'billing');
  const stripe = requireStripe(ctx);
  const row = await requireBillingRow(ctx, uid);
  const subscriptionId = liveSubscriptionId(row);
  if (row.cancel_at_period_end !== cancel) {
    await updateSubscription(ctx, stripe, uid, subscriptionId, cancel ? 'cancel' : 'resume', { cancel_at_period_end: cancel }, clientKey);
  }
  return billingStatus(ctx, principal);
}

/** POST /billing/portal: Stripe's billing portal (invoices, payment method), back to /billing. */
export async function billingPortal(ctx: AppContext, principal: Principal, clientKey: string | undefined): Promise<{ url: string }> {
  const uid = accountFor(principal, 'billing');
  const stripe = requireStripe(ctx);
  const customer = await ensureCustomer(ctx, stripe, await requireBillingRow(ctx, uid));
  const params = { customer, return_url: `${ctx.config.PUBLIC_URL}/billing` };
  const session = await callStripe(ctx, 'billingPortal.sessions.create', () =>
    stripe.billingPortal.sessions.create(params, { idempotencyKey: idempotencyKey('portal', [uid, params], { clientKey, kind: 'perRequest' }) }),
  );
  return { url: session.url };
}
