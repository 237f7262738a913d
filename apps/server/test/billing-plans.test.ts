/**
 * GET /plans from the plan catalogue and the settings, and billing on a server without Stripe
 * (docs/billing.md#without-stripe): the plans say so, GET /billing still answers, every purchase or
 * change answers billing/not-configured. Child users never reach billing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BILLING_PLANS, PlanListSchema, entitlements, planPrice, PLAN_CATALOGUE, UserSchema, type PlanInfo } from '@sheaf/shared';
import { setPlanByEmail } from '../src/modules/users/index.ts';
import { forEachDatabase, startTestServer, type TestServer } from './harness.ts';
import { CONSENT } from './billing-support.ts';

const byPlan = (plans: PlanInfo[], plan: string) => plans.find((entry) => entry.plan === plan)!;

forEachDatabase((database) => {
  describe('without Stripe', () => {
    let server: TestServer;
    beforeAll(async () => {
      server = await startTestServer({ database, config: { PRICE_INCREASE_DATE: '2999-11-01' } });
    });
    afterAll(() => server?.close());

    it('lists every plan of the catalogue with its prices, features and default price ids; billing is not configured', async () => {
      const response = await server.inject('GET', '/plans');
      expect(response.status).toBe(200);
      const list = PlanListSchema.parse(response.json);
      expect(list).toMatchObject({ currency: 'usd', offlinePriceReading: 'perLicence', priceIncreaseDate: '2999-11-01', billingConfigured: false, stripePublishableKey: null, stripeJsUrl: 'https://js.stripe.com/v3/' });
      expect(list.plans.map((plan) => plan.plan)).toEqual([...BILLING_PLANS]);
      for (const info of list.plans) {
        const allowed = entitlements(info.plan, PLAN_CATALOGUE[info.plan].edition);
        expect(info.price, info.plan).toEqual(planPrice(info.plan));
        expect(info).toMatchObject({ documentsPerMonth: allowed.documentsPerMonth, users: allowed.users, watermark: allowed.watermark, dkim: allowed.dkim, support: allowed.support, refundDays: PLAN_CATALOGUE[info.plan].refundDays });
      }
      const pro = byPlan(list.plans, 'Pro');
      expect(pro).toMatchObject({ kind: 'subscription', price: { monthly: 24, yearlyMonthly: 20, yearly: 240 }, priceIds: { month: 'price_sheaf_pro_month', year: 'price_sheaf_pro_year' }, additionalLicence: null, documentsPerMonth: 1000 });
      expect(byPlan(list.plans, 'Enterprise')).toMatchObject({ users: 5, dkim: true, smtp: true, priceIds: { month: 'price_sheaf_enterprise_month', year: 'price_sheaf_enterprise_year' } });
      expect(byPlan(list.plans, 'Free')).toMatchObject({ kind: 'free', priceIds: null, watermark: true, sendEmail: false });
      expect(byPlan(list.plans, 'Unlicensed')).toMatchObject({ kind: 'trial', price: null, priceIds: null });
      expect(byPlan(list.plans, 'Offline')).toMatchObject({
        kind: 'licence', edition: 'desktop', price: { monthly: 129, yearlyMonthly: 107, yearly: 1284 }, refundDays: 0, documentsPerMonth: null, smtp: true,
        priceIds: { month: 'price_sheaf_offline_month', year: 'price_sheaf_offline_year' },
        additionalLicence: { price: { monthly: 29, yearlyMonthly: 19, yearly: 228 }, priceIds: { month: 'price_sheaf_offlineadditional_month', year: 'price_sheaf_offlineadditional_year' } },
      });
    });

    it('GET /billing answers from the account (an operator\'s plan too); every purchase or change answers billing/not-configured', async () => {
      const user = await server.signUp();
      const status = await server.inject('GET', '/billing', { token: user.token });
      expect(status.status).toBe(200);
      expect(status.json).toMatchObject({ plan: 'Free', cycle: null, subscription: null, address: null, isUpdatingBillingPlan: false, billingConfigured: false });
      expect(UserSchema.parse((await server.inject('GET', '/users/me', { token: user.token })).json).isUpdatingBillingPlan).toBe(false);

      await setPlanByEmail(server.ctx.db, user.email, 'Enterprise');
      expect((await server.inject('GET', '/billing', { token: user.token })).json).toMatchObject({ plan: 'Enterprise', subscription: null });

      const address = { line1: '1 Main St', zip: '10115', city: 'Berlin', country: 'DE' };
      const calls: Array<[string, string, unknown]> = [
        ['POST', '/billing/checkout', { plan: 'Pro', cycle: 'year', ...CONSENT }],
        ['POST', '/billing/change', { plan: 'Pro', cycle: 'year' }],
        ['POST', '/billing/cancel', undefined],
        ['POST', '/billing/resume', undefined],
        ['POST', '/billing/portal', undefined],
        ['PUT', '/billing/address', address],
        ['POST', '/createOfflineCheckoutSession', { priceId: 'price_sheaf_offline_year', ...CONSENT }],
      ];
      for (const [method, path, body] of calls) {
        const response = await server.inject(method, path, { token: user.token, body });
        expect(response.status, path).toBe(503);
        expect(response.json.code, path).toBe('billing/not-configured');
      }
      // A visitor's offline purchase too; and Stripe's webhook has no secret to check against.
      expect((await server.inject('POST', '/createOfflineCheckoutSession', { body: { priceId: 'price_sheaf_offline_year', ...CONSENT } })).status).toBe(503);
      const webhook = await server.app.inject({ method: 'POST', url: '/v1/stripe/webhook', headers: { 'content-type': 'application/json', 'stripe-signature': 't=1,v1=00' }, payload: '{}' });
      expect(webhook.statusCode).toBe(503);
    });

    it('checks the billing address on the server, each field under its own code', async () => {
      const user = await server.signUp();
      const response = await server.inject('PUT', '/billing/address', { token: user.token, body: { line1: ' ', zip: '', city: 'Berlin', country: 'Germany' } });
      expect(response.status).toBe(400);
      expect(response.json.code).toBe('billing/address-required');
      expect(response.json.fields).toEqual({ line1: 'billing/address-required', zip: 'billing/address-required', country: 'billing/country-invalid' });
    });

    it('child users are refused billing whatever it is', async () => {
      const parent = await server.signUp();
      const child = await server.signUp();
      await server.ctx.db.query('UPDATE users SET parent_uid = $1 WHERE id = $2', [parent.uid, child.uid]);
      for (const [method, path, body] of [
        ['GET', '/billing', undefined], ['POST', '/billing/checkout', { plan: 'Pro', cycle: 'year', ...CONSENT }], ['POST', '/billing/cancel', undefined],
        ['POST', '/billing/portal', undefined], ['POST', '/createOfflineCheckoutSession', { priceId: 'price_sheaf_offline_year', ...CONSENT }],
      ] as const) {
        const response = await server.inject(method, path, { token: child.token, body });
        expect(response.status, path).toBe(403);
        expect(response.json.code).toBe('access/forbidden');
      }
      expect((await server.inject('GET', '/billing', { token: parent.token })).status).toBe(200);
    });
  });

  describe('settings', () => {
    let server: TestServer;
    beforeAll(async () => {
      server = await startTestServer({
        database,
        config: {
          STRIPE_SECRET_KEY: 'sk_test_unused', STRIPE_PUBLISHABLE_KEY: 'pk_test_123', STRIPE_JS_URL: 'http://127.0.0.1:9/stripe.js',
          OFFLINE_PRICE_READING: 'billedYearly79', PRICE_INCREASE_DATE: '2001-11-01',
          STRIPE_PRICE_IDS: 'Pro.month=price_custom_pro,OfflineAdditional.year=price_custom_extra' as never,
        },
      });
    });
    afterAll(() => server?.close());

    it('price ids, the offline price\'s reading and the notice follow the settings', async () => {
      const list = PlanListSchema.parse((await server.inject('GET', '/plans')).json);
      expect(list).toMatchObject({ billingConfigured: true, stripePublishableKey: 'pk_test_123', stripeJsUrl: 'http://127.0.0.1:9/stripe.js', offlinePriceReading: 'billedYearly79', priceIncreaseDate: null });
      expect(byPlan(list.plans, 'Pro').priceIds).toEqual({ month: 'price_custom_pro', year: 'price_sheaf_pro_year' });
      // The $79-a-month-billed-yearly reading has no additional licence.
      expect(byPlan(list.plans, 'Offline')).toMatchObject({ price: { monthly: 79, yearlyMonthly: 79, yearly: 948 }, additionalLicence: null });
    });
  });
});
