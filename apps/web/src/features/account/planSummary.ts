import type { User } from '@sheaf/shared';

/**
 * The quota renews one month after the billing date (docs/plans.md#quota-and-counter), same day of month
 * where it exists.
 */
export function renewalDate(billingDate: string): Date {
  const start = new Date(billingDate);
  const next = new Date(start);
  next.setUTCMonth(start.getUTCMonth() + 1);
  // 31 January + 1 month would roll into March: clamp to the last day of February instead.
  if (next.getUTCDate() !== start.getUTCDate()) next.setUTCDate(0);
  return next;
}

export type Usage =
  | { kind: 'unknown' }
  | { kind: 'unlimited'; used: number }
  | { kind: 'limited'; used: number; quota: number; percent: number };

/** Documents used in this period against the plan's quota (counter -1 means not known yet). */
export function usageOf(user: Pick<User, 'counter' | 'quota'>): Usage {
  if (user.counter < 0) return { kind: 'unknown' };
  if (user.quota === null) return { kind: 'unlimited', used: user.counter };
  const percent = user.quota > 0 ? Math.min(100, Math.round((user.counter / user.quota) * 100)) : 100;
  return { kind: 'limited', used: user.counter, quota: user.quota, percent };
}
