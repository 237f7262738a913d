/**
 * The billing and licence settings (docs/billing.md#settings), parsed with the rest of the
 * configuration in config.ts:
 *
 *   STRIPE_SECRET_KEY      sk_... of the Stripe account; unset = billing is not configured (the billing
 *                          screens say so; nothing can be bought)
 *   STRIPE_WEBHOOK_SECRET  whsec_... that signs the events Stripe posts to /v1/stripe/webhook
 *   STRIPE_API_URL         the Stripe API's base (https://api.stripe.com); tests and local development
 *                          point it at a stand-in
 *   STRIPE_PUBLISHABLE_KEY pk_... for the browser's embedded checkout (the offline licence)
 *   STRIPE_JS_URL          where the browser loads Stripe.js from (https://js.stripe.com/v3/)
 *   STRIPE_PRICE_IDS       comma-separated overrides of the Stripe price ids, as Plan.cycle=price_id
 *                          (keys: Pro.month, Pro.year, Enterprise.month, Enterprise.year, Offline.month,
 *                          Offline.year, OfflineAdditional.month, OfflineAdditional.year); every key has
 *                          a default (price_sheaf_pro_month, ...) so a fresh setup lists them
 *   OFFLINE_PRICE_READING  perLicence ($129 a month or $1,284 a year, each additional licence $29 or
 *                          $228) or billedYearly79 ($79 a month billed yearly); default perLicence
 *   PRICE_INCREASE_DATE    YYYY-MM-DD of the announced price increase, or none (default: the next 1 November)
 *   LICENCE_SIGNING_KEY    Ed25519 private key (PKCS#8 PEM, or base64 of its DER) that signs offline
 *                          licences; only on the server that sells them. Unset = licences cannot be issued
 *   LICENCE_PUBLIC_KEY     Ed25519 public key (SPKI PEM or base64 DER) licences are checked against
 *                          (default: Sheaf's own, in modules/licences/public-key.ts); must match
 *                          LICENCE_SIGNING_KEY when both are set
 */
import { z } from 'zod';

export const PRICE_KEYS = [
  'Pro.month', 'Pro.year', 'Enterprise.month', 'Enterprise.year',
  'Offline.month', 'Offline.year', 'OfflineAdditional.month', 'OfflineAdditional.year',
] as const;
export type PriceKey = (typeof PRICE_KEYS)[number];

/** price_sheaf_pro_month, price_sheaf_offlineadditional_year, ... */
const defaultPriceId = (key: PriceKey) => `price_sheaf_${key.replace('.', '_').toLowerCase()}`;

const emptyToUndefined = (value: unknown) => (typeof value === 'string' && value.trim() === '' ? undefined : value);
const optionalString = z.preprocess(emptyToUndefined, z.string().trim().optional());

const priceIds = z.preprocess(
  (value) => {
    const text = emptyToUndefined(value);
    if (typeof text !== 'string') return text;
    return Object.fromEntries(text.split(',').map((pair) => pair.trim()).filter(Boolean).map((pair) => {
      const at = pair.indexOf('=');
      return at < 0 ? [pair, ''] : [pair.slice(0, at).trim(), pair.slice(at + 1).trim()];
    }));
  },
  // partialRecord: any subset of the keys may be overridden (z.record with enum keys wants them all).
  z
    .partialRecord(z.enum(PRICE_KEYS, `keys must be ${PRICE_KEYS.join(', ')}`), z.string().regex(/^[\w-]{3,200}$/, 'each must be Plan.cycle=price_id'))
    .optional()
    .transform((overrides) => Object.fromEntries(PRICE_KEYS.map((key) => [key, overrides?.[key] ?? defaultPriceId(key)])) as Record<PriceKey, string>),
);

/** The next 1 November (UTC) after `now`, as YYYY-MM-DD. */
export function nextFirstOfNovember(now: Date): string {
  const year = now.getUTCMonth() >= 10 ? now.getUTCFullYear() + 1 : now.getUTCFullYear();
  return `${year}-11-01`;
}

export const BillingEnvShape = {
  STRIPE_SECRET_KEY: optionalString,
  STRIPE_WEBHOOK_SECRET: optionalString,
  STRIPE_API_URL: z.preprocess(emptyToUndefined, z.url('must be a URL such as https://api.stripe.com').default('https://api.stripe.com')),
  STRIPE_PUBLISHABLE_KEY: optionalString,
  STRIPE_JS_URL: z.preprocess(emptyToUndefined, z.url('must be a URL').default('https://js.stripe.com/v3/')),
  STRIPE_PRICE_IDS: priceIds,
  OFFLINE_PRICE_READING: z.preprocess(emptyToUndefined, z.enum(['perLicence', 'billedYearly79'], 'must be perLicence or billedYearly79').default('perLicence')),
  PRICE_INCREASE_DATE: z.preprocess(
    (value) => emptyToUndefined(value) ?? nextFirstOfNovember(new Date()),
    z.union([z.literal('none'), z.iso.date('must be YYYY-MM-DD or none')]),
  ),
  LICENCE_SIGNING_KEY: optionalString,
  LICENCE_PUBLIC_KEY: optionalString,
};

export interface BillingConfig {
  readonly STRIPE_SECRET_KEY: string | undefined;
  readonly STRIPE_WEBHOOK_SECRET: string | undefined;
  readonly STRIPE_API_URL: string;
  readonly STRIPE_PUBLISHABLE_KEY: string | undefined;
  readonly STRIPE_JS_URL: string;
  readonly STRIPE_PRICE_IDS: Readonly<Record<PriceKey, string>>;
  readonly OFFLINE_PRICE_READING: 'perLicence' | 'billedYearly79';
  /** 'none': no notice. */
  readonly PRICE_INCREASE_DATE: string;
  readonly LICENCE_SIGNING_KEY: string | undefined;
  readonly LICENCE_PUBLIC_KEY: string | undefined;
}
