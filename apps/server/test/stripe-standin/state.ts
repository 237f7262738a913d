/**
 * The stand-in's Stripe account: what the API endpoints the billing module uses do to it, and what a
 * buyer or time does (paying a checkout, a renewal, a failed payment, the period's end), each with the
 * events real Stripe sends for it, in its order.
 */
import { bool, list, metadataOf, obj, str, type FormObject } from './form.ts';
import {
  addInterval, clone, customerObject, eventObject, invoiceObject, newId, portalSessionObject, sessionObject, subscriptionItemObject,
  subscriptionObject, taxIdObject, type InvoiceLine, type LineItem, type StandinPrice, type StripeObject,
} from './objects.ts';

/** An API error as Stripe answers it: status and {error: {type, code, message, param}}. */
export class StandinApiError extends Error {
  constructor(
    readonly status: number,
    readonly error: { type: string; code?: string; message: string; param?: string },
  ) {
    super(error.message);
  }
}

const missing = (kind: string, id: string, param = 'id') =>
  new StandinApiError(404, { type: 'invalid_request_error', code: 'resource_missing', message: `No such ${kind}: '${id}'`, param });
const invalid = (message: string, param?: string, code = 'parameter_invalid') => new StandinApiError(400, { type: 'invalid_request_error', code, message, ...(param ? { param } : {}) });

/** The VAT id format the stand-in accepts for eu_vat (Stripe checks each country's own). */
export const EU_VAT_PATTERN = /^[A-Z]{2}[0-9A-Z]{8,12}$/;

interface SessionRecord {
  session: StripeObject;
  lineItems: LineItem[];
  subscriptionMetadata: Record<string, string>;
}

export class StripeState {
  readonly customers = new Map<string, StripeObject>();
  readonly taxIds = new Map<string, StripeObject>();
  readonly sessions = new Map<string, SessionRecord>();
  readonly subscriptions = new Map<string, StripeObject>();
  readonly invoices = new Map<string, StripeObject>();
  readonly portalSessions = new Map<string, StripeObject>();
  /** Every event, in the order it happened. */
  readonly events: StripeObject[] = [];
  private readonly prices: Map<string, StandinPrice>;

  constructor(
    prices: StandinPrice[],
    private readonly origin: () => string,
    private readonly onEvent: (event: StripeObject) => void,
    /** Seconds since 1970 (tests may move it). */
    readonly now: () => number = () => Math.floor(Date.now() / 1000),
  ) {
    this.prices = new Map(prices.map((price) => [price.id, price]));
  }

  private emit(type: string, object: StripeObject, previous?: StripeObject): StripeObject {
    const event = eventObject(type, object, this.now(), previous);
    this.events.push(event);
    this.onEvent(event);
    return event;
  }

  private price(id: string | undefined, param: string): StandinPrice {
    const price = id ? this.prices.get(id) : undefined;
    if (!price) throw invalid(`No such price: '${id ?? ''}'`, param, 'resource_missing');
    return price;
  }

  // ---- customers and tax ids ----

  customer(id: string): StripeObject {
    const customer = this.customers.get(id);
    if (!customer) throw missing('customer', id);
    return customer;
  }

  createCustomer(params: FormObject): StripeObject {
    const customer = customerObject(newId('cus'), this.now());
    this.customers.set(customer['id'], customer);
    return this.updateCustomer(customer['id'], params);
  }

  updateCustomer(id: string, params: FormObject): StripeObject {
    const customer = this.customer(id);
    for (const field of ['email', 'name', 'business_name', 'individual_name', 'phone', 'description'] as const) {
      if (params[field] !== undefined) customer[field] = str(params[field]) || null;
    }
    if (params['address'] !== undefined) {
      const address = obj(params['address']);
      customer['address'] = { city: str(address['city']) ?? null, country: str(address['country']) ?? null, line1: str(address['line1']) ?? null, line2: str(address['line2']) || null, postal_code: str(address['postal_code']) ?? null, state: str(address['state']) ?? null };
    }
    if (params['preferred_locales'] !== undefined) customer['preferred_locales'] = list(params['preferred_locales']).map(String);
    customer['metadata'] = metadataOf(params['metadata'], customer['metadata']);
    return customer;
  }

