/**
 * A stand-in for Stripe in tests: a real HTTP server on a free port that the real `stripe` client
 * reaches through STRIPE_API_URL. It answers the endpoints the billing module uses (form-encoded
 * requests, JSON shaped like the real API, Idempotency-Key honoured, Stripe's error bodies), and sends
 * webhook events signed the way Stripe signs them to the URL it is given.
 *
 *   const stripe = await startStripeStandin();
 *   const server = await startTestServer({ database, config: stripe.config });
 *   stripe.setWebhookUrl(`${server.url}/v1/stripe/webhook`);
 *   await stripe.completeCheckout(sessionId);          // pay: subscription + events, delivered
 *
 * Controls are functions here and HTTP endpoints under /__standin/ (for browser tests): complete a
 * checkout, renew, fail a payment, end a period, deliver events again (replays, any order). The hosted
 * Checkout page, the billing portal and a small Stripe.js are served there too (pages.ts).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHash, randomBytes } from 'node:crypto';
import Stripe from 'stripe';
import { PRICE_KEYS, type PriceKey } from '../../src/config-billing.ts';
import { parseForm, type FormObject } from './form.ts';
import { catalogPrices, type StandinPrice, type StripeObject } from './objects.ts';
import { checkoutPage, fillSessionId, portalPage, stripeJs, totalOf } from './pages.ts';
import { StandinApiError, StripeState } from './state.ts';

export { EU_VAT_PATTERN } from './state.ts';
export type { StripeObject } from './objects.ts';

export interface RecordedRequest {
  method: string;
  path: string;
  params: FormObject;
  idempotencyKey: string | undefined;
  /** Answered from the idempotency store (a repeated key): nothing happened again. */
  replayed: boolean;
  status: number;
}

export interface Delivery {
  eventId: string;
  type: string;
  status: number;
}

export interface StandinOptions {
  /** Price ids by key (default: the settings' defaults, price_sheaf_pro_month, ...). */
  priceIds?: Partial<Record<PriceKey, string>>;
}

const defaultPriceIds = Object.fromEntries(PRICE_KEYS.map((key) => [key, `price_sheaf_${key.replace('.', '_').toLowerCase()}`])) as Record<PriceKey, string>;

export type StripeStandin = Awaited<ReturnType<typeof startStripeStandin>>;

