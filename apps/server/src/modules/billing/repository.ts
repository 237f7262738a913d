/**
 * SQL of billing: the users row's subscription columns, the Stripe events applied, the checkout
 * sessions this server created. Queries name the account they touch; the webhook's look-ups by Stripe
 * customer id are how an event finds its account.
 */
import type { BillingAddress, BillingCycle, BillingPlan } from '@sheaf/shared';
import { json, type Queryable } from '../../adapters/db/index.ts';

export interface BillingRow {
  id: string;
  email: string;
  first_name: string;
  last_name: string;
  language: string;
  billing_plan: string;
  billing_cycle: string | null;
  billing_date: Date;
  stripe_customer_id: string | null;
  stripe_subscription_id: string | null;
  subscription_status: string | null;
  cancel_at_period_end: boolean;
  current_period_end: Date | null;
  payment_failed_at: Date | null;
  subscription_read_at: number;
  billing_plan_updating_at: Date | null;
  billing_address: BillingAddress | null;
}

const COLUMNS = `id, email, first_name, last_name, language, billing_plan, billing_cycle, billing_date, stripe_customer_id,
  stripe_subscription_id, subscription_status, cancel_at_period_end, current_period_end, payment_failed_at, subscription_read_at,
  billing_plan_updating_at, billing_address`;

export async function findBillingRow(q: Queryable, uid: string): Promise<BillingRow | undefined> {
  const [row] = await q.query<BillingRow>(`SELECT ${COLUMNS} FROM users WHERE id = $1`, [uid]);
  return row;
}

/** The row, locked until the transaction ends: subscription changes of one account apply one at a time. */
export async function lockBillingRow(tx: Queryable, uid: string): Promise<BillingRow | undefined> {
  const [row] = await tx.query<BillingRow>(`SELECT ${COLUMNS} FROM users WHERE id = $1 FOR UPDATE`, [uid]);
  return row;
}

export async function findUidByCustomer(q: Queryable, customerId: string): Promise<string | undefined> {
  const [row] = await q.query<{ id: string }>('SELECT id FROM users WHERE stripe_customer_id = $1', [customerId]);
  return row?.id;
}

/** Links the account to its Stripe customer, unless it already has another one. */
export async function linkCustomer(q: Queryable, uid: string, customerId: string): Promise<void> {
  await q.query('UPDATE users SET stripe_customer_id = $2 WHERE id = $1 AND stripe_customer_id IS NULL', [uid, customerId]);
}

/** A checkout or plan change now waits for Stripe (true), or no longer does (false). */
export async function markPlanUpdating(q: Queryable, uid: string, updating: boolean): Promise<void> {
  await q.query(`UPDATE users SET billing_plan_updating_at = ${updating ? 'now()' : 'NULL'} WHERE id = $1`, [uid]);
}

export interface SubscriptionState {
  plan: BillingPlan;
  cycle: BillingCycle | null;
  subscriptionId: string | null;
  status: string | null;
  cancelAtPeriodEnd: boolean;
  currentPeriodEnd: Date | null;
  /** When this state was read from Stripe (ms, this server's clock). */
  readAt: number;
  /** A new subscription: its quota period starts with it (counter back to 0). */
  periodStart?: Date;
}

/** The subscription as Stripe told us; it ends the wait of a checkout or plan change. */
export async function saveSubscriptionState(tx: Queryable, uid: string, state: SubscriptionState): Promise<void> {
  await tx.query(
    `UPDATE users SET billing_plan = $2, billing_cycle = $3, stripe_subscription_id = $4, subscription_status = $5,
       cancel_at_period_end = $6, current_period_end = $7, subscription_read_at = $8, billing_plan_updating_at = NULL,
       billing_date = COALESCE($9, billing_date), counter = CASE WHEN $9::timestamptz IS NULL THEN counter ELSE 0 END,
       payment_failed_at = CASE WHEN $4::text IS NULL THEN NULL ELSE payment_failed_at END
     WHERE id = $1`,
    [uid, state.plan, state.cycle, state.subscriptionId, state.status, state.cancelAtPeriodEnd, state.currentPeriodEnd, state.readAt, state.periodStart ?? null],
  );
}

/**
 * A renewal: the quota period starts again at the new billing period. Only forward: a late or replayed
 * renewal never resets the counter of a period already started (docs/billing.md#renewal).
 */
export async function renewPeriod(tx: Queryable, uid: string, periodStart: Date): Promise<boolean> {
  const rows = await tx.query('UPDATE users SET billing_date = $2, counter = 0 WHERE id = $1 AND billing_date < $2 RETURNING id', [uid, periodStart]);
  return rows.length > 0;
}

/** The last payment failed at `at`; null once a payment succeeds. */
export async function setPaymentFailed(tx: Queryable, uid: string, at: Date | null): Promise<void> {
  await tx.query('UPDATE users SET payment_failed_at = $2 WHERE id = $1', [uid, at]);
}

export async function saveBillingAddress(q: Queryable, uid: string, address: BillingAddress): Promise<void> {
  await q.query('UPDATE users SET billing_address = $2::jsonb WHERE id = $1', [uid, json(address)]);
}

/** Records an event as applied; false when it was already (a retried or replayed delivery). */
export async function recordStripeEvent(tx: Queryable, id: string, type: string): Promise<boolean> {
  const rows = await tx.query('INSERT INTO stripe_events (id, type) VALUES ($1, $2) ON CONFLICT (id) DO NOTHING RETURNING id', [id, type]);
  return rows.length > 0;
}

export async function stripeEventApplied(q: Queryable, id: string): Promise<boolean> {
  return (await q.query('SELECT 1 FROM stripe_events WHERE id = $1', [id])).length > 0;
}

export interface CheckoutSessionRow {
  id: string;
  user_id: string | null;
  visitor_token_hash: string | null;
  kind: 'subscription' | 'offline';
  plan: string;
  cycle: string;
  quantity: number;
}

/**
 * Records a session this server created. The same session again (Stripe answered a retried request with
 * it, same idempotency key) keeps its owner; a visitor's retry replaces the proof of ownership with the
 * one just sent to their browser.
 */
export async function saveCheckoutSession(q: Queryable, row: CheckoutSessionRow): Promise<void> {
  await q.query(
    `INSERT INTO checkout_sessions (id, user_id, visitor_token_hash, kind, plan, cycle, quantity) VALUES ($1, $2, $3, $4, $5, $6, $7)
     ON CONFLICT (id) DO UPDATE SET visitor_token_hash = EXCLUDED.visitor_token_hash
       WHERE checkout_sessions.user_id IS NULL AND EXCLUDED.user_id IS NULL`,
    [row.id, row.user_id, row.visitor_token_hash, row.kind, row.plan, row.cycle, row.quantity],
  );
}

export async function findCheckoutSession(q: Queryable, id: string): Promise<CheckoutSessionRow | undefined> {
  const [row] = await q.query<CheckoutSessionRow>(
    'SELECT id, user_id, visitor_token_hash, kind, plan, cycle, quantity FROM checkout_sessions WHERE id = $1',
    [id],
  );
  return row;
}