  listTaxIds(customer: string): StripeObject[] {
    this.customer(customer);
    return [...this.taxIds.values()].filter((taxId) => taxId['customer'] === customer);
  }

  createTaxId(customer: string, params: FormObject): StripeObject {
    this.customer(customer);
    const type = str(params['type']) ?? '';
    const value = str(params['value']) ?? '';
    if (type === 'eu_vat' && !EU_VAT_PATTERN.test(value)) throw invalid(`Invalid value for eu_vat.`, 'value', 'tax_id_invalid');
    const taxId = taxIdObject(customer, type, value, this.now());
    this.taxIds.set(taxId['id'], taxId);
    return taxId;
  }

  deleteTaxId(customer: string, id: string): StripeObject {
    const taxId = this.taxIds.get(id);
    if (!taxId || taxId['customer'] !== customer) throw missing('tax_id', id);
    this.taxIds.delete(id);
    return { id, object: 'tax_id', deleted: true };
  }

  // ---- checkout ----

  createSession(params: FormObject): StripeObject {
    const mode = str(params['mode']);
    if (!mode) throw invalid('Missing required param: mode.', 'mode', 'parameter_missing');
    const uiMode = str(params['ui_mode']) ?? 'hosted_page';
    const lineItems = list(params['line_items']).map((entry, index) => {
      const item = obj(entry);
      return { price: this.price(str(item['price']), `line_items[${index}][price]`), quantity: Number(str(item['quantity']) ?? '1') };
    });
    if (!lineItems.length) throw invalid('Missing required param: line_items.', 'line_items', 'parameter_missing');
    const customer = str(params['customer']) ?? null;
    if (customer) this.customer(customer);
    if (uiMode === 'embedded_page' && !str(params['return_url'])) throw invalid('Missing required param: return_url.', 'return_url', 'parameter_missing');
    if (uiMode === 'hosted_page' && !str(params['success_url'])) throw invalid('Missing required param: success_url.', 'success_url', 'parameter_missing');
    const id = newId('cs_test');
    const session = sessionObject({
      id, created: this.now(), mode, uiMode, lineItems, customer, customerEmail: str(params['customer_email']) ?? null,
      clientReferenceId: str(params['client_reference_id']) ?? null, metadata: metadataOf(params['metadata']),
      successUrl: str(params['success_url']) ?? null, cancelUrl: str(params['cancel_url']) ?? null, returnUrl: str(params['return_url']) ?? null,
      url: uiMode === 'hosted_page' ? `${this.origin()}/__standin/checkout/${id}` : null,
      clientSecret: uiMode === 'hosted_page' ? null : `${id}_secret_${newId('cst').slice(4)}`,
    });
    this.sessions.set(id, { session, lineItems, subscriptionMetadata: metadataOf(obj(params['subscription_data'])['metadata']) });
    return session;
  }

  sessionRecord(id: string): SessionRecord {
    const record = this.sessions.get(id);
    if (!record) throw missing('checkout.session', id);
    return record;
  }

  sessionBySecret(clientSecret: string): SessionRecord {
    const record = [...this.sessions.values()].find((candidate) => candidate.session['client_secret'] === clientSecret);
    if (!record) throw missing('checkout.session', clientSecret, 'client_secret');
    return record;
  }

  /** The buyer pays: a subscription for the line items, then customer.subscription.created, checkout.session.completed, invoice.paid. */
  completeSession(id: string, email?: string): { session: StripeObject; subscription: StripeObject } {
    const { session, lineItems, subscriptionMetadata } = this.sessionRecord(id);
    if (session['status'] !== 'open') throw invalid(`This Checkout Session is ${session['status']}.`, 'id');
    const customerId: string = session['customer'] ?? this.createCustomer({ email: email ?? session['customer_email'] ?? 'buyer@example.com' })['id'];
    const customer = this.customer(customerId);
    const buyerEmail: string = email || session['customer_email'] || customer['email'] || 'buyer@example.com';
    const subscription = this.newSubscription(customerId, lineItems, subscriptionMetadata);
    const invoice = this.invoice(subscription, buyerEmail, 'subscription_create', true, (item) => this.fullPeriod(item));
    Object.assign(session, {
      status: 'complete', payment_status: 'paid', subscription: subscription['id'], customer: customerId, invoice: invoice['id'],
      customer_details: { address: customer['address'], business_name: null, email: buyerEmail, individual_name: null, name: customer['name'], phone: null, tax_exempt: 'none', tax_ids: [] },
    });
    this.emit('customer.subscription.created', subscription);
    this.emit('checkout.session.completed', session);
    this.emit('invoice.paid', invoice);
    return { session, subscription };
  }

