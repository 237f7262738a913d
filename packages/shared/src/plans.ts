/**
 * The plan catalogue (docs/plans.md): what each billing
 * plan costs and allows, and the edition rules on top. `entitlements(plan, edition)` is the one reading
 * of it: the server's checks, the web app's gating and the pricing table all call it, so nothing else in
 * the code compares plan names.
 */

import type { ErrorCode } from './errors.ts';

export const BILLING_PLANS = ['Free', 'Pro', 'Enterprise', 'Offline', 'Unlicensed'] as const;
export type BillingPlan = (typeof BILLING_PLANS)[number];

/** The online (multi-tenant) service, or the offline desktop edition sold by licence. */
export const EDITIONS = ['web', 'desktop'] as const;
export type Edition = (typeof EDITIONS)[number];

/** How a sender proves an address is the user's (the definitions live in api/senders.ts). */
export const SENDER_METHODS = ['spoof', 'domain', 'smtp'] as const;
export type SenderMethod = (typeof SENDER_METHODS)[number];

export type SupportLevel = 'standard' | 'priority';
/** free: the web's entry plan; subscription: paid monthly or yearly online; licence: the desktop's paid plan; trial: the desktop without a licence. */
export type PlanKind = 'free' | 'subscription' | 'licence' | 'trial';
export type TemplateKind = 'pdf' | 'sfdt';

/**
 * A price in whole US dollars, excluding VAT. `monthly` is the price per month billed monthly;
 * `yearlyMonthly` is the discounted price per month billed yearly. The yearly bill is 12 times
 * `yearlyMonthly` (docs/plans.md#prices).
 */
export interface PlanPrice {
  readonly monthly: number;
  readonly yearlyMonthly: number;
}

export interface PlanDefinition {
  readonly plan: BillingPlan;
  readonly kind: PlanKind;
  /** The edition the plan is sold for (the other edition still reads it through `entitlements`). */
  readonly edition: Edition;
  /** null: not for sale (the desktop trial is what runs before a licence is entered). */
  readonly price: PlanPrice | null;
  /** Money-back guarantee in days: 30 on online plans, none on the offline licence. */
  readonly refundDays: number;
  /** Documents per quota period (one month from billingDate); null is unlimited. */
  readonly documentsPerMonth: number | null;
  readonly users: 1 | 5;
  /** Documents carry FREE_PLAN_WATERMARK. */
  readonly watermark: boolean;
  /** Emails and test emails (docs/plans.md#what-each-plan-may-do: not on Free). */
  readonly sendEmail: boolean;
  /** Sender methods on the web edition (spoof: Pro and up; smtp and domain: Enterprise). */
  readonly senderMethods: readonly SenderMethod[];
  /** DKIM-signed mail from the user's own domain (comes with the domain method). */
  readonly dkim: boolean;
  /** Zapier, Make, Dropbox, Google Drive (docs/plans.md#what-each-plan-may-do). */
  readonly integrations: boolean;
  /** File names from a {{Column}} pattern per document. */
  readonly individualFileNames: boolean;
  readonly reusableTemplates: boolean;
  readonly support: SupportLevel;
}

/**
 * The offline licence's price, which has two readings (docs/plans.md#prices): per licence $129 a month
 * or $1284 a year ($107 a month billed yearly), each additional licence $29 a month or $228 a year; or
 * "$79 per month billed yearly ($948)". DEFAULT: 'perLicence', the reading that follows the catalogue's
 * own rule (yearly = 12 x the discounted monthly, about two months free). Pass the other reading to
 * `planPrice` to show it.
 */
export const OFFLINE_PRICE_READINGS = {
  perLicence: { monthly: 129, yearlyMonthly: 107, additionalLicence: { monthly: 29, yearlyMonthly: 19 } },
  billedYearly79: { monthly: 79, yearlyMonthly: 79, additionalLicence: null },
} as const satisfies Record<string, PlanPrice & { additionalLicence: PlanPrice | null }>;
export type OfflinePriceReading = keyof typeof OFFLINE_PRICE_READINGS;
export const DEFAULT_OFFLINE_PRICE_READING: OfflinePriceReading = 'perLicence';

/**
 * The catalogue. Pro and Enterprise prices are ours to set (docs/plans.md#prices): $24 and $36
 * a month, $20 and $30 a month billed yearly (exactly two months free). Individual file names and
 * reusable templates are on every plan (today's behaviour; the pricing table lists them as included).
 * The trial's 100 documents (docs/plans.md#plans) are counted per period like every quota.
 */
