/**
 * The offline licence purchase (docs/billing.md#the-offline-licence-purchase): the embedded checkout
 * for a visitor or a signed-in user, the session status told only to whoever started it, and the
 * events the licences module hears (licence.purchased, licence.subscription-changed).
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { LicencePurchased, LicenceSubscriptionChanged } from '../src/modules/billing/index.ts';
import { forEachDatabase, type InjectResponse } from './harness.ts';
import { CONSENT, startBillingServer, type BillingServer } from './billing-support.ts';

const cookieOf = (response: InjectResponse): string => {
  const header = response.headers['set-cookie'];
  return String(Array.isArray(header) ? header[0] : header ?? '');
};

forEachDatabase((database) => {
  let billing: BillingServer;
  const purchases: LicencePurchased[] = [];
  const changes: LicenceSubscriptionChanged[] = [];
  beforeAll(async () => {
    billing = await startBillingServer(database);
    billing.server.ctx.events.on('licence.purchased', (event) => void purchases.push(event));
    billing.server.ctx.events.on('licence.subscription-changed', (event) => void changes.push(event));
  });
  afterAll(() => billing?.close());

  const buy = (body: Record<string, unknown>, options: { token?: string; headers?: Record<string, string> } = {}) =>
    billing.server.inject('POST', '/createOfflineCheckoutSession', { body: { ...CONSENT, ...body }, ...options });
  const statusOf = (sessionId: string, options: { token?: string; cookie?: string } = {}) =>
    billing.server.inject('GET', '/sessionStatus', { query: { sessionId }, ...(options.token ? { token: options.token } : {}), headers: options.cookie ? { cookie: options.cookie } : {} });

  it('a visitor buys three licences: an embedded checkout, a cookie proving the session theirs, then a licence for the email they typed', async () => {
    const { server, stripe } = billing;
    const response = await buy({ priceId: 'price_sheaf_offline_year', quantity: 3 }, { headers: { 'accept-language': 'de-DE,de;q=0.9,en;q=0.5' } });
    expect(response.status, JSON.stringify(response.json)).toBe(200);
    const { clientSecret, sessionId } = response.json;
    expect(clientSecret).toMatch(new RegExp(`^${sessionId}_secret_`));
    const cookie = cookieOf(response);
    expect(cookie).toMatch(/^sheaf_checkout=[\w-]{40,}; Path=\/v1\/sessionStatus; Max-Age=\d+; HttpOnly; SameSite=Lax$/);
    const request = stripe.requestsTo('POST', '/v1/checkout/sessions').at(-1)!;
    expect(request.params).toEqual({
      mode: 'subscription', ui_mode: 'embedded_page',
      line_items: [{ price: 'price_sheaf_offline_year', quantity: '1' }, { price: 'price_sheaf_offlineadditional_year', quantity: '2' }],
      return_url: `${server.url}/offline/success?sessionId={CHECKOUT_SESSION_ID}`,
      metadata: { kind: 'offline', cycle: 'year', quantity: '3', language: 'de' },
      subscription_data: { metadata: { kind: 'offline', cycle: 'year', quantity: '3', language: 'de' } },
    });

    const visitor = cookie.split(';')[0]!;
    expect((await statusOf(sessionId, { cookie: visitor })).json).toEqual({ status: 'open', payment_status: 'unpaid' });
    const before = purchases.length;
    const { subscriptionId } = await stripe.completeCheckout(sessionId, { email: 'buyer@example.org' });
    expect((await statusOf(sessionId, { cookie: visitor })).json).toEqual({ status: 'complete', payment_status: 'paid' });

    expect(purchases.length).toBe(before + 1);
    const item = stripe.state.subscription(subscriptionId)['items'].data[0];
    expect(purchases.at(-1)).toMatchObject({ userId: null, email: 'buyer@example.org', sessionId, subscriptionId, quantity: 3, language: 'de', periodEnd: new Date(item.current_period_end * 1000) });

    // Its renewal extends the licence.
    await stripe.renew(subscriptionId);
    const renewed = stripe.state.subscription(subscriptionId)['items'].data[0].current_period_end;
    expect(changes.at(-1)).toMatchObject({ subscriptionId, quantity: 3, periodEnd: new Date(renewed * 1000) });
  });

  it('tells a session\'s status only to the browser or account that started it', async () => {
    const { server } = billing;
    const visitorSession = await buy({ priceId: 'price_sheaf_offline_month' });
    const otherVisitor = await buy({ priceId: 'price_sheaf_offline_month' });
    const alice = await server.signUp();
    const bob = await server.signUp();
    const aliceSession = await buy({ priceId: 'price_sheaf_offline_month' }, { token: alice.token });
    expect(aliceSession.status).toBe(200);
    expect(aliceSession.headers['set-cookie']).toBeUndefined();
    expect(billing.stripe.requestsTo('POST', '/v1/checkout/sessions').at(-1)!.params).toMatchObject({ customer_email: alice.email, client_reference_id: alice.uid, metadata: { uid: alice.uid } });

    expect((await statusOf(aliceSession.json.sessionId, { token: alice.token })).status).toBe(200);
    const notFound = [
      await statusOf(aliceSession.json.sessionId, { token: bob.token }),
      await statusOf(aliceSession.json.sessionId),
      await statusOf(visitorSession.json.sessionId),
      await statusOf(visitorSession.json.sessionId, { cookie: cookieOf(otherVisitor).split(';')[0]! }),
      await statusOf(visitorSession.json.sessionId, { token: alice.token }),
      await statusOf('cs_test_unknown'),
    ];
    for (const answer of notFound) {
      expect(answer.status).toBe(404);
      expect(answer.json).toEqual({ code: 'billing/session-not-found', message: 'There is no such payment session.' });
    }
    expect((await statusOf(visitorSession.json.sessionId, { cookie: cookieOf(visitorSession).split(';')[0]! })).status).toBe(200);

    // Paid signed in: the licence is the account's.
    await billing.stripe.completeCheckout(aliceSession.json.sessionId);
    expect(purchases.at(-1)).toMatchObject({ userId: alice.uid, email: alice.email, quantity: 1, language: 'en' });
  });

  it('sells only the offline plan\'s prices', async () => {
    const before = billing.stripe.requestsTo('POST', '/v1/checkout/sessions').length;
    for (const priceId of ['price_sheaf_pro_year', 'price_sheaf_offlineadditional_year', 'price_other']) {
      const response = await buy({ priceId });
      expect(response.status, priceId).toBe(400);
      expect(response.json.code).toBe('billing/unknown-price');
    }
    const noConsent = await billing.server.inject('POST', '/createOfflineCheckoutSession', { body: { priceId: 'price_sheaf_offline_year', acceptTerms: true } });
    expect(noConsent.json.fields).toEqual({ waiveWithdrawal: 'billing/waiver-required' });
    expect((await buy({ priceId: 'price_sheaf_offline_year', quantity: 0 })).status).toBe(400);
    expect(billing.stripe.requestsTo('POST', '/v1/checkout/sessions')).toHaveLength(before);
  });

  it('the stand-in\'s Stripe.js and hosted page are there for the browser tests', async () => {
    const script = await fetch(billing.stripe.config.STRIPE_JS_URL);
    expect(script.headers.get('content-type')).toContain('javascript');
    expect(await script.text()).toContain('initEmbeddedCheckout');
    const user = await billing.server.signUp();
    const checkout = await billing.server.inject('POST', '/billing/checkout', { token: user.token, body: { plan: 'Pro', cycle: 'month', ...CONSENT } });
    const page = await (await fetch(checkout.json.url)).text();
    expect(page).toContain('<button type="submit">Pay</button>');
    expect(page).toContain('$24.00');
  });
});
