/**
 * The Stripe boundary (docs/billing.md#settings): the official client built from the settings, or null
 * when STRIPE_SECRET_KEY is unset (billing is then "not configured"). STRIPE_API_URL replaces Stripe's
 * own address (https://api.stripe.com), so tests and local development talk to a stand-in over HTTP
 * with the real client; only its origin counts (the client adds /v1/... itself). The package is loaded
 * only when a key is set (it takes ~90 ms to load, which a server without billing need not spend).
 */
import type Stripe from 'stripe';
import type { BillingConfig } from '../../config-billing.ts';

export type StripeClient = Stripe;
export type { Stripe };

/** A request to Stripe gives up after this long (the client's own default is 80 s). */
const TIMEOUT_MS = 20_000;
/** Network failures and Stripe's 409/5xx are retried with backoff, under the same idempotency key. */
const MAX_NETWORK_RETRIES = 2;

export async function openStripe(config: Pick<BillingConfig, 'STRIPE_SECRET_KEY' | 'STRIPE_API_URL'>): Promise<StripeClient | null> {
  if (!config.STRIPE_SECRET_KEY) return null;
  const { default: Stripe } = await import('stripe');
  const url = new URL(config.STRIPE_API_URL);
  const protocol = url.protocol === 'http:' ? 'http' : 'https';
  return new Stripe(config.STRIPE_SECRET_KEY, {
    host: url.hostname,
    port: url.port || (protocol === 'http' ? 80 : 443),
    protocol,
    maxNetworkRetries: MAX_NETWORK_RETRIES,
    timeout: TIMEOUT_MS,
    // Request latencies are nobody's business but ours.
    telemetry: false,
    appInfo: { name: 'Sheaf' },
  });
}

/**
 * Checks a webhook's Stripe-Signature header against the endpoint's secret and parses the event.
 * Throws when the signature is missing, wrong, or older than Stripe's tolerance (300 s): a replay of a
 * captured delivery is refused that way.
 */
export function verifyStripeEvent(stripe: StripeClient, rawBody: Buffer, signature: string, secret: string): Stripe.Event {
  return stripe.webhooks.constructEvent(rawBody, signature, secret);
}

/** The parts of a Stripe API error worth logging (never the request, which may carry personal data). */
export interface StripeErrorFacts {
  type: string;
  code: string | undefined;
  statusCode: number | undefined;
  requestId: string | undefined;
  param: string | undefined;
  message: string;
}

/** Facts of an error the Stripe client threw (its classes are StripeInvalidRequestError, StripeConnectionError, ...). */
export function stripeErrorFacts(error: unknown): StripeErrorFacts | null {
  const candidate = error as Partial<StripeErrorFacts> & { rawType?: unknown } | null;
  if (!(error instanceof Error) || typeof candidate?.type !== 'string' || !candidate.type.startsWith('Stripe')) return null;
  return {
    type: candidate.type,
    code: typeof candidate.code === 'string' ? candidate.code : undefined,
    statusCode: typeof candidate.statusCode === 'number' ? candidate.statusCode : undefined,
    requestId: typeof candidate.requestId === 'string' ? candidate.requestId : undefined,
    param: typeof candidate.param === 'string' ? candidate.param : undefined,
    message: error.message,
  };
}

/** Stripe answered 404 for the object (resource_missing). */
export const isStripeNotFound = (error: unknown): boolean => stripeErrorFacts(error)?.code === 'resource_missing';
