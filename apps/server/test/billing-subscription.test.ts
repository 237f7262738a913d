/**
 * A subscription's life against the Stripe stand-in (docs/billing.md): checkout and payment, the plan
 * and quota following, a prorated plan change, cancel and resume, the period's end, renewal, a failed
 * payment, the billing portal, and a retried checkout made once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chargeDocuments } from '../src/modules/users/index.ts';
import { forEachDatabase } from './harness.ts';
import { billingOf, CONSENT, meOf, startBillingServer, startCheckout, subscribe, type BillingServer } from './billing-support.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

forEachDatabase((database) => {
  let billing: BillingServer;
  beforeAll(async () => {
    billing = await startBillingServer(database);
  });
  afterAll(() => billing?.close());

  it('a Free user subscribes to Pro yearly: plan, cycle and quota follow the payment', async () => {
    const { server, stripe } = billing;
    const user = await server.signUp();
    const sessionId = await startCheckout(server, user, 'Pro', 'year');

    // Stripe saw a subscription checkout for the yearly Pro price, for this account's new customer.
    const [created] = stripe.requestsTo('POST', '/v1/checkout/sessions');
    expect(created!.params).toMatchObject({
      mode: 'subscription',
      line_items: [{ price: 'price_sheaf_pro_year', quantity: '1' }],
      client_reference_id: user.uid,
      metadata: { uid: user.uid, plan: 'Pro', cycle: 'year', kind: 'subscription' },
      success_url: `${server.url}/billing?checkout=success&session_id={CHECKOUT_SESSION_ID}`,
      cancel_url: `${server.url}/billing?checkout=cancelled`,
    });
    expect(created!.idempotencyKey).toMatch(/^sheaf-checkout-/);
    const customer = stripe.state.customer(created!.params['customer'] as string);
    expect(customer['metadata']).toEqual({ uid: user.uid });
    // Waiting for Stripe until the payment's events arrive.
    expect((await meOf(server, user)).isUpdatingBillingPlan).toBe(true);
    expect((await billingOf(server, user)).plan).toBe('Free');

    const { subscriptionId } = await stripe.completeCheckout(sessionId);
    expect(stripe.deliveries.map((delivery) => [delivery.type, delivery.status])).toEqual([
      ['customer.subscription.created', 200], ['checkout.session.completed', 200], ['invoice.paid', 200],
    ]);
    const me = await meOf(server, user);
    expect(me).toMatchObject({ billingPlan: 'Pro', billingCycle: 'year', quota: 1000, isUpdatingBillingPlan: false });
    const credits = await server.inject('GET', '/users/me/credits', { token: user.token, query: { toBeUsed: 10 } });
    expect(credits.json).toMatchObject({ available: 1000, unlimited: false });
    const status = await billingOf(server, user);
    expect(status).toMatchObject({ plan: 'Pro', cycle: 'year', subscription: { status: 'active', cancelAtPeriodEnd: false, paymentFailedAt: null } });
    const periodEnd = stripe.state.subscription(subscriptionId)['items'].data[0].current_period_end * 1000;
    expect(Date.parse(status.subscription.currentPeriodEnd)).toBe(periodEnd);
    expect(periodEnd - Date.now()).toBeGreaterThan(360 * DAY_MS);
    // A second subscription is refused: the plan is changed instead.
    const again = await server.inject('POST', '/billing/checkout', { token: user.token, body: { plan: 'Enterprise', cycle: 'year', ...CONSENT } });
    expect(again.status).toBe(409);
    expect(again.json.code).toBe('billing/already-subscribed');
  });

  it('changes to Enterprise monthly with a prorated, invoiced update, applied at once; cancels; resumes; the period ends on Free', async () => {
    const { server, stripe } = billing;
    const user = await server.signUp();
    const subscriptionId = await subscribe(billing, user, 'Pro', 'year');
    const change = (plan: string, cycle: string) => server.inject('POST', '/billing/change', { token: user.token, body: { plan, cycle } });
    expect((await change('Pro', 'year')).json.code).toBe('billing/same-plan');

    // The webhooks wait: the answer of the update itself is applied.
    stripe.hold();
    const changed = await change('Enterprise', 'month');
    expect(changed.status, JSON.stringify(changed.json)).toBe(200);
    expect(changed.json).toMatchObject({ plan: 'Enterprise', cycle: 'month', isUpdatingBillingPlan: false });
    const updates = stripe.requestsTo('POST', `/v1/subscriptions/${subscriptionId}`);
    expect(updates).toHaveLength(1);
    const item = stripe.state.subscription(subscriptionId)['items'].data[0];
    expect(updates[0]!.params).toEqual({ items: [{ id: item.id, price: 'price_sheaf_enterprise_month' }], proration_behavior: 'always_invoice' });
    expect(updates[0]!.idempotencyKey).toMatch(/^sheaf-change-/);
    expect((await meOf(server, user))).toMatchObject({ billingPlan: 'Enterprise', billingCycle: 'month', quota: 10000 });
    const released = await stripe.release();
    expect(released).toEqual([200, 200]);
    expect(stripe.deliveries.slice(-2).map((delivery) => delivery.type)).toEqual(['customer.subscription.updated', 'invoice.paid']);
    expect((await billingOf(server, user))).toMatchObject({ plan: 'Enterprise', cycle: 'month' });

    const cancelled = await server.inject('POST', '/billing/cancel', { token: user.token });
    expect(cancelled.status).toBe(200);
    const periodEnd = stripe.state.subscription(subscriptionId)['items'].data[0].current_period_end * 1000;
    expect(cancelled.json).toMatchObject({ plan: 'Enterprise', subscription: { status: 'active', cancelAtPeriodEnd: true } });
    expect(Date.parse(cancelled.json.subscription.currentPeriodEnd)).toBe(periodEnd);
    expect(stripe.state.subscription(subscriptionId)['cancel_at_period_end']).toBe(true);

    const resumed = await server.inject('POST', '/billing/resume', { token: user.token });
    expect(resumed.json.subscription.cancelAtPeriodEnd).toBe(false);
    expect(stripe.state.subscription(subscriptionId)['cancel_at_period_end']).toBe(false);
    // Cancel, resume and cancel again within a minute: each really happens.
    expect((await server.inject('POST', '/billing/cancel', { token: user.token })).json.subscription.cancelAtPeriodEnd).toBe(true);
    expect(stripe.state.subscription(subscriptionId)['cancel_at_period_end']).toBe(true);
    await stripe.settled();

    await stripe.endPeriod(subscriptionId);
    const after = await billingOf(server, user);
    expect(after).toMatchObject({ plan: 'Free', cycle: null, subscription: null });
    expect(await meOf(server, user)).toMatchObject({ billingPlan: 'Free', quota: 100 });
    // Without a subscription there is nothing to change or cancel.
    expect((await change('Pro', 'month')).json.code).toBe('billing/no-subscription');
    expect((await server.inject('POST', '/billing/cancel', { token: user.token })).json.code).toBe('billing/no-subscription');
  });

  it('a renewal moves the billing date to the new period and resets the counter; a failed payment is shown until one succeeds', async () => {
    const { server, stripe } = billing;
    const user = await server.signUp();
    const subscriptionId = await subscribe(billing, user, 'Pro', 'month');
    await chargeDocuments(server.ctx.db, user.uid, 40);
    expect((await meOf(server, user)).counter).toBe(40);

    await stripe.renew(subscriptionId);
    const periodStart = stripe.state.subscription(subscriptionId)['items'].data[0].current_period_start * 1000;
    const renewed = await meOf(server, user);
    expect(renewed.counter).toBe(0);
    expect(Date.parse(renewed.billingDate)).toBe(periodStart);
    expect((await billingOf(server, user)).subscription.currentPeriodEnd).toBe(new Date(stripe.state.subscription(subscriptionId)['items'].data[0].current_period_end * 1000).toISOString());

    await stripe.failPayment(subscriptionId);
    const failed = await billingOf(server, user);
    expect(failed).toMatchObject({ plan: 'Pro', subscription: { status: 'past_due' } });
    expect(Math.abs(Date.parse(failed.subscription.paymentFailedAt) - Date.now())).toBeLessThan(60_000);

    await stripe.renew(subscriptionId);
    expect((await billingOf(server, user)).subscription).toMatchObject({ status: 'active', paymentFailedAt: null });
  });

  it('users act only on their own subscription: there is no id to point at another\'s', async () => {
    const { server, stripe } = billing;
    const alice = await server.signUp();
    const bob = await server.signUp();
    const aliceSubscription = await subscribe(billing, alice, 'Enterprise', 'year');
    // Bob has none: his cancel and change reach nothing, Alice's subscription is untouched.
    expect((await server.inject('POST', '/billing/cancel', { token: bob.token })).json.code).toBe('billing/no-subscription');
    expect((await server.inject('POST', '/billing/change', { token: bob.token, body: { plan: 'Pro', cycle: 'month' } })).json.code).toBe('billing/no-subscription');
    const bobSubscription = await subscribe(billing, bob, 'Pro', 'month');
    expect((await server.inject('POST', '/billing/cancel', { token: bob.token })).status).toBe(200);
    expect(stripe.state.subscription(bobSubscription)['cancel_at_period_end']).toBe(true);
    expect(stripe.state.subscription(aliceSubscription)['cancel_at_period_end']).toBe(false);
    expect(stripe.requestsTo('POST', `/v1/subscriptions/${aliceSubscription}`)).toEqual([]);
    expect(await billingOf(server, alice)).toMatchObject({ plan: 'Enterprise', subscription: { cancelAtPeriodEnd: false } });
  });

  it('a retried checkout with the same Idempotency-Key makes one Stripe session; another key makes another', async () => {
    const { server, stripe } = billing;
    const user = await server.signUp();
    const before = stripe.state.sessions.size;
    const first = await startCheckout(server, user, 'Pro', 'month', { 'idempotency-key': 'click-1' });
    const retried = await startCheckout(server, user, 'Pro', 'month', { 'idempotency-key': 'click-1' });
    expect(retried).toBe(first);
    expect(stripe.state.sessions.size).toBe(before + 1);
    const replays = stripe.requestsTo('POST', '/v1/checkout/sessions').filter((request) => request.params['client_reference_id'] === user.uid);
    expect(replays.map((request) => request.replayed)).toEqual([false, true]);
    expect(replays[0]!.idempotencyKey).toBe(replays[1]!.idempotencyKey);
    const other = await startCheckout(server, user, 'Pro', 'month', { 'idempotency-key': 'click-2' });
    expect(other).not.toBe(first);
    expect(stripe.state.sessions.size).toBe(before + 2);
  });

  it('the billing portal link leads to Stripe\'s portal for the account\'s customer, back to /billing', async () => {
    const { server, stripe } = billing;
    const user = await server.signUp();
    const response = await server.inject('POST', '/billing/portal', { token: user.token });
    expect(response.status).toBe(200);
    const [portal] = [...stripe.state.portalSessions.values()].filter((session) => response.json.url === session['url']);
    expect(portal).toBeDefined();
    expect(portal!['return_url']).toBe(`${server.url}/billing`);
    expect(stripe.state.customer(portal!['customer'])['metadata']).toEqual({ uid: user.uid });
    const page = await fetch(response.json.url);
    expect(await page.text()).toContain(`href="${server.url}/billing"`);
  });

  describe('checkout refusals', () => {
    it('refuses plans and cycles the catalogue does not sell, and a purchase without the terms and the waiver', async () => {
      const { server, stripe } = billing;
      const user = await server.signUp();
      const before = stripe.requestsTo('POST', '/v1/checkout/sessions').length;
      for (const body of [{ plan: 'Offline', cycle: 'year' }, { plan: 'Free', cycle: 'month' }, { plan: 'Pro', cycle: 'week' }, { plan: 'Gold', cycle: 'year' }]) {
        const response = await server.inject('POST', '/billing/checkout', { token: user.token, body: { ...body, ...CONSENT } });
        expect(response.status, JSON.stringify(body)).toBe(400);
      }
      const noConsent = await server.inject('POST', '/billing/checkout', { token: user.token, body: { plan: 'Pro', cycle: 'year', acceptTerms: false } });
      expect(noConsent.status).toBe(400);
      expect(noConsent.json.fields).toEqual({ acceptTerms: 'billing/terms-required', waiveWithdrawal: 'billing/waiver-required' });
      expect(stripe.requestsTo('POST', '/v1/checkout/sessions')).toHaveLength(before);
    });
  });
});