export const PLAN_CATALOGUE: Readonly<Record<BillingPlan, PlanDefinition>> = {
  Free: {
    plan: 'Free', kind: 'free', edition: 'web', price: { monthly: 0, yearlyMonthly: 0 }, refundDays: 0,
    documentsPerMonth: 100, users: 1, watermark: true, sendEmail: false, senderMethods: [], dkim: false,
    integrations: false, individualFileNames: true, reusableTemplates: true, support: 'standard',
  },
  Pro: {
    plan: 'Pro', kind: 'subscription', edition: 'web', price: { monthly: 24, yearlyMonthly: 20 }, refundDays: 30,
    documentsPerMonth: 1_000, users: 1, watermark: false, sendEmail: true, senderMethods: ['spoof'], dkim: false,
    integrations: true, individualFileNames: true, reusableTemplates: true, support: 'standard',
  },
  Enterprise: {
    plan: 'Enterprise', kind: 'subscription', edition: 'web', price: { monthly: 36, yearlyMonthly: 30 }, refundDays: 30,
    documentsPerMonth: 10_000, users: 5, watermark: false, sendEmail: true, senderMethods: SENDER_METHODS, dkim: true,
    integrations: true, individualFileNames: true, reusableTemplates: true, support: 'priority',
  },
  Offline: {
    plan: 'Offline', kind: 'licence', edition: 'desktop', price: OFFLINE_PRICE_READINGS[DEFAULT_OFFLINE_PRICE_READING], refundDays: 0,
    documentsPerMonth: null, users: 1, watermark: false, sendEmail: true, senderMethods: ['smtp'], dkim: false,
    integrations: false, individualFileNames: true, reusableTemplates: true, support: 'priority',
  },
  Unlicensed: {
    plan: 'Unlicensed', kind: 'trial', edition: 'desktop', price: null, refundDays: 0,
    documentsPerMonth: 100, users: 1, watermark: true, sendEmail: false, senderMethods: [], dkim: false,
    integrations: false, individualFileNames: true, reusableTemplates: true, support: 'standard',
  },
};

/** What a plan allows on an edition: the catalogue entry with the edition's rules applied. */
export interface Entitlements extends Omit<PlanDefinition, 'price' | 'refundDays' | 'edition'> {
  readonly edition: Edition;
  /** Template kinds the edition handles (desktop: PDF only). */
  readonly templateKinds: readonly TemplateKind[];
  /** The navbar and billing offer an upgrade (the web's Free plan). */
  readonly offersUpgrade: boolean;
}

/** The plan a new account starts on: Free on the web; on the desktop the trial until a licence is entered. */
export const INITIAL_PLAN: Readonly<Record<Edition, BillingPlan>> = { web: 'Free', desktop: 'Unlicensed' };

export const isBillingPlan = (value: unknown): value is BillingPlan => (BILLING_PLANS as readonly unknown[]).includes(value);
/** A stored plan name as the union; anything else reads as Free, the most restrictive plan. */
export const billingPlanOf = (value: string): BillingPlan => (isBillingPlan(value) ? value : 'Free');

/**
 * The one reading of the catalogue. Edition rules (docs/plans.md#editions): the desktop edition sends
 * only through the user's own SMTP server, handles PDF only and has no integrations; whether a plan
 * may send at all stays the plan's (Free and the unlicensed trial may not, on either edition).
 * An unknown plan name (a database value from elsewhere) reads as Free, the most restrictive.
 */
export function entitlements(plan: BillingPlan, edition: Edition): Entitlements {
  const definition = PLAN_CATALOGUE[plan] ?? PLAN_CATALOGUE.Free;
  const { price: _price, refundDays: _refund, edition: _soldFor, ...features } = definition;
  const desktop = edition === 'desktop';
  return {
    ...features,
    edition,
    senderMethods: !features.sendEmail ? [] : desktop ? ['smtp'] : features.senderMethods,
    dkim: !desktop && features.dkim,
    integrations: !desktop && features.integrations,
    templateKinds: desktop ? ['pdf'] : ['pdf', 'sfdt'],
    offersUpgrade: !desktop && definition.kind === 'free',
  };
}

/**
 * Why a sender method is refused, as the catalogue code the server answers and the add-sender dialog
 * shows as its upgrade hint; null when the entitlements allow it.
 */
export function senderMethodRefusal(method: SenderMethod, allowed: Entitlements): ErrorCode | null {
  if (allowed.senderMethods.includes(method)) return null;
  if (allowed.edition === 'desktop') return method === 'smtp' ? 'email/licence-required' : 'sender/desktop-smtp-only';
  const cheapest = BILLING_PLANS.find((plan) => PLAN_CATALOGUE[plan].edition === 'web' && entitlements(plan, 'web').senderMethods.includes(method));
  return cheapest === 'Pro' ? 'sender/needs-pro' : 'sender/needs-enterprise';
}

/** Why sending emails is refused (web: a plan upgrade; desktop: a licence); null when allowed. */
export function sendEmailRefusal(allowed: Entitlements): ErrorCode | null {
  if (allowed.sendEmail) return null;
  return allowed.edition === 'desktop' ? 'email/licence-required' : 'email/plan-required';
}

/** A plan's price (the offline plan in the chosen reading), and its yearly bill. */
export function planPrice(plan: BillingPlan, offlineReading: OfflinePriceReading = DEFAULT_OFFLINE_PRICE_READING): (PlanPrice & { yearly: number }) | null {
  const price = PLAN_CATALOGUE[plan].kind === 'licence' ? OFFLINE_PRICE_READINGS[offlineReading] : PLAN_CATALOGUE[plan].price;
  return price ? { monthly: price.monthly, yearlyMonthly: price.yearlyMonthly, yearly: 12 * price.yearlyMonthly } : null;
}
