/**
 * Stripe's events (docs/billing.md#webhooks). Each delivery is checked against STRIPE_WEBHOOK_SECRET,
 * then applied once: its id goes into stripe_events in the transaction of its effects, so a failure
 * rolls both back and Stripe's retry applies it. Stripe is read before that transaction (the embedded
 * database has one connection, which a network call must not hold): the subscription as it is now,
 * so events arriving in any order end in Stripe's current state.
 */
import { SheafError } from '@sheaf/shared';
import type { AppContext } from '../../context.ts';
import type { Queryable } from '../../adapters/db/index.ts';
import { AfterCommit } from '../../events/bus.ts';
import { verifyStripeEvent, type Stripe, type StripeClient } from '../../adapters/payments/stripe.ts';
import { applySubscription, readSubscription, type ReadSubscription } from './apply.ts';
import { findBillingRow, findUidByCustomer, markPlanUpdating, recordStripeEvent, renewPeriod, setPaymentFailed, stripeEventApplied } from './repository.ts';
import './events.ts';

/** The effects of one event, run inside its transaction. */
type Work = (tx: Queryable, afterCommit: AfterCommit) => Promise<void>;

const idOf = (value: string | { id: string } | null | undefined): string => (typeof value === 'string' ? value : (value?.id ?? ''));

/** POST /v1/stripe/webhook: verifies, then applies the event once. */
export async function receiveStripeEvent(ctx: AppContext, rawBody: unknown, signature: string | string[] | undefined): Promise<void> {
  const secret = ctx.config.STRIPE_WEBHOOK_SECRET;
  if (!ctx.stripe || !secret) throw new SheafError('billing/not-configured');
  let event: Stripe.Event;
  try {
    if (!Buffer.isBuffer(rawBody) || typeof signature !== 'string') throw new Error('no body or no signature');
    event = verifyStripeEvent(ctx.stripe, rawBody, signature, secret);
  } catch {
    throw new SheafError('billing/webhook-invalid');
  }
  if (await stripeEventApplied(ctx.db, event.id)) return;
  const work = await prepare(ctx, ctx.stripe, event);
  const afterCommit = new AfterCommit();
  await ctx.db.transaction(async (tx) => {
    // A delivery of the same event handled at the same time got here first: nothing more to do.
    if (!(await recordStripeEvent(tx, event.id, event.type))) return;
    await work?.(tx, afterCommit);
  });
  afterCommit.run();
}

/** Reads what the event needs from Stripe and returns its effects; null for events billing does not use. */
async function prepare(ctx: AppContext, stripe: StripeClient, event: Stripe.Event): Promise<Work | null> {
  switch (event.type) {
    case 'checkout.session.completed':
    case 'checkout.session.async_payment_succeeded':
      return sessionCompleted(ctx, stripe, event.data.object);
    case 'checkout.session.expired':
      return sessionExpired(event.data.object);
    case 'customer.subscription.created':
    case 'customer.subscription.updated':
    case 'customer.subscription.deleted':
    case 'customer.subscription.paused':
    case 'customer.subscription.resumed':
      return subscriptionChanged(ctx, await readSubscription(ctx, stripe, event.data.object.id, event.data.object));
    case 'invoice.paid':
      return invoicePaid(ctx, stripe, event.data.object);
    case 'invoice.payment_failed':
      return paymentFailed(ctx, stripe, event.data.object, new Date(event.created * 1000));
    default:
      return null;
  }
}

/** The account a subscription belongs to: by its Stripe customer, else by our checkout's metadata. */
async function accountOf(q: Queryable, customerId: string, uid: string | undefined | null): Promise<string | undefined> {
  const byCustomer = customerId ? await findUidByCustomer(q, customerId) : undefined;
  if (byCustomer) return byCustomer;
  const row = uid ? await findBillingRow(q, uid) : undefined;
  return row && (!row.stripe_customer_id || row.stripe_customer_id === customerId) ? row.id : undefined;
}

/** An offline licence's subscription renewed, changed or ended: the licences module follows. */
function licenceChanged(ctx: AppContext, read: ReadSubscription): Work {
  const { facts } = read;
  return async (tx) => {
    await ctx.events.emit('licence.subscription-changed', {
      tx,
      subscriptionId: facts.id,
      quantity: facts.quantity,
      // Ended: usable until it ended (or the paid period's end); else the paid period's end.
      periodEnd: facts.live ? facts.periodEnd : (facts.endedAt ?? facts.periodEnd),
    });
  };
}

