/**
 * How billing calls Stripe: only when it is configured (else billing/not-configured), with an
 * idempotency key on every POST (docs/billing.md#idempotency-keys), and with Stripe's failures logged
 * without secrets and answered as billing/failed.
 */
import { createHash, randomUUID } from 'node:crypto';
import { SheafError } from '@sheaf/shared';
import type { AppContext } from '../../context.ts';
import { stripeErrorFacts, type StripeClient } from '../../adapters/payments/stripe.ts';

/** The Stripe client; billing/not-configured (503) when STRIPE_SECRET_KEY is unset. */
export function requireStripe(ctx: AppContext): StripeClient {
  if (!ctx.stripe) throw new SheafError('billing/not-configured');
  return ctx.stripe;
}

/**
 * A client's Idempotency-Key header as sent with the request: the same key on a retried request, a
 * new one per user action. Anything that is not 1-200 printable characters is ignored.
 */
export function clientIdempotencyKey(header: string | string[] | undefined): string | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  return value && /^[\x21-\x7e]{1,200}$/.test(value) ? value : undefined;
}

/**
 * The idempotency key of one Stripe POST. Stripe answers a request repeated with the same key (within
 * 24 hours) with the first answer and does not act twice, and refuses the key with other parameters, so
 * the key hashes who asks, what for and the parameters, plus:
 * - the client's Idempotency-Key when it sent one: its retries are one request;
 * - else, `perMinute` (a checkout session), the current minute: a request repeated within it (a double
 *   click, a retry after a lost answer) gets the same session;
 * - else, `perRequest` (change, cancel, resume, address, portal), a key of this request only: only the
 *   client library's own network retries share it. These set a state, so doing one twice changes
 *   nothing, and a cancel, resume and cancel again within a minute must each really happen;
 * - `once`: nothing more. For what is done once whatever the request (the account's customer, the
 *   cancellation of a deleted account's subscription).
 */
export function idempotencyKey(
  purpose: string,
  parts: readonly unknown[],
  options: { clientKey: string | undefined; kind: 'perMinute' | 'perRequest' | 'once'; now?: number },
): string {
  const discriminator =
    options.kind === 'once'
      ? 'once'
      : options.clientKey
        ? `client:${options.clientKey}`
        : options.kind === 'perMinute'
          ? `minute:${Math.floor((options.now ?? Date.now()) / 60_000)}`
          : `request:${randomUUID()}`;
  const digest = createHash('sha256').update(JSON.stringify([purpose, ...parts, discriminator])).digest('hex');
  return `sheaf-${purpose}-${digest.slice(0, 48)}`;
}

/** Runs a Stripe call; a Stripe failure is logged (its type, code and request id, never keys) and answered billing/failed. */
export async function callStripe<T>(ctx: AppContext, what: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw stripeFailure(ctx, what, error);
  }
}

export function stripeFailure(ctx: AppContext, what: string, error: unknown): SheafError {
  if (error instanceof SheafError) return error;
  const facts = stripeErrorFacts(error);
  ctx.log.error(facts ? { stripe: facts, call: what } : { err: error, call: what }, 'Stripe call failed');
  return new SheafError('billing/failed', {}, { cause: error });
}