  // ---- subscriptions ----

  subscription(id: string): StripeObject {
    const subscription = this.subscriptions.get(id);
    if (!subscription) throw missing('subscription', id);
    return subscription;
  }

  listSubscriptions(query: FormObject): StripeObject[] {
    const customer = str(query['customer']);
    const status = str(query['status']);
    return [...this.subscriptions.values()].filter(
      (subscription) =>
        (!customer || subscription['customer'] === customer) &&
        (status === 'all' || (status ? subscription['status'] === status : subscription['status'] !== 'canceled')),
    );
  }

  private newSubscription(customer: string, lineItems: LineItem[], metadata: Record<string, string>): StripeObject {
    const id = newId('sub');
    const start = this.now();
    const items = lineItems.map((item) => subscriptionItemObject(id, item, start, addInterval(start, item.price.interval), start));
    const subscription = subscriptionObject({ id, customer, created: start, items, metadata });
    this.subscriptions.set(id, subscription);
    return subscription;
  }

  private fullPeriod(item: StripeObject): InvoiceLine {
    return { item, amount: item['price'].unit_amount * item['quantity'], start: item['current_period_start'], end: item['current_period_end'], proration: false, description: `${item['quantity']} × ${item['price'].nickname}` };
  }

  private invoice(subscription: StripeObject, email: string | null, reason: string, paid: boolean, line: (item: StripeObject) => InvoiceLine | InvoiceLine[]): StripeObject {
    const lines = subscription['items'].data.flatMap(line);
    const invoice = invoiceObject({ subscription, customerEmail: email, billingReason: reason, created: this.now(), lines, paid });
    this.invoices.set(invoice['id'], invoice);
    subscription['latest_invoice'] = invoice['id'];
    return invoice;
  }

  private changed(subscription: StripeObject, before: StripeObject): void {
    const previous: StripeObject = {};
    for (const key of Object.keys(subscription)) if (JSON.stringify(before[key]) !== JSON.stringify(subscription[key])) previous[key] = before[key];
    this.emit('customer.subscription.updated', subscription, previous);
  }

  /** POST /v1/subscriptions/:id: items (new price), cancel_at_period_end, metadata, with proration_behavior. */
  updateSubscription(id: string, params: FormObject): StripeObject {
    const subscription = this.subscription(id);
    if (subscription['status'] === 'canceled') throw invalid('A canceled subscription can only update its cancellation_details and metadata.', 'id');
    const before = clone(subscription);
    const now = this.now();
    const prorations: InvoiceLine[] = [];
    for (const [index, entry] of list(params['items']).entries()) {
      const change = obj(entry);
      const item = subscription['items'].data.find((candidate: StripeObject) => candidate['id'] === str(change['id']));
      if (!item) throw invalid(`No such subscription item: '${str(change['id']) ?? ''}'`, `items[${index}][id]`, 'resource_missing');
      const newPrice = str(change['price']) ? this.price(str(change['price']), `items[${index}][price]`) : undefined;
      if (change['quantity'] !== undefined) item['quantity'] = Number(str(change['quantity']));
      if (!newPrice || newPrice.id === item['price'].id) continue;
      const oldItem = clone(item);
      // A new interval starts a new period now (Stripe resets the billing cycle anchor); else the rest of it is prorated.
      if (newPrice.interval !== oldItem['price'].recurring.interval) {
        item['current_period_start'] = now;
        item['current_period_end'] = addInterval(now, newPrice.interval);
      }
      item['price'] = { ...oldItem['price'], id: newPrice.id, unit_amount: newPrice.unit_amount, unit_amount_decimal: String(newPrice.unit_amount), nickname: newPrice.nickname, product: newPrice.product, recurring: { ...oldItem['price'].recurring, interval: newPrice.interval } };
      const span = Math.max(1, oldItem['current_period_end'] - oldItem['current_period_start']);
      const unused = Math.max(0, Math.min(1, (oldItem['current_period_end'] - now) / span));
      prorations.push(
        { item: oldItem, amount: -Math.round(oldItem['price'].unit_amount * oldItem['quantity'] * unused), start: now, end: oldItem['current_period_end'], proration: true, description: `Unused time on ${oldItem['price'].nickname}` },
        { item, amount: Math.round(newPrice.unit_amount * item['quantity'] * (item['current_period_start'] === now ? 1 : unused)), start: now, end: item['current_period_end'], proration: true, description: `Remaining time on ${newPrice.nickname}` },
      );
    }
    const cancel = bool(params['cancel_at_period_end']);
    if (cancel !== undefined) {
      subscription['cancel_at_period_end'] = cancel;
      subscription['cancel_at'] = cancel ? Math.max(...subscription['items'].data.map((item: StripeObject) => item['current_period_end'])) : null;
      subscription['canceled_at'] = cancel ? now : null;
      subscription['cancellation_details'] = { comment: null, feedback: null, reason: cancel ? 'cancellation_requested' : null };
    }
    if (params['metadata'] !== undefined) subscription['metadata'] = metadataOf(params['metadata'], subscription['metadata']);
    this.changed(subscription, before);
    if (prorations.length && (str(params['proration_behavior']) ?? 'create_prorations') === 'always_invoice') {
      const invoice = invoiceObject({ subscription, customerEmail: this.customers.get(subscription['customer'])?.['email'] ?? null, billingReason: 'subscription_update', created: now, lines: prorations, paid: true });
      this.invoices.set(invoice['id'], invoice);
      subscription['latest_invoice'] = invoice['id'];
      this.emit('invoice.paid', invoice);
    }
    return subscription;
  }