function subscriptionChanged(ctx: AppContext, read: ReadSubscription): Work {
  if (read.facts.kind === 'offline') return licenceChanged(ctx, read);
  return async (tx) => {
    const uid = await accountOf(tx, read.facts.customerId, read.facts.uid);
    if (uid) await applySubscription(ctx, tx, uid, read);
  };
}

async function sessionCompleted(ctx: AppContext, stripe: StripeClient, session: Stripe.Checkout.Session): Promise<Work | null> {
  const subscriptionId = idOf(session.subscription);
  if (session.mode !== 'subscription' || !subscriptionId) return null;
  const read = await readSubscription(ctx, stripe, subscriptionId);
  if (session.metadata?.['kind'] === 'offline') {
    // The licence is issued for a paid purchase only (an async payment completes later, with its own event).
    if (session.payment_status !== 'paid') return null;
    const email = session.customer_details?.email ?? session.customer_email;
    if (!email) {
      ctx.log.error({ session: session.id }, 'a paid offline licence purchase without the buyer\'s email: no licence issued');
      return null;
    }
    return async (tx, afterCommit) => {
      const buyer = session.metadata?.['uid'];
      const userId = buyer && (await findBillingRow(tx, buyer)) ? buyer : null;
      await ctx.events.emit('licence.purchased', {
        tx,
        afterCommit,
        userId,
        email,
        sessionId: session.id,
        subscriptionId,
        quantity: read.facts.quantity,
        periodEnd: read.facts.periodEnd,
        language: session.metadata?.['language'] || 'en',
      });
    };
  }
  return async (tx) => {
    const uid = await accountOf(tx, idOf(session.customer), session.client_reference_id ?? session.metadata?.['uid']);
    if (uid) await applySubscription(ctx, tx, uid, read);
  };
}

/** An abandoned checkout: the account no longer waits for it. */
function sessionExpired(session: Stripe.Checkout.Session): Work | null {
  const uid = session.metadata?.['kind'] === 'subscription' ? session.client_reference_id : null;
  return uid ? (tx) => markPlanUpdating(tx, uid, false) : null;
}

const invoiceSubscription = (invoice: Stripe.Invoice): string => idOf(invoice.parent?.subscription_details?.subscription);

/** Where the period an invoice pays starts: its subscription lines' period (a renewal: the new period). */
function invoicePeriodStart(invoice: Stripe.Invoice, read: ReadSubscription): Date {
  const starts = invoice.lines.data.map((line) => line.period?.start).filter((start): start is number => typeof start === 'number');
  return starts.length ? new Date(Math.max(...starts) * 1000) : read.facts.periodStart;
}

/**
 * An invoice of a subscription: an offline licence's follows its subscription; an account's applies the
 * subscription as Stripe has it now, then `then` runs for the account that still holds it.
 */
async function invoiceWork(
  ctx: AppContext,
  stripe: StripeClient,
  invoice: Stripe.Invoice,
  then: (tx: Queryable, uid: string, read: ReadSubscription) => Promise<void>,
): Promise<Work | null> {
  const subscriptionId = invoiceSubscription(invoice);
  if (!subscriptionId) return null;
  const read = await readSubscription(ctx, stripe, subscriptionId);
  if (read.facts.kind === 'offline') return licenceChanged(ctx, read);
  return async (tx) => {
    const uid = await accountOf(tx, read.facts.customerId, read.facts.uid);
    if (!uid) return;
    await applySubscription(ctx, tx, uid, read);
    const row = await findBillingRow(tx, uid);
    if (row?.stripe_subscription_id === subscriptionId) await then(tx, uid, read);
  };
}

function invoicePaid(ctx: AppContext, stripe: StripeClient, invoice: Stripe.Invoice): Promise<Work | null> {
  return invoiceWork(ctx, stripe, invoice, async (tx, uid, read) => {
    await setPaymentFailed(tx, uid, null);
    // A renewal (docs/billing.md#renewal): the quota period starts again with the paid period.
    if (invoice.billing_reason === 'subscription_cycle') await renewPeriod(tx, uid, invoicePeriodStart(invoice, read));
  });
}

function paymentFailed(ctx: AppContext, stripe: StripeClient, invoice: Stripe.Invoice, at: Date): Promise<Work | null> {
  return invoiceWork(ctx, stripe, invoice, async (tx, uid, read) => {
    // Shown while the subscription waits for a payment; a failure reported after a later success is not.
    if (read.facts.status !== 'active' && read.facts.status !== 'trialing') await setPaymentFailed(tx, uid, at);
  });
}
