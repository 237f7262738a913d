/**
 * Plans, subscriptions, the offline licence purchase and licences (docs/billing.md). The prices and
 * what each plan allows come from the plan catalogue (plans.ts); Stripe's price ids come from the
 * server's settings, so no client hard-codes a price.
 */
import { z } from 'zod';
import { BILLING_PLANS, EDITIONS } from '../plans.ts';
import { LICENCE_KEY_LENGTH } from '../constants.ts';

export const BILLING_CYCLES = ['month', 'year'] as const;
export type BillingCycle = (typeof BILLING_CYCLES)[number];
export const BillingCycleSchema = z.enum(BILLING_CYCLES);

/** Plans a subscription can be bought for (online, paid). */
export const SUBSCRIPTION_PLANS = ['Pro', 'Enterprise'] as const;
export type SubscriptionPlan = (typeof SUBSCRIPTION_PLANS)[number];
export const SubscriptionPlanSchema = z.enum(SUBSCRIPTION_PLANS);

const PriceSchema = z.object({
  monthly: z.number(),
  yearlyMonthly: z.number(),
  /** The yearly bill: 12 x yearlyMonthly. */
  yearly: z.number(),
});
const PriceIdsSchema = z.object({ month: z.string(), year: z.string() });

/** One plan of GET /plans: the catalogue entry, its prices and its Stripe price ids. */
export const PlanInfoSchema = z.object({
  plan: z.enum(BILLING_PLANS),
  kind: z.enum(['free', 'subscription', 'licence', 'trial']),
  edition: z.enum(EDITIONS),
  price: PriceSchema.nullable(),
  /** Stripe price ids per cycle; null for plans not sold through Stripe (Free, Unlicensed). */
  priceIds: PriceIdsSchema.nullable(),
  /** The offline plan's additional licence (raises the machine limit by one); null elsewhere. */
  additionalLicence: z.object({ price: PriceSchema, priceIds: PriceIdsSchema }).nullable(),
  refundDays: z.number().int(),
  documentsPerMonth: z.number().int().nullable(),
  users: z.number().int(),
  watermark: z.boolean(),
  sendEmail: z.boolean(),
  dkim: z.boolean(),
  smtp: z.boolean(),
  integrations: z.boolean(),
  individualFileNames: z.boolean(),
  reusableTemplates: z.boolean(),
  support: z.enum(['standard', 'priority']),
});
export type PlanInfo = z.infer<typeof PlanInfoSchema>;

export const PlanListSchema = z.object({
  plans: z.array(PlanInfoSchema),
  currency: z.literal('usd'),
  /** Which of the spec's two offline prices is configured (plans.ts OFFLINE_PRICE_READINGS). */
  offlinePriceReading: z.enum(['perLicence', 'billedYearly79']),
  /** The announced price increase (YYYY-MM-DD), shown until that day; null: none announced. */
  priceIncreaseDate: z.string().nullable(),
  /** Stripe is configured on this server (else billing screens say so and nothing can be bought). */
  billingConfigured: z.boolean(),
  /** For the embedded checkout: Stripe.js's address and the publishable key (null when not configured). */
  stripeJsUrl: z.string(),
  stripePublishableKey: z.string().nullable(),
});
export type PlanList = z.infer<typeof PlanListSchema>;

/** The EU billing address kept on the Stripe customer (VAT id as its tax id). */
export const BillingAddressSchema = z.object({
  organization: z.string().trim().max(200).default(''),
  line1: z.string().trim().min(1, 'billing/address-required').max(200),
  line2: z.string().trim().max(200).default(''),
  zip: z.string().trim().min(1, 'billing/address-required').max(20),
  city: z.string().trim().min(1, 'billing/address-required').max(100),
  /** ISO 3166-1 alpha-2. */
  country: z.string().trim().regex(/^[A-Za-z]{2}$/, 'billing/country-invalid').transform((value) => value.toUpperCase()),
  /** EU VAT id such as DE123456789 (optional). */
  vatId: z.string().trim().max(20).default(''),
});
export type BillingAddress = z.infer<typeof BillingAddressSchema>;

export const SUBSCRIPTION_STATUSES = ['active', 'trialing', 'past_due', 'unpaid', 'incomplete', 'incomplete_expired', 'canceled', 'paused'] as const;