  /** DELETE /v1/subscriptions/:id: ends it now. */
  cancelSubscription(id: string): StripeObject {
    const subscription = this.subscription(id);
    if (subscription['status'] === 'canceled') throw invalid('This subscription is already canceled.', 'id');
    return this.end(subscription, 'cancellation_requested');
  }

  private end(subscription: StripeObject, reason: string): StripeObject {
    const now = this.now();
    Object.assign(subscription, { status: 'canceled', ended_at: now, canceled_at: subscription['canceled_at'] ?? now, cancellation_details: { comment: null, feedback: null, reason } });
    this.emit('customer.subscription.deleted', subscription);
    return subscription;
  }

  /** The next period is paid: invoice.paid (subscription_cycle), then customer.subscription.updated. */
  renew(id: string): { subscription: StripeObject; invoice: StripeObject } {
    const subscription = this.subscription(id);
    const before = clone(subscription);
    for (const item of subscription['items'].data) {
      item['current_period_start'] = item['current_period_end'];
      item['current_period_end'] = addInterval(item['current_period_start'], item['price'].recurring.interval);
    }
    subscription['status'] = 'active';
    const invoice = this.invoice(subscription, this.customers.get(subscription['customer'])?.['email'] ?? null, 'subscription_cycle', true, (item) => this.fullPeriod(item));
    this.emit('invoice.paid', invoice);
    this.changed(subscription, before);
    return { subscription, invoice };
  }

  /** The renewal's payment fails: the subscription is past_due; invoice.payment_failed, customer.subscription.updated. */
  failPayment(id: string): { subscription: StripeObject; invoice: StripeObject } {
    const subscription = this.subscription(id);
    const before = clone(subscription);
    subscription['status'] = 'past_due';
    const invoice = this.invoice(subscription, this.customers.get(subscription['customer'])?.['email'] ?? null, 'subscription_cycle', false, (item) => this.fullPeriod(item));
    this.emit('invoice.payment_failed', invoice);
    this.changed(subscription, before);
    return { subscription, invoice };
  }

  /** The period of a subscription set to cancel at its end is over: customer.subscription.deleted. */
  endPeriod(id: string): StripeObject {
    return this.end(this.subscription(id), 'cancellation_requested');
  }

  createPortalSession(params: FormObject): StripeObject {
    const customer = str(params['customer']) ?? '';
    this.customer(customer);
    const session = portalSessionObject(customer, str(params['return_url']) ?? null, (id) => `${this.origin()}/__standin/portal/${id}`, this.now());
    this.portalSessions.set(session['id'], session);
    return session;
  }
}
