/** What the plan and counter chips say, from the user record (pure; the chips only render it). */
import { entitlements, PLAN_CATALOGUE, type Edition, type User } from '@sheaf/shared';

/** The quota renews one month after the billing date (docs/plans.md#quota-and-counter). */
export function renewalDate(billingDate: string): Date | null {
  const start = new Date(billingDate);
  if (Number.isNaN(start.getTime())) return null;
  const renewal = new Date(start);
  renewal.setUTCMonth(renewal.getUTCMonth() + 1);
  // 31 January + 1 month lands in March: step back to the last day of February.
  if (renewal.getUTCDate() !== start.getUTCDate()) renewal.setUTCDate(0);
  return renewal;
}

/** Free users and subscribers see when the counter renews; offline and unlicensed do not. */
export function showsRenewal(user: Pick<User, 'billingPlan' | 'billingCycle'>): boolean {
  return PLAN_CATALOGUE[user.billingPlan].kind === 'free' || user.billingCycle !== null;
}

export const isChildUser = (user: Pick<User, 'parentUid'> | undefined): boolean => Boolean(user?.parentUid);
/** The plan chip and the menu offer an upgrade (no user yet, or the web's Free plan: the plan catalogue). */
export const offersUpgrade = (user: Pick<User, 'billingPlan'> | undefined, edition: Edition): boolean =>
  !user || entitlements(user.billingPlan, edition).offersUpgrade;
