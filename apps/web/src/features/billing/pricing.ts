/**
 * What the pricing tables say about money (docs/billing.md#the-billing-pages). Every amount comes from
 * GET /v1/plans (built from the plan catalogue); nothing here knows a price.
 */
import type { BillingCycle, PlanInfo, PlanList } from '@sheaf/shared';

type Price = NonNullable<PlanInfo['price']>;

/** A price for one cycle: per month, and the yearly bill when billed yearly. */
export interface PriceLine {
  perMonth: number;
  /** The yearly bill (12 x the discounted monthly price); null when billed monthly. */
  billedYearly: number | null;
}

export function priceLine(price: Price, cycle: BillingCycle): PriceLine {
  return cycle === 'year' ? { perMonth: price.yearlyMonthly, billedYearly: price.yearly } : { perMonth: price.monthly, billedYearly: null };
}

/** Whole US dollars in the UI language's way ("$1,284", "1.284 $"). Prices exclude VAT. */
export function formatUsd(amount: number, locale: string): string {
  const whole = Number.isInteger(amount);
  return new Intl.NumberFormat(locale, {
    style: 'currency',
    currency: 'USD',
    minimumFractionDigits: whole ? 0 : 2,
    maximumFractionDigits: whole ? 0 : 2,
  }).format(amount);
}

/** What a year costs on a cycle: 12 monthly bills, or the yearly bill. */
export const yearlyCost = (price: Price, cycle: BillingCycle): number => (cycle === 'year' ? price.yearly : 12 * price.monthly);

/**
 * Months free when billed yearly, as the plans on sale give it (12 monthly bills minus the yearly bill,
 * in months of the monthly price): the most any plan offers, 0 when none is cheaper yearly.
 */
export function monthsFreeYearly(plans: readonly PlanInfo[]): number {
  let best = 0;
  for (const { price } of plans) {
    if (!price || price.monthly <= 0) continue;
    best = Math.max(best, Math.floor((12 * price.monthly - price.yearly) / price.monthly + 1e-9));
  }
  return best;
}

/** The online plans of the pricing table (Free, Pro, Enterprise), in catalogue order. */
export const onlinePlans = (list: PlanList): PlanInfo[] => list.plans.filter((plan) => plan.edition === 'web' && plan.price !== null);

export const offlinePlan = (list: PlanList): PlanInfo | undefined => list.plans.find((plan) => plan.kind === 'licence');

/**
 * The offline licences bought at once: the first at the plan's price, each further one at the
 * additional licence's (the plan's own price where the configured reading has no additional licence).
 */
export function offlineTotal(plan: PlanInfo, cycle: BillingCycle, quantity: number): PriceLine | null {
  if (!plan.price) return null;
  const count = Math.max(1, Math.floor(quantity));
  const first = priceLine(plan.price, cycle);
  const further = priceLine(plan.additionalLicence?.price ?? plan.price, cycle);
  return {
    perMonth: first.perMonth + (count - 1) * further.perMonth,
    billedYearly: first.billedYearly === null ? null : first.billedYearly + (count - 1) * (further.billedYearly ?? 0),
  };
}

/** The Stripe price id of a plan for a cycle (what POST /createOfflineCheckoutSession takes). */
export const priceIdOf = (plan: PlanInfo, cycle: BillingCycle): string | null => plan.priceIds?.[cycle] ?? null;

/**
 * How a plan change is settled (Stripe's proration): a new cycle starts a new period today with the
 * unused part credited; on the same cycle a dearer plan charges the prorated difference, a cheaper one
 * credits it against the next invoices.
 */
export type ChangeSettlement = 'newPeriod' | 'charge' | 'credit';

export function changeSettlement(from: { price: Price; cycle: BillingCycle }, to: { price: Price; cycle: BillingCycle }): ChangeSettlement {
  if (from.cycle !== to.cycle) return 'newPeriod';
  return yearlyCost(to.price, to.cycle) >= yearlyCost(from.price, from.cycle) ? 'charge' : 'credit';
}

/** The announced price increase is shown until its day (a date in YYYY-MM-DD, compared as UTC days). */
export function showsPriceIncrease(date: string | null, now: Date): boolean {
  if (!date) return false;
  const day = Date.parse(`${date}T00:00:00Z`);
  return Number.isFinite(day) && now.getTime() < day;
}

/** Licences bought at once (POST /createOfflineCheckoutSession accepts 1 to 100). */
export const MAX_LICENCES = 100;

/** The typed number of licences, or null when it is not a whole number from 1 to MAX_LICENCES. */
export function parseQuantity(value: string): number | null {
  const text = value.trim();
  if (!/^\d{1,3}$/.test(text)) return null;
  const count = Number(text);
  return count >= 1 && count <= MAX_LICENCES ? count : null;
}
