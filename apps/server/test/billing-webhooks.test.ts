/**
 * Stripe's webhook (docs/billing.md#webhooks): signatures checked (forged, tampered, stale deliveries
 * refused and nothing applied), each event applied once (replays, concurrent deliveries), in the same
 * transaction as its effects (a failure rolls back and Stripe's retry applies it), and events in any
 * order ending in Stripe's current state.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { LicencePurchased } from '../src/modules/billing/index.ts';
import { chargeDocuments, setPlanByEmail } from '../src/modules/users/index.ts';
import { forEachDatabase } from './harness.ts';
import { billingOf, CONSENT, meOf, startBillingServer, subscribe, type BillingServer } from './billing-support.ts';
import type { StripeObject } from './stripe-standin/index.ts';

forEachDatabase((database) => {
  let billing: BillingServer;
  const purchases: LicencePurchased[] = [];
  let failPurchase = false;
  beforeAll(async () => {
    billing = await startBillingServer(database);
    billing.server.ctx.events.on('licence.purchased', (event) => {
      if (failPurchase) throw new Error('the licence could not be issued');
      purchases.push(event);
    });
  });
  afterAll(() => billing?.close());

  const postEvent = (payload: string, signature: string | undefined) =>
    billing.server.app.inject({
      method: 'POST', url: '/v1/stripe/webhook', payload,
      headers: { 'content-type': 'application/json; charset=utf-8', ...(signature === undefined ? {} : { 'stripe-signature': signature }) },
    });
  const appliedEvents = async (id: string) => (await billing.server.ctx.db.query('SELECT id FROM stripe_events WHERE id = $1', [id])).length;
  const eventOf = (type: string, objectId: string): StripeObject => {
    const event = billing.stripe.state.events.filter((candidate) => candidate['type'] === type && candidate['data'].object.id === objectId).at(-1);
    expect(event, `${type} of ${objectId}`).toBeDefined();
    return event!;
  };

  /** A visitor's offline purchase, paid (its events delivered); answers the checkout's event. */
  async function paidOfflinePurchase(email: string): Promise<StripeObject> {
    const response = await billing.server.inject('POST', '/createOfflineCheckoutSession', { body: { priceId: 'price_sheaf_offline_year', ...CONSENT } });
    expect(response.status).toBe(200);
    await billing.stripe.completeCheckout(response.json.sessionId, { email });
    return eventOf('checkout.session.completed', response.json.sessionId);
  }

  it('refuses forged, tampered, unsigned and stale deliveries with 400, applying nothing', async () => {
    const { stripe } = billing;
    const before = purchases.length;
    // Held: the genuine delivery must not be the one that issues the licence here.
    const response = await billing.server.inject('POST', '/createOfflineCheckoutSession', { body: { priceId: 'price_sheaf_offline_year', ...CONSENT } });
    stripe.hold();
    await stripe.completeCheckout(response.json.sessionId, { email: 'forger@example.com' });
    const genuine = eventOf('checkout.session.completed', response.json.sessionId);
    const payload = JSON.stringify(genuine);
    const now = Math.floor(Date.now() / 1000);
    const forged = `t=${now},v1=${'ab'.repeat(32)}`;
    const tampered = JSON.stringify({ ...genuine, data: { object: { ...genuine['data'].object, customer_details: { email: 'thief@example.com' } } } });
    for (const [body, signature] of [
      [payload, forged],
      [tampered, stripe.signature(payload)],
      [payload, undefined],
      // A captured delivery replayed ten minutes later: its signature is older than Stripe's tolerance.
      [payload, stripe.signature(payload, now - 600)],
    ] as const) {
      const answer = await postEvent(body, signature);
      expect(answer.statusCode).toBe(400);
      expect(answer.json().code).toBe('billing/webhook-invalid');
    }
    expect(purchases.length).toBe(before);
    expect(await appliedEvents(genuine['id'])).toBe(0);
    // Signed by Stripe now: applied.
    expect((await postEvent(payload, stripe.signature(payload))).statusCode).toBe(200);
    expect(purchases.length).toBe(before + 1);
    expect(purchases.at(-1)).toMatchObject({ email: 'forger@example.com', sessionId: response.json.sessionId });
    await stripe.release();
  });

  it('applies a replayed or concurrently delivered event once', async () => {
    const { stripe } = billing;
    const before = purchases.length;
    const completed = await paidOfflinePurchase('once@example.com');
    expect(purchases.length).toBe(before + 1);
    expect(await stripe.redeliver([completed['id']])).toEqual([200]);
    expect(purchases.length).toBe(before + 1);
    // Delivered again, and twice at the same time: still one licence.
    expect(await stripe.redeliver([completed['id']])).toEqual([200]);
    const payload = JSON.stringify(completed);
    const both = await Promise.all([postEvent(payload, stripe.signature(payload)), postEvent(payload, stripe.signature(payload))]);
    expect(both.map((answer) => answer.statusCode)).toEqual([200, 200]);
    expect(purchases.length).toBe(before + 1);
    expect(await appliedEvents(completed['id'])).toBe(1);

    // A renewal delivered twice does not reset the counter of the new period twice.
    const user = await billing.server.signUp();
    const subscriptionId = await subscribe(billing, user, 'Pro', 'month');
    await stripe.renew(subscriptionId);
    await chargeDocuments(billing.server.ctx.db, user.uid, 7);
    const renewal = stripe.state.events.filter((event) => event['type'] === 'invoice.paid' && event['data'].object.billing_reason === 'subscription_cycle').at(-1)!;
    expect(await stripe.redeliver([renewal['id']])).toEqual([200]);
    expect((await meOf(billing.server, user)).counter).toBe(7);
  });

  it('applies an event with its effects or not at all: a failure answers an error and Stripe\'s retry applies it', async () => {
    const { stripe } = billing;
    failPurchase = true;
    let completed: StripeObject;
    const before = purchases.length;
    try {
      const response = await billing.server.inject('POST', '/createOfflineCheckoutSession', { body: { priceId: 'price_sheaf_offline_month', ...CONSENT } });
      await stripe.completeCheckout(response.json.sessionId, { email: 'retry@example.com' });
      completed = eventOf('checkout.session.completed', response.json.sessionId);
      const failed = stripe.deliveries.find((delivery) => delivery.eventId === completed['id'])!;
      expect(failed.status).toBe(500);
      expect(await appliedEvents(completed['id'])).toBe(0);
    } finally {
      failPurchase = false;
    }
    expect(await stripe.redeliver([completed['id']])).toEqual([200]);
    expect(purchases.length).toBe(before + 1);
    expect(await appliedEvents(completed['id'])).toBe(1);

    // Stripe unreachable while the event is handled: 502, nothing recorded, applied on the retry.
    const user = await billing.server.signUp();
    const subscriptionId = await subscribe(billing, user, 'Pro', 'year');
    stripe.hold();
    await stripe.failPayment(subscriptionId);
    const failedPayment = eventOf('invoice.payment_failed', stripe.state.subscription(subscriptionId)['latest_invoice']);
    stripe.failNext({ method: 'GET', path: new RegExp(`/v1/subscriptions/${subscriptionId}$`), status: 503, times: 3 });
    const payload = JSON.stringify(failedPayment);
    expect((await postEvent(payload, stripe.signature(payload))).statusCode).toBe(502);
    expect(await appliedEvents(failedPayment['id'])).toBe(0);
    expect((await billingOf(billing.server, user)).subscription.paymentFailedAt).toBeNull();
    await stripe.release();
    expect((await billingOf(billing.server, user)).subscription).toMatchObject({ status: 'past_due' });
    expect((await billingOf(billing.server, user)).subscription.paymentFailedAt).not.toBeNull();
  });

  it('events in any order end in Stripe\'s current state', async () => {
    const { server, stripe } = billing;
    const user = await server.signUp();
    const subscriptionId = await subscribe(billing, user, 'Pro', 'year');
    const created = eventOf('customer.subscription.created', subscriptionId);

    // A change and a cancellation whose events arrive last-first.
    stripe.hold();
    expect((await server.inject('POST', '/billing/change', { token: user.token, body: { plan: 'Enterprise', cycle: 'month' } })).status).toBe(200);
    expect((await server.inject('POST', '/billing/cancel', { token: user.token })).status).toBe(200);
    expect(await stripe.release('reverse')).toEqual([200, 200, 200]);
    expect(await billingOf(server, user)).toMatchObject({ plan: 'Enterprise', cycle: 'month', subscription: { cancelAtPeriodEnd: true } });

    // The creation's event (a Pro yearly snapshot) delivered again, late: it does not bring Pro back.
    expect(await stripe.redeliver([created['id']])).toEqual([200]);
    expect(await billingOf(server, user)).toMatchObject({ plan: 'Enterprise', cycle: 'month', subscription: { cancelAtPeriodEnd: true } });

    // Once ended, an older update (a live snapshot) arriving after the deletion leaves the account on Free.
    const update = eventOf('customer.subscription.updated', subscriptionId);
    await stripe.endPeriod(subscriptionId);
    expect((await billingOf(server, user)).plan).toBe('Free');
    expect(await stripe.redeliver([update['id']])).toEqual([200]);
    expect(await billingOf(server, user)).toMatchObject({ plan: 'Free', subscription: null });

    // An operator's plan afterwards: a new event about the ended subscription leaves it alone.
    await setPlanByEmail(server.ctx.db, user.email, 'Enterprise');
    const late = JSON.stringify({ ...eventOf('customer.subscription.deleted', subscriptionId), id: `evt_late_${Date.now()}` });
    expect((await postEvent(late, stripe.signature(late))).statusCode).toBe(200);
    expect(await billingOf(server, user)).toMatchObject({ plan: 'Enterprise', subscription: null });
  });

  it('a read of the subscription sent before another is never applied over it, however late its answer', async () => {
    const { server, stripe } = billing;
    const user = await server.signUp();
    const subscriptionId = await subscribe(billing, user, 'Pro', 'year');
    // An old event's handler reads the subscription (Pro yearly); Stripe's answer is slow.
    stripe.delayNext({ method: 'GET', path: new RegExp(`/v1/subscriptions/${subscriptionId}$`), ms: 600 });
    const created = JSON.stringify({ ...eventOf('customer.subscription.created', subscriptionId), id: `evt_slow_${Date.now()}` });
    const slow = postEvent(created, stripe.signature(created));
    await new Promise((resolve) => setTimeout(resolve, 100));
    // Meanwhile the plan changes (its own events held back).
    stripe.hold();
    expect((await server.inject('POST', '/billing/change', { token: user.token, body: { plan: 'Enterprise', cycle: 'month' } })).json.plan).toBe('Enterprise');
    expect((await slow).statusCode).toBe(200);
    expect(await billingOf(server, user)).toMatchObject({ plan: 'Enterprise', cycle: 'month' });
    await stripe.release();
    expect(await billingOf(server, user)).toMatchObject({ plan: 'Enterprise', cycle: 'month' });
  });

  it('events billing does not use are acknowledged', async () => {
    const event = { id: `evt_unused_${Date.now()}`, object: 'event', type: 'customer.created', created: Math.floor(Date.now() / 1000), data: { object: { id: 'cus_x', object: 'customer' } } };
    const payload = JSON.stringify(event);
    expect((await postEvent(payload, billing.stripe.signature(payload))).statusCode).toBe(200);
  });
});
