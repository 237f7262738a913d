/**
 * Billing tests' set-up: a test server whose Stripe client talks to the stand-in, the stand-in
 * posting its events to the server's webhook, and the steps a user takes (subscribe and pay).
 */
import { expect } from 'vitest';
import type { ConfigOverrides } from '../src/config.ts';
import { startTestServer, type TestAccount, type TestDatabase, type TestServer } from './harness.ts';
import { startStripeStandin, type StripeStandin } from './stripe-standin/index.ts';

export interface BillingServer {
  server: TestServer;
  stripe: StripeStandin;
  close(): Promise<void>;
}

export async function startBillingServer(database: TestDatabase, config: ConfigOverrides = {}): Promise<BillingServer> {
  const stripe = await startStripeStandin();
  try {
    const server = await startTestServer({ database, config: { ...stripe.config, ...config } });
    stripe.setWebhookUrl(`${server.url}/v1/stripe/webhook`);
    return {
      server,
      stripe,
      close: async () => {
        await stripe.settled();
        await server.close();
        await stripe.close();
      },
    };
  } catch (error) {
    await stripe.close();
    throw error;
  }
}

export const CONSENT = { acceptTerms: true, waiveWithdrawal: true } as const;

/** POST /billing/checkout; answers the Checkout session id (from the page's URL). */
export async function startCheckout(server: TestServer, account: TestAccount, plan: string, cycle: string, headers: Record<string, string> = {}): Promise<string> {
  const response = await server.inject('POST', '/billing/checkout', { token: account.token, body: { plan, cycle, ...CONSENT }, headers });
  expect(response.status, JSON.stringify(response.json)).toBe(200);
  const match = /\/__standin\/checkout\/([^/?]+)$/.exec(response.json.url as string);
  expect(match, response.json.url).not.toBeNull();
  return match![1]!;
}

/** Checkout and payment: the account is subscribed (webhooks applied); answers the subscription id. */
export async function subscribe(billing: BillingServer, account: TestAccount, plan: string, cycle: string): Promise<string> {
  const sessionId = await startCheckout(billing.server, account, plan, cycle);
  const { subscriptionId } = await billing.stripe.completeCheckout(sessionId);
  return subscriptionId;
}

export async function billingOf(server: TestServer, account: TestAccount) {
  const response = await server.inject('GET', '/billing', { token: account.token });
  expect(response.status, JSON.stringify(response.json)).toBe(200);
  return response.json;
}

export async function meOf(server: TestServer, account: TestAccount) {
  const response = await server.inject('GET', '/users/me', { token: account.token });
  expect(response.status).toBe(200);
  return response.json;
}
