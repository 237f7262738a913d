/**
 * The monthly document quota (docs/plans.md#quota-and-counter): a counter of documents generated since
 * billing_date; one month later the period renews (counter back to 0). The merges module calls
 * `getCredits` before a merge and `chargeDocuments` inside its transaction.
 */
import { billingPlanOf, PLAN_CATALOGUE, SheafError, type BillingPlan } from '@sheaf/shared';
import type { Queryable } from '../../adapters/db/types.ts';

export interface Period {
  /** Documents generated in the current period. */
  counter: number;
  /** Documents allowed per period; null is unlimited. */
  quota: number | null;
  /** Start of the current period. */
  billingDate: Date;
  /** When the counter renews: billingDate plus one month. */
  renewsAt: Date;
  plan: BillingPlan;
}

interface PeriodRow {
  counter: number;
  billing_plan: string;
  billing_date: Date;
  renews_at: Date;
}

/**
 * The user's current period. When a month or more has passed since billing_date, moves billing_date
 * forward by whole months (keeping the day of the month) and resets the counter first. The month
 * arithmetic is PostgreSQL's, so month ends clamp the way the database does.
 */
export async function currentPeriod(q: Queryable, uid: string): Promise<Period> {
  // The WHERE is re-checked under concurrency, so two callers cannot both roll the same period.
  await q.query(
    `UPDATE users SET counter = 0,
       billing_date = billing_date + make_interval(months =>
         (extract(year FROM age(now(), billing_date)) * 12 + extract(month FROM age(now(), billing_date)))::int)
     WHERE id = $1 AND now() >= billing_date + interval '1 month'`,
    [uid],
  );
  const [row] = await q.query<PeriodRow>(
    `SELECT counter, billing_plan, billing_date, billing_date + interval '1 month' AS renews_at FROM users WHERE id = $1`,
    [uid],
  );
  if (!row) throw new SheafError('auth/unauthenticated');
  // The quota is the plan's whatever the edition (the plan catalogue); an unknown name reads as Free.
  const plan = billingPlanOf(row.billing_plan);
  return {
    counter: row.counter,
    quota: PLAN_CATALOGUE[plan].documentsPerMonth,
    billingDate: row.billing_date,
    renewsAt: row.renews_at,
    plan,
  };
}

export interface Credits {
  available: number | null;
  toBeUsed: number;
  newBalance: number | null;
  unlimited: boolean;
  renewsAt: string | null;
}

/** The credits balance of docs/plans.md#credits for a merge of `toBeUsed` documents (CreditsSchema). */
export async function getCredits(q: Queryable, uid: string, toBeUsed: number): Promise<Credits> {
  const period = await currentPeriod(q, uid);
  if (period.quota === null) return { available: null, toBeUsed, newBalance: null, unlimited: true, renewsAt: null };
  const available = Math.max(0, period.quota - period.counter);
  return { available, toBeUsed, newBalance: available - toBeUsed, unlimited: false, renewsAt: period.renewsAt.toISOString() };
}

/** Adds `count` generated documents to the counter (run inside the caller's transaction). */
export async function chargeDocuments(q: Queryable, uid: string, count: number): Promise<void> {
  if (count <= 0) return;
  await q.query('UPDATE users SET counter = counter + $2 WHERE id = $1', [uid, count]);
}
