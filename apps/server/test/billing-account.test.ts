/**
 * The account's side of billing (docs/billing.md): the EU billing address and VAT id kept on the Stripe
 * customer, and deleting an account cancelling its subscription at once, without refund, or refused
 * when Stripe cannot be told.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { forEachDatabase, TEST_PASSWORD } from './harness.ts';
import { billingOf, startBillingServer, subscribe, type BillingServer } from './billing-support.ts';

forEachDatabase((database) => {
  let billing: BillingServer;
  beforeAll(async () => {
    billing = await startBillingServer(database);
  });
  afterAll(() => billing?.close());

  it('keeps the billing address on the Stripe customer, the VAT id as its one eu_vat tax id; a refused VAT id is a field error', async () => {
    const { server, stripe } = billing;
    const user = await server.signUp();
    const put = (body: Record<string, string>) => server.inject('PUT', '/billing/address', { token: user.token, body });
    const address = { organization: 'Acme GmbH', line1: 'Hauptstr. 1', line2: '2. OG', zip: '10115', city: 'Berlin', country: 'de', vatId: 'DE 123 456 789' };
    const saved = await put(address);
    expect(saved.status, JSON.stringify(saved.json)).toBe(200);
    expect(saved.json.address).toEqual({ ...address, country: 'DE', vatId: 'DE123456789' });
    const customer = [...stripe.state.customers.values()].find((candidate) => candidate['metadata'].uid === user.uid)!;
    expect(customer).toMatchObject({
      name: 'Acme GmbH', business_name: 'Acme GmbH', email: user.email,
      address: { line1: 'Hauptstr. 1', line2: '2. OG', postal_code: '10115', city: 'Berlin', country: 'DE' },
    });
    const taxIds = () => stripe.state.listTaxIds(customer['id']).map((taxId) => `${taxId['type']}:${taxId['value']}`);
    expect(taxIds()).toEqual(['eu_vat:DE123456789']);

    // A new VAT id replaces the old one.
    expect((await put({ ...address, vatId: 'FR12345678901' })).status).toBe(200);
    expect(taxIds()).toEqual(['eu_vat:FR12345678901']);
    // Stripe refuses this one: a field error, and the customer keeps the previous id.
    const refused = await put({ ...address, vatId: 'FR12' });
    expect(refused.status).toBe(400);
    expect(refused.json.fields).toEqual({ vatId: 'billing/vat-invalid' });
    expect(taxIds()).toEqual(['eu_vat:FR12345678901']);
    expect((await billingOf(server, user)).address.vatId).toBe('FR12345678901');
    // Without a VAT id and an organization: the person's name, no tax id.
    expect((await put({ line1: 'Main St 2', zip: '1010', city: 'Wien', country: 'AT' })).status).toBe(200);
    expect(taxIds()).toEqual([]);
    expect(stripe.state.customer(customer['id'])['name']).toMatch(/^Test User/);
    expect(stripe.requestsTo('POST', '/v1/customers')).toHaveLength(1);
  });

  it('deleting an account cancels its subscription at once, without refund', async () => {
    const { server, stripe } = billing;
    const user = await server.signUp();
    const subscriptionId = await subscribe(billing, user, 'Enterprise', 'year');
    const deleted = await server.inject('DELETE', '/users/me', { token: user.token, body: { password: TEST_PASSWORD } });
    expect(deleted.status, JSON.stringify(deleted.json)).toBe(200);
    expect(stripe.state.subscription(subscriptionId)['status']).toBe('canceled');
    const [cancel] = stripe.requestsTo('DELETE', `/v1/subscriptions/${subscriptionId}`);
    expect(cancel!.params).toEqual({ prorate: 'false', invoice_now: 'false' });
    expect(cancel!.idempotencyKey).toMatch(/^sheaf-delete-account-/);
    // Its subscription.deleted event finds no account: acknowledged, nothing else.
    await stripe.settled();
    expect(stripe.deliveries.at(-1)).toMatchObject({ type: 'customer.subscription.deleted', status: 200 });
  });

  it('an account whose subscription Stripe cannot cancel is not deleted', async () => {
    const { server, stripe } = billing;
    const user = await server.signUp();
    const subscriptionId = await subscribe(billing, user, 'Pro', 'month');
    stripe.failNext({ method: 'DELETE', path: new RegExp(`/v1/subscriptions/${subscriptionId}$`), status: 503, times: 3 });
    const refused = await server.inject('DELETE', '/users/me', { token: user.token, body: { password: TEST_PASSWORD } });
    expect(refused.status).toBe(502);
    expect(refused.json.code).toBe('billing/failed');
    expect(stripe.state.subscription(subscriptionId)['status']).toBe('active');
    expect((await billingOf(server, user)).plan).toBe('Pro');
    // Stripe back: the deletion goes through.
    expect((await server.inject('DELETE', '/users/me', { token: user.token, body: { password: TEST_PASSWORD } })).status).toBe(200);
    expect(stripe.state.subscription(subscriptionId)['status']).toBe('canceled');
  });

  it('an account that never subscribed is deleted without asking Stripe', async () => {
    const { server, stripe } = billing;
    const user = await server.signUp();
    const before = stripe.requests.length;
    expect((await server.inject('DELETE', '/users/me', { token: user.token, body: { password: TEST_PASSWORD } })).status).toBe(200);
    expect(stripe.requests.length).toBe(before);
  });
});
