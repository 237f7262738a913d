/**
 * /v1 routes of plans and billing (docs/billing.md). The Stripe webhook reads its raw body:
 * webhook-routes.ts. A visitor's offline checkout is theirs by a cookie this file sets and reads.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { routes } from '@sheaf/shared';
import type { AppContext } from '../../context.ts';
import { handle } from '../../http/route.ts';
import { updateBillingAddress } from './address.ts';
import { checkoutSessionStatus, createOfflineCheckout } from './offline.ts';
import { billingPortal, billingStatus, cancelSubscription, changePlan, createCheckout, plans, resumeSubscription } from './service.ts';
import { clientIdempotencyKey } from './stripe-calls.ts';

/** The visitor's proof of the offline checkout they started: only GET /v1/sessionStatus receives it. */
const VISITOR_COOKIE = 'sheaf_checkout';
const VISITOR_COOKIE_PATH = '/v1/sessionStatus';
const VISITOR_COOKIE_MAX_AGE_S = 24 * 60 * 60;

function visitorCookie(ctx: AppContext, token: string): string {
  const secure = ctx.config.PUBLIC_URL.startsWith('https:') ? '; Secure' : '';
  return `${VISITOR_COOKIE}=${token}; Path=${VISITOR_COOKIE_PATH}; Max-Age=${VISITOR_COOKIE_MAX_AGE_S}; HttpOnly; SameSite=Lax${secure}`;
}

function visitorToken(request: FastifyRequest): string | undefined {
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const [name, ...value] = part.trim().split('=');
    if (name === VISITOR_COOKIE) return value.join('=') || undefined;
  }
  return undefined;
}

const clientKey = (request: FastifyRequest) => clientIdempotencyKey(request.headers['idempotency-key']);

export function registerBillingRoutes(app: FastifyInstance, ctx: AppContext): void {
  handle(app, routes.listPlans, async () => plans(ctx));
  handle(app, routes.billingStatus, ({ principal }) => billingStatus(ctx, principal));
  handle(app, routes.updateBillingAddress, ({ principal, body, request }) => updateBillingAddress(ctx, principal, body, clientKey(request)));
  handle(app, routes.createCheckout, ({ principal, body, request }) => createCheckout(ctx, principal, body, clientKey(request)));
  handle(app, routes.changePlan, ({ principal, body, request }) => changePlan(ctx, principal, body, clientKey(request)));
  handle(app, routes.cancelSubscription, ({ principal, request }) => cancelSubscription(ctx, principal, clientKey(request)));
  handle(app, routes.resumeSubscription, ({ principal, request }) => resumeSubscription(ctx, principal, clientKey(request)));
  handle(app, routes.billingPortal, ({ principal, request }) => billingPortal(ctx, principal, clientKey(request)));
  handle(app, routes.createOfflineCheckoutSession, async ({ principal, body, request, reply }) => {
    const checkout = await createOfflineCheckout(ctx, principal, body, { clientKey: clientKey(request), acceptLanguage: request.headers['accept-language'] });
    if (checkout.visitorToken) reply.header('set-cookie', visitorCookie(ctx, checkout.visitorToken));
    return { clientSecret: checkout.clientSecret, sessionId: checkout.sessionId };
  });
  handle(app, routes.sessionStatus, ({ principal, query, request }) => checkoutSessionStatus(ctx, principal, query.sessionId, visitorToken(request)));
}