/** GET /billing: the signed-in account's plan and subscription as Stripe last told us. */
export const BillingStatusSchema = z.object({
  plan: z.enum(BILLING_PLANS),
  cycle: BillingCycleSchema.nullable(),
  /** Start of the current quota period (ISO). */
  billingDate: z.string(),
  /** When the quota renews (billingDate + 1 month). */
  renewsAt: z.string(),
  /** A checkout or plan change is waiting for Stripe's confirmation (webhook). */
  isUpdatingBillingPlan: z.boolean(),
  subscription: z
    .object({
      status: z.enum(SUBSCRIPTION_STATUSES),
      /** Cancelled: stays usable until currentPeriodEnd, then the account is on Free. */
      cancelAtPeriodEnd: z.boolean(),
      /** End of the paid period: the next bill, or the last usable day when cancelled (ISO). */
      currentPeriodEnd: z.string(),
      /** The last payment failed (ISO of the failure); null once a payment succeeds. */
      paymentFailedAt: z.string().nullable(),
    })
    .nullable(),
  address: BillingAddressSchema.nullable(),
  billingConfigured: z.boolean(),
});
export type BillingStatus = z.infer<typeof BillingStatusSchema>;

/** Buying needs the terms and the waiver of the withdrawal right (docs/billing.md#checkout). */
const ConsentSchema = z.object({
  acceptTerms: z.literal(true, 'billing/terms-required'),
  waiveWithdrawal: z.literal(true, 'billing/waiver-required'),
});

export const CheckoutRequestSchema = ConsentSchema.extend({ plan: SubscriptionPlanSchema, cycle: BillingCycleSchema });
/** Where the browser goes next: Stripe Checkout's page. */
export const RedirectSchema = z.object({ url: z.string() });

export const ChangePlanRequestSchema = z.object({ plan: SubscriptionPlanSchema, cycle: BillingCycleSchema });

/** POST /createOfflineCheckoutSession: the spec's call, priceId being the offline plan's monthly or yearly price. */
export const OfflineCheckoutRequestSchema = ConsentSchema.extend({
  priceId: z.string().min(1).max(200),
  /** Licences bought at once: the first at the plan's price, each further one at the additional licence's. */
  quantity: z.number().int().min(1).max(100).default(1),
});
export const OfflineCheckoutResponseSchema = z.object({ clientSecret: z.string(), sessionId: z.string() });

export const SessionStatusQuerySchema = z.object({ sessionId: z.string().min(1).max(300) });
/** Stripe's own words: status open | complete | expired; payment_status paid | unpaid | no_payment_required. */
export const SessionStatusSchema = z.object({ status: z.string(), payment_status: z.string() });

/** A 25-character licence key as typed: letters and digits, dashes and spaces ignored (docs/billing.md#licences). */
export const LicenceKeySchema = z
  .string()
  .max(60)
  .transform((value) => value.replace(/[\s-]/g, '').toUpperCase())
  .refine((value) => value.length === LICENCE_KEY_LENGTH && /^[0-9A-Z]+$/.test(value), 'licence/invalid-format');

export const LicenceSchema = z.object({
  key: z.string(),
  plan: z.enum(BILLING_PLANS),
  machineLimit: z.number().int(),
  /** Machines activated so far. */
  machines: z.number().int(),
  /** ISO; the licence renews with its subscription. */
  expiresAt: z.string(),
  createdAt: z.string(),
  status: z.enum(['active', 'expired']),
});
export type Licence = z.infer<typeof LicenceSchema>;
export const LicenceListSchema = z.object({ licences: z.array(LicenceSchema) });

/** POST /licences/activate: the desktop edition binds a key to a machine and receives the signed licence. */
export const ActivateLicenceSchema = z.object({ key: LicenceKeySchema, machineId: z.string().min(8).max(200) });
export const SignedLicenceSchema = z.object({
  /** base64url JSON of the licence's fields (key, plan, machineLimit, expiresAt, machineId, issuedAt). */
  payload: z.string(),
  /** base64url Ed25519 signature over the payload's bytes. */
  signature: z.string(),
});
export type SignedLicence = z.infer<typeof SignedLicenceSchema>;