export async function startStripeStandin(options: StandinOptions = {}) {
  const secretKey = `sk_test_standin_${randomBytes(12).toString('hex')}`;
  const webhookSecret = `whsec_standin_${randomBytes(16).toString('hex')}`;
  const prices: StandinPrice[] = catalogPrices({ ...defaultPriceIds, ...options.priceIds });
  let origin = '';
  let webhookUrl: string | undefined;
  let holding = false;
  const held: StripeObject[] = [];
  const deliveries: Delivery[] = [];
  const requests: RecordedRequest[] = [];
  const idempotent = new Map<string, { digest: string; status: number; body: unknown }>();
  let queue: Promise<void> = Promise.resolve();

  /** Posts one event, signed with the endpoint's secret, and records the answer's status. */
  async function post(event: StripeObject, signature?: string): Promise<number> {
    if (!webhookUrl) throw new Error('stripe stand-in: no webhook URL (setWebhookUrl)');
    const payload = JSON.stringify(event, null, 2);
    const header = signature ?? Stripe.webhooks.generateTestHeaderString({ payload, secret: webhookSecret });
    const response = await fetch(webhookUrl, { method: 'POST', headers: { 'content-type': 'application/json; charset=utf-8', 'stripe-signature': header }, body: payload });
    await response.arrayBuffer();
    deliveries.push({ eventId: event['id'], type: event['type'], status: response.status });
    return response.status;
  }

  /** Events go out one at a time, in order, after the answer of the request that caused them. */
  function enqueue(event: StripeObject): void {
    if (holding || !webhookUrl) {
      held.push(event);
      return;
    }
    queue = queue.then(() => new Promise((resolve) => setImmediate(resolve))).then(() => post(event).then(() => undefined, () => undefined));
  }

  const state = new StripeState(prices, () => origin, enqueue);

  /** Waits until every event sent so far has been answered. */
  async function settled(): Promise<void> {
    let seen: Promise<void> | undefined;
    while (seen !== queue) {
      seen = queue;
      await queue;
    }
  }

  const faults: Fault[] = [];
  const api = createApi(state, { secretKey, requests, idempotent, faults });

  const server = createServer((request, response) => {
    void route(request, response).catch((error: unknown) => {
      if (!response.headersSent) send(response, 500, { error: { type: 'api_error', message: String(error) } });
    });
  });

  async function route(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', origin);
    const body = await readBody(request);
    if (url.pathname.startsWith('/v1/')) return api(request, response, url, body);
    return controls(request, response, url, body);
  }

  /** /__standin/...: pages, Stripe.js, and the controls as HTTP (CORS open: browser tests call them). */
  async function controls(request: IncomingMessage, response: ServerResponse, url: URL, body: string): Promise<void> {
    response.setHeader('access-control-allow-origin', '*');
    response.setHeader('access-control-allow-headers', 'content-type');
    if (request.method === 'OPTIONS') return void response.writeHead(204).end();
    const path = url.pathname.split('/').filter(Boolean).slice(1);
    const json = () => (body ? (JSON.parse(body) as Record<string, unknown>) : {});
    try {
      if (request.method === 'GET' && path[0] === 'stripe.js') return sendText(response, 200, 'text/javascript; charset=utf-8', stripeJs(origin));
      if (path[0] === 'checkout' && path[1]) {
        const record = state.sessionRecord(path[1]);
        if (request.method === 'GET' && !path[2]) {
          const email = record.session['customer_email'] ?? (record.session['customer'] ? state.customer(record.session['customer'])['email'] : '') ?? '';
          return sendText(response, 200, 'text/html; charset=utf-8', checkoutPage(record.session, record.lineItems, email));
        }
        if (request.method === 'POST' && path[2] === 'pay') {
          const email = new URLSearchParams(body).get('email') ?? undefined;
          await control.completeCheckout(path[1], { email });
          return void response.writeHead(303, { location: fillSessionId(record.session['success_url'], path[1]) }).end();
        }
        if (request.method === 'POST' && path[2] === 'complete') return send(response, 200, await control.completeCheckout(path[1], { email: json()['email'] as string | undefined }));
      }
      if (path[0] === 'embedded' && path[1] === 'session' && request.method === 'GET') {
        const { session, lineItems } = state.sessionBySecret(url.searchParams.get('client_secret') ?? '');
        return send(response, 200, {
          sessionId: session['id'], status: session['status'], customerEmail: session['customer_email'], total: totalOf(lineItems),
          lineItems: lineItems.map((item) => ({ name: item.price.nickname, quantity: item.quantity, amount: item.price.unit_amount * item.quantity })),
        });
      }
      if (path[0] === 'embedded' && path[1] === 'complete' && request.method === 'POST') {
        const input = json();
        const { session } = state.sessionBySecret(String(input['clientSecret'] ?? ''));
        await control.completeCheckout(session['id'], { email: input['email'] as string | undefined });
        return send(response, 200, { returnUrl: fillSessionId(session['return_url'], session['id']) });
      }
      if (path[0] === 'portal' && path[1] && request.method === 'GET') {
        const portal = state.portalSessions.get(path[1]);
        if (portal) return sendText(response, 200, 'text/html; charset=utf-8', portalPage(portal));
      }
      if (path[0] === 'subscriptions' && path[1] && request.method === 'POST') {
        if (path[2] === 'renew') return send(response, 200, await control.renew(path[1]));
        if (path[2] === 'fail-payment') return send(response, 200, await control.failPayment(path[1]));
        if (path[2] === 'end-period') return send(response, 200, await control.endPeriod(path[1]));
      }
      if (path[0] === 'events' && path[1] === 'redeliver' && request.method === 'POST') return send(response, 200, { statuses: await control.redeliver((json()['ids'] as string[]) ?? []) });
      if (path[0] === 'requests' && request.method === 'GET') return send(response, 200, { requests });
      return send(response, 404, { error: { type: 'invalid_request_error', message: `Unknown stand-in control ${url.pathname}` } });
    } catch (error) {
      if (error instanceof StandinApiError) return send(response, error.status, { error: error.error });
      throw error;
    }
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const control = {
    /** Pay a checkout session (the buyer's email as typed): subscription created, session complete and paid, its events delivered. */
    async completeCheckout(sessionId: string, input: { email?: string | undefined } = {}) {
      const result = state.completeSession(sessionId, input.email || undefined);
      await settled();
      return { sessionId, subscriptionId: result.subscription['id'] as string };
    },
    /** The next period: invoice.paid (subscription_cycle) and customer.subscription.updated delivered. */
    async renew(subscriptionId: string) {
      const { subscription, invoice } = state.renew(subscriptionId);
      await settled();
      return { subscriptionId: subscription['id'] as string, invoiceId: invoice['id'] as string };
    },
    /** The renewal's payment fails: past_due, invoice.payment_failed and customer.subscription.updated delivered. */
    async failPayment(subscriptionId: string) {
      const { invoice } = state.failPayment(subscriptionId);
      await settled();
      return { subscriptionId, invoiceId: invoice['id'] as string };
    },
    /** A subscription cancelled at period end reaches it: customer.subscription.deleted delivered. */
    async endPeriod(subscriptionId: string) {
      state.endPeriod(subscriptionId);
      await settled();
      return { subscriptionId };
    },
    /** Delivers stored events again, in the order given (same ids: a replay); answers their statuses. */
    async redeliver(eventIds: readonly string[]) {
      await settled();
      const statuses: number[] = [];
      for (const id of eventIds) {
        const event = state.events.find((candidate) => candidate['id'] === id);
        if (!event) throw new StandinApiError(404, { type: 'invalid_request_error', message: `No such event: '${id}'` });
        statuses.push(await post(event));
      }
      return statuses;
    },
  };

  return {
    url: origin,
    secretKey,
    webhookSecret,
    /** Settings for startTestServer: the server's Stripe client talks to this stand-in. */
    config: {
      STRIPE_SECRET_KEY: secretKey,
      STRIPE_WEBHOOK_SECRET: webhookSecret,
      STRIPE_API_URL: origin,
      STRIPE_PUBLISHABLE_KEY: 'pk_test_standin',
      STRIPE_JS_URL: `${origin}/__standin/stripe.js`,
    },
    state,
    requests,
    deliveries,
    ...control,
    setWebhookUrl(url: string): void {
      webhookUrl = url;
    },
    /** Keeps new events instead of delivering them (release() sends them). */
    hold(): void {
      holding = true;
    },
    /** Delivers the held events, in their order or reversed; answers their statuses. */
    async release(order: 'as-is' | 'reverse' = 'as-is'): Promise<number[]> {
      holding = false;
      await settled();
      const events = held.splice(0);
      if (order === 'reverse') events.reverse();
      const statuses: number[] = [];
      for (const event of events) statuses.push(await post(event));
      return statuses;
    },
    /** Posts an event with a given Stripe-Signature header (forged, or stale) and answers the status. */
    postWithSignature(event: StripeObject, signature: string): Promise<number> {
      return post(event, signature);
    },
    /** Stripe's own header for a payload, at a given time (seconds): for replays of old deliveries. */
    signature(payload: string, timestamp?: number): string {
      return Stripe.webhooks.generateTestHeaderString({ payload, secret: webhookSecret, ...(timestamp ? { timestamp } : {}) });
    },
    settled,
    /** The next `times` requests matching method and path answer `status` with Stripe's api_error body. */
    failNext(fault: { method: string; path: RegExp; status?: number; times?: number }): void {
      faults.push({ method: fault.method, path: fault.path, status: fault.status ?? 500, times: fault.times ?? 1 });
    },
    /** The next `times` requests matching method and path are answered `ms` late, as they were when they arrived. */
    delayNext(fault: { method: string; path: RegExp; ms: number; times?: number }): void {
      faults.push({ method: fault.method, path: fault.path, status: 0, times: fault.times ?? 1, delayMs: fault.ms });
    },
    /** Requests to an API path (POST /v1/checkout/sessions, ...), replays included. */
    requestsTo(method: string, path: string | RegExp): RecordedRequest[] {
      return requests.filter((request) => request.method === method && (typeof path === 'string' ? request.path === path : path.test(request.path)));
    },
    async close(): Promise<void> {
      await settled();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

interface Fault {
  method: string;
  path: RegExp;
  /** An error status to answer; 0: answer as usual, `delayMs` late (the answer is made when the request arrives). */
  status: number;
  times: number;
  delayMs?: number;
}

interface ApiStores {
  secretKey: string;
  requests: RecordedRequest[];
  idempotent: Map<string, { digest: string; status: number; body: unknown }>;
  faults: Fault[];
}

/** The /v1 API: authentication, idempotency, routing to the state's operations, Stripe's error bodies. */
function createApi(state: StripeState, stores: ApiStores) {
  type Handler = (match: string[], params: FormObject) => unknown;
  const table: Array<[string, RegExp, Handler]> = [
    ['POST', /^\/v1\/customers$/, (_, params) => state.createCustomer(params)],
    ['GET', /^\/v1\/customers\/([^/]+)$/, ([id]) => state.customer(id!)],
    ['POST', /^\/v1\/customers\/([^/]+)$/, ([id], params) => state.updateCustomer(id!, params)],
    ['GET', /^\/v1\/customers\/([^/]+)\/tax_ids$/, ([id]) => listOf(state.listTaxIds(id!), `/v1/customers/${id}/tax_ids`)],
    ['POST', /^\/v1\/customers\/([^/]+)\/tax_ids$/, ([id], params) => state.createTaxId(id!, params)],
    ['DELETE', /^\/v1\/customers\/([^/]+)\/tax_ids\/([^/]+)$/, ([id, taxId]) => state.deleteTaxId(id!, taxId!)],
    ['POST', /^\/v1\/checkout\/sessions$/, (_, params) => state.createSession(params)],
    ['GET', /^\/v1\/checkout\/sessions\/([^/]+)$/, ([id]) => state.sessionRecord(id!).session],
    ['GET', /^\/v1\/subscriptions$/, (_, params) => listOf(state.listSubscriptions(params), '/v1/subscriptions')],
    ['GET', /^\/v1\/subscriptions\/([^/]+)$/, ([id]) => state.subscription(id!)],
    ['POST', /^\/v1\/subscriptions\/([^/]+)$/, ([id], params) => state.updateSubscription(id!, params)],
    ['DELETE', /^\/v1\/subscriptions\/([^/]+)$/, ([id]) => state.cancelSubscription(id!)],
    ['POST', /^\/v1\/billing_portal\/sessions$/, (_, params) => state.createPortalSession(params)],
  ];

  return async (request: IncomingMessage, response: ServerResponse, url: URL, body: string): Promise<void> => {
    const method = request.method ?? 'GET';
    const params = { ...parseForm(url.search.slice(1)), ...parseForm(body) };
    const key = headerOf(request, 'idempotency-key');
    const record = (status: number, replayed: boolean) => stores.requests.push({ method, path: url.pathname, params, idempotencyKey: key, replayed, status });
    if (headerOf(request, 'authorization') !== `Bearer ${stores.secretKey}`) {
      record(401, false);
      return send(response, 401, { error: { type: 'invalid_request_error', message: 'Invalid API Key provided.' } });
    }
    const fault = stores.faults.find((candidate) => candidate.times > 0 && candidate.method === method && candidate.path.test(url.pathname));
    if (fault) fault.times -= 1;
    if (fault?.status) {
      record(fault.status, false);
      return send(response, fault.status, { error: { type: 'api_error', message: 'The stand-in was told to fail this request.' } });
    }
    const digest = createHash('sha256').update(`${method} ${url.pathname} ${JSON.stringify(params)}`).digest('hex');
    const stored = key && method !== 'GET' ? stores.idempotent.get(key) : undefined;
    if (stored) {
      if (stored.digest !== digest) {
        record(400, true);
        return send(response, 400, { error: { type: 'idempotency_error', message: `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${key}' if you meant to execute a different request.` } });
      }
      record(stored.status, true);
      return send(response, stored.status, stored.body, { 'idempotent-replayed': 'true' });
    }
    let status = 200;
    let answer: unknown;
    const route = table.find(([routeMethod, pattern]) => routeMethod === method && pattern.test(url.pathname));
    if (!route) {
      status = 404;
      answer = { error: { type: 'invalid_request_error', message: `Unrecognized request URL (${method}: ${url.pathname}).` } };
    } else {
      try {
        answer = route[2](route[1].exec(url.pathname)!.slice(1).map(decodeURIComponent), params);
      } catch (error) {
        if (!(error instanceof StandinApiError)) throw error;
        status = error.status;
        answer = { error: error.error };
      }
    }
    // Stripe stores the answer of a keyed request, errors included (but not its own 5xx).
    // The answer as it is now, sent later when told to be slow.
    const text = JSON.parse(JSON.stringify(answer)) as unknown;
    if (key && method !== 'GET') stores.idempotent.set(key, { digest, status, body: text });
    record(status, false);
    if (fault?.delayMs) await new Promise((resolve) => setTimeout(resolve, fault.delayMs));
    send(response, status, text);
  };
}

const listOf = (data: StripeObject[], url: string) => ({ object: 'list', data, has_more: false, url });

function headerOf(request: IncomingMessage, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function send(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  response.writeHead(status, { 'content-type': 'application/json', 'request-id': `req_${randomBytes(8).toString('hex')}`, 'stripe-version': '2026-10-28.endive', ...headers });
  response.end(text);
}

function sendText(response: ServerResponse, status: number, type: string, text: string): void {
  response.writeHead(status, { 'content-type': type });
  response.end(text);
}
