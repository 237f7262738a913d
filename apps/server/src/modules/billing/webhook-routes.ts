/**
 * POST /v1/stripe/webhook (docs/billing.md#webhooks). Stripe signs the exact bytes it sends, so this
 * route reads its body raw: its own content parser, in a plugin of its own (Fastify's encapsulation),
 * leaves every other route's JSON parsing as it is.
 */
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { receiveStripeEvent } from './webhooks.ts';

/** Stripe's events are a few kilobytes; this leaves room for large invoices. */
const WEBHOOK_BODY_LIMIT = 1024 * 1024;

export async function registerStripeWebhook(app: FastifyInstance, ctx: AppContext): Promise<void> {
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: WEBHOOK_BODY_LIMIT }, (_request, body, done) => done(null, body));
    scope.post('/v1/stripe/webhook', { schema: { summary: 'Stripe\'s events (signed with STRIPE_WEBHOOK_SECRET)', tags: ['stripe'] } }, async (request) => {
      await receiveStripeEvent(ctx, request.body, request.headers['stripe-signature']);
      return { received: true };
    });
  });
}
