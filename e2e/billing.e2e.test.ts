/**
 * Plans and billing as a person meets them (issue #13): a Free user upgrades to Pro yearly through
 * Stripe Checkout and the plan chip and quota follow; changes to Enterprise monthly (prorated);
 * cancels, stays on Enterprise until the period ends, then is on Free. A visitor buys the offline
 * licence on /offline through the embedded checkout and finds the key in the mail.
 *
 * Stripe is the test stand-in (apps/server/test/stripe-standin): the server's real Stripe client talks
 * to it over HTTP, it serves the checkout pages and Stripe.js, and it posts signed webhooks to the app.
 */
import { generateKeyPairSync } from 'node:crypto';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { checkLicenceKey, LICENCE_KEY_ALPHABET } from '@sheaf/shared';
import { startStripeStandin, type StripeStandin } from '../apps/server/test/stripe-standin/index.ts';
import { seriousViolations } from './support/axe.ts';
import { newContext } from './support/app.ts';
import { signUp } from './support/flows.ts';
import { latestMailTo } from './support/screens.ts';
import { serialFlow } from './support/serial-flow.ts';

const ACTION_TIMEOUT = 30_000;
let stripe: StripeStandin;

const flow = serialFlow({
  failureScreenshot: 'failed-billing',
  actionTimeoutMs: ACTION_TIMEOUT,
  async env() {
    stripe = await startStripeStandin();
    const { privateKey, publicKey } = generateKeyPairSync('ed25519');
    return {
      STRIPE_SECRET_KEY: stripe.config.STRIPE_SECRET_KEY,
      STRIPE_WEBHOOK_SECRET: stripe.config.STRIPE_WEBHOOK_SECRET,
      STRIPE_API_URL: stripe.config.STRIPE_API_URL,
      STRIPE_PUBLISHABLE_KEY: stripe.config.STRIPE_PUBLISHABLE_KEY,
      STRIPE_JS_URL: stripe.config.STRIPE_JS_URL,
      LICENCE_SIGNING_KEY: privateKey.export({ type: 'pkcs8', format: 'der' }).toString('base64'),
      LICENCE_PUBLIC_KEY: publicKey.export({ type: 'spki', format: 'der' }).toString('base64'),
    };
  },
  onStarted(app) {
    stripe.setWebhookUrl(`${app.url}/v1/stripe/webhook`);
  },
});

/** The one subscription the stand-in holds (the upgrade's). */
function onlySubscriptionId(): string {
  const ids = [...stripe.state.subscriptions.keys()];
  expect(ids).toHaveLength(1);
  return ids[0]!;
}

afterAll(async () => {
  await stripe?.close();
});

