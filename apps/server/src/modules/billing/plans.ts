/**
 * GET /plans and the Stripe price ids (docs/billing.md#plans-and-price-ids): the plan catalogue of
 * packages/shared with each plan's prices, features and the price ids of the settings, and the reverse
 * reading (which plan and cycle a Stripe price id stands for) the webhooks need.
 */
import {
  BILLING_CYCLES, BILLING_PLANS, OFFLINE_PRICE_READINGS, PLAN_CATALOGUE, entitlements, isBillingPlan, planPrice,
  type BillingCycle, type BillingPlan, type PlanInfo, type PlanList,
} from '@sheaf/shared';
import type { Config } from '../../config.ts';
import { PRICE_KEYS, type PriceKey } from '../../config-billing.ts';

/** The additional offline licence's key prefix in STRIPE_PRICE_IDS (it is a price, not a plan). */
const ADDITIONAL = 'OfflineAdditional';

const priceKey = (name: string, cycle: BillingCycle): PriceKey | undefined => PRICE_KEYS.find((key) => key === `${name}.${cycle}`);

/** The price id of a plan (or of the additional licence) for a cycle; undefined for plans Stripe does not sell. */
export function priceIdOf(config: Config, name: BillingPlan | typeof ADDITIONAL, cycle: BillingCycle): string | undefined {
  const key = priceKey(name, cycle);
  return key ? config.STRIPE_PRICE_IDS[key] : undefined;
}

export interface PricedPlan {
  plan: BillingPlan;
  cycle: BillingCycle;
}

/** The online plan (a subscription of the catalogue) a price id stands for; undefined for any other price. */
export function subscriptionPlanOfPrice(config: Config, priceId: string): PricedPlan | undefined {
  for (const key of PRICE_KEYS) {
    if (config.STRIPE_PRICE_IDS[key] !== priceId) continue;
    const [name, cycle] = key.split('.') as [string, BillingCycle];
    if (isBillingPlan(name) && PLAN_CATALOGUE[name].kind === 'subscription') return { plan: name, cycle };
  }
  return undefined;
}

/** The offline plan of the catalogue (the one sold by licence). */
export function offlinePlan(): BillingPlan {
  const plan = BILLING_PLANS.find((candidate) => PLAN_CATALOGUE[candidate].kind === 'licence');
  if (!plan) throw new Error('the plan catalogue has no licence plan');
  return plan;
}

/** The offline plan's cycle a price id stands for (the price the offline checkout is asked for). */
export function offlineCycleOfPrice(config: Config, priceId: string): BillingCycle | undefined {
  return BILLING_CYCLES.find((cycle) => priceIdOf(config, offlinePlan(), cycle) === priceId);
}

/** The additional licence's price id for a cycle; undefined in a price reading without one. */
export function additionalLicencePriceId(config: Config, cycle: BillingCycle): string | undefined {
  return OFFLINE_PRICE_READINGS[config.OFFLINE_PRICE_READING].additionalLicence ? priceIdOf(config, ADDITIONAL, cycle) : undefined;
}

const yearly = (price: { monthly: number; yearlyMonthly: number }) => ({ monthly: price.monthly, yearlyMonthly: price.yearlyMonthly, yearly: 12 * price.yearlyMonthly });

function planInfo(config: Config, plan: BillingPlan): PlanInfo {
  const definition = PLAN_CATALOGUE[plan];
  const allowed = entitlements(plan, definition.edition);
  const sold = definition.kind === 'subscription' || definition.kind === 'licence';
  const ids = (name: BillingPlan | typeof ADDITIONAL) => ({ month: priceIdOf(config, name, 'month') ?? '', year: priceIdOf(config, name, 'year') ?? '' });
  const additional = definition.kind === 'licence' ? OFFLINE_PRICE_READINGS[config.OFFLINE_PRICE_READING].additionalLicence : null;
  return {
    plan,
    kind: definition.kind,
    edition: definition.edition,
    price: planPrice(plan, config.OFFLINE_PRICE_READING),
    priceIds: sold ? ids(plan) : null,
    additionalLicence: additional ? { price: yearly(additional), priceIds: ids(ADDITIONAL) } : null,
    refundDays: definition.refundDays,
    documentsPerMonth: allowed.documentsPerMonth,
    users: allowed.users,
    watermark: allowed.watermark,
    sendEmail: allowed.sendEmail,
    dkim: allowed.dkim,
    smtp: allowed.senderMethods.includes('smtp'),
    integrations: allowed.integrations,
    individualFileNames: allowed.individualFileNames,
    reusableTemplates: allowed.reusableTemplates,
    support: allowed.support,
  };
}

/** The announced price increase: its date until that day has passed; null when none is announced. */
export function priceIncreaseDate(setting: string, now = new Date()): string | null {
  if (setting === 'none') return null;
  return setting >= now.toISOString().slice(0, 10) ? setting : null;
}

export function listPlans(config: Config, billingConfigured: boolean): PlanList {
  return {
    plans: BILLING_PLANS.map((plan) => planInfo(config, plan)),
    currency: 'usd',
    offlinePriceReading: config.OFFLINE_PRICE_READING,
    priceIncreaseDate: priceIncreaseDate(config.PRICE_INCREASE_DATE),
    billingConfigured,
    stripeJsUrl: config.STRIPE_JS_URL,
    stripePublishableKey: billingConfigured ? (config.STRIPE_PUBLISHABLE_KEY ?? null) : null,
  };
}
