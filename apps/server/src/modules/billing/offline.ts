/**
 * The offline licence purchase (docs/billing.md#the-offline-licence-purchase): an embedded Stripe
 * Checkout for the offline plan's monthly or yearly price, bought signed in or as a visitor, and the
 * status of that session for /offline/success, told only to whoever started it.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { LANGUAGES, SheafError, type Language } from '@sheaf/shared';
import type { z } from 'zod';
import type { OfflineCheckoutRequestSchema } from '@sheaf/shared';
import type { AppContext } from '../../context.ts';
import type { Stripe } from '../../adapters/payments/stripe.ts';
import { accountFor, type Principal } from '../../access/index.ts';
import { additionalLicencePriceId, offlineCycleOfPrice, offlinePlan } from './plans.ts';
import { findBillingRow, findCheckoutSession, saveCheckoutSession } from './repository.ts';
import { callStripe, idempotencyKey, requireStripe } from './stripe-calls.ts';

type OfflineInput = z.output<typeof OfflineCheckoutRequestSchema>;

export interface OfflineCheckout {
  clientSecret: string;
  sessionId: string;
  /** A visitor's proof that the session is theirs (the route sets it as a cookie); null when signed in. */
  visitorToken: string | null;
}

const sha256 = (text: string): Buffer => createHash('sha256').update(text).digest();

/** The first language of an Accept-Language header that Sheaf speaks (the licence mail's), else English. */
export function preferredLanguage(header: string | undefined): Language {
  for (const part of (header ?? '').split(',')) {
    const tag = part.split(';')[0]!.trim().toLowerCase().slice(0, 2);
    const known = LANGUAGES.find((language) => language === tag);
    if (known) return known;
  }
  return 'en';
}

/**
 * POST /createOfflineCheckoutSession. The first licence at the plan's price; each further one at the
 * additional licence's price of the same cycle (one price for all in a reading without one).
 */
export async function createOfflineCheckout(
  ctx: AppContext,
  principal: Principal,
  input: OfflineInput,
  request: { clientKey: string | undefined; acceptLanguage: string | undefined },
): Promise<OfflineCheckout> {
  // Signed in: the account's owner buys (a child user may not); a visitor buys for the email they type.
  const uid = principal.actorId ? accountFor(principal, 'billing') : null;
  const stripe = requireStripe(ctx);
  const cycle = offlineCycleOfPrice(ctx.config, input.priceId);
  if (!cycle) throw new SheafError('billing/unknown-price');
  const additional = additionalLicencePriceId(ctx.config, cycle);
  const lineItems = additional
    ? [{ price: input.priceId, quantity: 1 }, ...(input.quantity > 1 ? [{ price: additional, quantity: input.quantity - 1 }] : [])]
    : [{ price: input.priceId, quantity: input.quantity }];
  const row = uid ? await findBillingRow(ctx.db, uid) : undefined;
  if (uid && !row) throw new SheafError('auth/unauthenticated');
  const metadata: Record<string, string> = {
    kind: 'offline',
    cycle,
    quantity: String(input.quantity),
    language: row?.language ?? preferredLanguage(request.acceptLanguage),
    ...(uid ? { uid } : {}),
  };
  const params: Stripe.Checkout.SessionCreateParams = {
    mode: 'subscription',
    ui_mode: 'embedded_page',
    line_items: lineItems,
    return_url: `${ctx.config.PUBLIC_URL}/offline/success?sessionId={CHECKOUT_SESSION_ID}`,
    metadata,
    // The subscription's own events (renewals, cancellation) must know it is a licence's.
    subscription_data: { metadata },
    ...(row ? { customer_email: row.email, client_reference_id: row.id } : {}),
  };
  // A visitor without an Idempotency-Key gets a session per request: the minute's key would hand the
  // same session to another visitor buying the same thing.
  const kind = uid || request.clientKey ? 'perMinute' : 'perRequest';
  const session = await callStripe(ctx, 'checkout.sessions.create', () =>
    stripe.checkout.sessions.create(params, { idempotencyKey: idempotencyKey('offline', [uid, params], { clientKey: request.clientKey, kind }) }),
  );
  if (!session.client_secret) throw new SheafError('billing/failed');
  const visitorToken = uid ? null : randomBytes(32).toString('base64url');
  await saveCheckoutSession(ctx.db, {
    id: session.id,
    user_id: uid,
    visitor_token_hash: visitorToken ? sha256(visitorToken).toString('hex') : null,
    kind: 'offline',
    plan: offlinePlan(),
    cycle,
    quantity: input.quantity,
  });
  return { clientSecret: session.client_secret, sessionId: session.id, visitorToken };
}

/**
 * GET /sessionStatus: Stripe's status and payment_status of a session this account, or this browser
 * (its visitor token), started. Any other id answers billing/session-not-found, as an unknown one does.
 */
export async function checkoutSessionStatus(
  ctx: AppContext,
  principal: Principal,
  sessionId: string,
  visitorToken: string | undefined,
): Promise<{ status: string; payment_status: string }> {
  const row = await findCheckoutSession(ctx.db, sessionId);
  const byAccount = row?.user_id != null && principal.actorId !== '' && row.user_id === principal.actorId;
  const byVisitor = row?.visitor_token_hash != null && visitorToken !== undefined && timingSafeEqual(sha256(visitorToken), Buffer.from(row.visitor_token_hash, 'hex'));
  if (!row || !(byAccount || byVisitor)) throw new SheafError('billing/session-not-found');
  const stripe = requireStripe(ctx);
  const session = await callStripe(ctx, 'checkout.sessions.retrieve', () => stripe.checkout.sessions.retrieve(row.id));
  return { status: session.status ?? 'open', payment_status: session.payment_status };
}