describe('billing', () => {
  it('a Free user opens /billing from the plan chip: yearly is chosen, prices come from the catalogue', async () => {
    const { page, app } = flow;
    await signUp(page, app.url);
    await page.getByRole('button', { name: /^Plan: Free/ }).click();
    await page.waitForURL(/\/billing$/);
    await page.getByRole('heading', { name: 'Choose your plan' }).waitFor();
    expect(await page.getByRole('button', { name: /^Yearly/ }).getAttribute('aria-pressed')).toBe('true');
    await page.getByText('billed yearly: $240').waitFor();
    await page.getByText('30-day money-back guarantee', { exact: true }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('upgrades to Pro yearly: the address and both consents are required, Stripe Checkout is paid, plan chip and quota follow', async () => {
    const { page } = flow;
    await page.getByRole('button', { name: 'Upgrade to Pro' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('button', { name: 'Continue to payment' }).click();
    await dialog.getByText('Please accept the terms and the privacy policy.').waitFor();
    await dialog.getByText('Please confirm that you waive your right of withdrawal.').waitFor();
    expect(stripe.requests.filter((request) => request.path === '/v1/checkout/sessions')).toHaveLength(0);

    await dialog.getByLabel('Address line 1').fill('Hauptstraße 1');
    await dialog.getByLabel('Postal code').fill('10115');
    await dialog.getByLabel('City').fill('Berlin');
    await dialog.getByLabel('Country').selectOption('DE');
    await dialog.getByLabel('VAT number').fill('DE123456789');
    await dialog.getByRole('checkbox', { name: /I accept the terms/ }).check();
    await dialog.getByRole('checkbox', { name: /waive my right of withdrawal/ }).check();
    await dialog.getByRole('button', { name: 'Continue to payment' }).click();

    // Stripe's hosted page (the stand-in's), then back.
    await page.getByRole('heading', { name: 'Pay Sheaf' }).waitFor();
    await page.getByRole('button', { name: 'Pay', exact: true }).click();
    await page.waitForURL(/\/billing\?checkout=success/);
    await page.getByText('Welcome to Pro!').waitFor();
    await page.getByLabel(/^Plan: Pro/).waitFor();
    await expect.poll(() => page.getByLabel('Documents generated this period').textContent()).toBe('0 / 1,000');
    // The address went to the Stripe customer, with the VAT id as its tax id.
    const customer = [...stripe.state.customers.values()][0]!;
    expect(customer['address']).toMatchObject({ line1: 'Hauptstraße 1', postal_code: '10115', city: 'Berlin', country: 'DE' });
  });

  it('changes to Enterprise monthly with proration; the quota follows', async () => {
    const { page } = flow;
    await page.getByRole('button', { name: 'Close' }).first().click();
    await page.getByRole('button', { name: /^Monthly/ }).click();
    await page.getByRole('button', { name: 'Switch to Enterprise' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText(/prorated|credited/).first().waitFor();
    await dialog.getByRole('button', { name: 'Switch plan' }).click();
    await page.getByText('You switched to Enterprise.').waitFor();
    await page.getByText('Enterprise, billed monthly').waitFor();
    await page.getByLabel(/^Plan: Enterprise/).waitFor();
    await expect.poll(() => page.getByLabel('Documents generated this period').textContent()).toBe('0 / 10,000');
    const update = stripe.requests.find((request) => request.method === 'POST' && request.path.startsWith('/v1/subscriptions/'));
    expect(update?.params).toMatchObject({ proration_behavior: 'always_invoice' });
  });

  it('cancels: Enterprise stays usable until the period ends, then the account is on Free', async () => {
    const { page } = flow;
    await page.getByRole('button', { name: 'Cancel subscription' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel subscription' }).click();
    await page.getByText(/Enterprise stays usable until/).first().waitFor();
    await page.getByRole('button', { name: 'Resume subscription' }).waitFor();
    expect(stripe.state.subscriptions.get(onlySubscriptionId())!['cancel_at_period_end']).toBe(true);
    await page.getByLabel(/^Plan: Enterprise/).waitFor();

    await stripe.endPeriod(onlySubscriptionId());
    await page.reload();
    await page.getByLabel(/^Plan: Free/).waitFor();
    await page.getByRole('button', { name: 'Upgrade to Pro' }).waitFor();
  });

  it('a visitor buys the offline licence on /offline and finds the key in the mail', async () => {
    const { app } = flow;
    const context = await newContext(await flow.page.context().browser()!);
    try {
      const visitor = await context.newPage();
      visitor.setDefaultTimeout(ACTION_TIMEOUT);
      const checkoutCalls: string[] = [];
      visitor.on('request', (request) => {
        if (request.url().includes('/v1/createOfflineCheckoutSession')) checkoutCalls.push(request.url());
      });
      await visitor.goto(`${app.url}/offline`);
      await visitor.getByRole('heading', { name: 'Offline Plan', exact: true }).waitFor();
      expect(await seriousViolations(visitor)).toEqual([]);

      // Both boxes unticked: an error under each, and no request.
      await visitor.getByRole('button', { name: 'Next' }).click();
      await visitor.getByText('Please accept the terms and the privacy policy.').waitFor();
      await visitor.getByText('Please confirm that you waive your right of withdrawal.').waitFor();
      expect(checkoutCalls).toEqual([]);

      await visitor.getByRole('checkbox', { name: /I accept the terms/ }).check();
      await visitor.getByRole('checkbox', { name: /waive my right of withdrawal/ }).check();
      await visitor.getByRole('button', { name: 'Next' }).click();
      await visitor.getByRole('button', { name: 'Pay', exact: true }).waitFor();
      expect(checkoutCalls).toHaveLength(1);
      const buyer = `buyer.${Date.now().toString(36)}@example.com`;
      await visitor.getByLabel('Email').fill(buyer);
      await visitor.getByRole('button', { name: 'Pay', exact: true }).click();
      await visitor.waitForURL(/\/offline\/success\?sessionId=/);
      await visitor.getByRole('heading', { name: /Thank you/ }).waitFor();
      expect(await seriousViolations(visitor)).toEqual([]);

      const mail = await vi.waitFor(async () => {
        const text = await latestMailTo(app, buyer);
        if (!text) throw new Error(`no mail to ${buyer} yet`);
        return text;
      }, { timeout: 30_000, interval: 200 });
      const key = new RegExp(`[${LICENCE_KEY_ALPHABET}]{5}(-[${LICENCE_KEY_ALPHABET}]{5}){4}`).exec(mail)?.[0];
      expect(key, mail).toBeDefined();
      expect(checkLicenceKey(key!).ok).toBe(true);

      // The key activates a machine: the licence is real, signed, and on one computer.
      const activated = await fetch(`${app.url}/v1/licences/activate`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ key, machineId: 'e2e-machine-0001' }),
      });
      expect(activated.status).toBe(200);

      // Someone else's session id reveals nothing.
      await visitor.goto(`${app.url}/offline/success?sessionId=cs_test_not_mine`);
      await visitor.getByRole('heading', { name: /could not confirm/ }).waitFor();
    } finally {
      await context.close();
    }
  });
});
