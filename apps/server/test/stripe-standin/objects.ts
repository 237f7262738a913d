/**
 * Stripe-shaped objects of the stand-in (field names as in node_modules/stripe/esm/resources/*.d.ts of
 * API version 2026-10-28): customers, tax ids, prices, checkout sessions, subscriptions (the billing
 * period on their items), invoices (the subscription under parent.subscription_details), events.
 */
import { randomBytes } from 'node:crypto';
import { OFFLINE_PRICE_READINGS, planPrice, type BillingPlan } from '@sheaf/shared';
import { PRICE_KEYS, type PriceKey } from '../../src/config-billing.ts';

export const API_VERSION = '2026-10-28.endive';

/** Objects as JSON: the stand-in reads and writes their fields freely. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type StripeObject = Record<string, any>;

export const newId = (prefix: string): string => `${prefix}_${randomBytes(14).toString('base64url').replace(/[-_]/g, 'x')}`;
export const clone = <T>(value: T): T => structuredClone(value);

export type Interval = 'month' | 'year';

export interface StandinPrice {
  id: string;
  /** Cents. */
  unit_amount: number;
  interval: Interval;
  product: string;
  nickname: string;
}

/** The catalogue's prices under the configured price ids (the default reading of the offline price). */
export function catalogPrices(priceIds: Readonly<Record<PriceKey, string>>): StandinPrice[] {
  return PRICE_KEYS.map((key) => {
    const [name, cycle] = key.split('.') as [string, Interval];
    const additional = OFFLINE_PRICE_READINGS.perLicence.additionalLicence;
    const price = name === 'OfflineAdditional' ? { ...additional, yearly: 12 * additional.yearlyMonthly } : planPrice(name as BillingPlan)!;
    const dollars = cycle === 'month' ? price.monthly : price.yearly;
    return { id: priceIds[key], unit_amount: dollars * 100, interval: cycle, product: `prod_sheaf_${name.toLowerCase()}`, nickname: `Sheaf ${name} (${cycle}ly)` };
  });
}

export function priceObject(price: StandinPrice, created: number): StripeObject {
  return {
    id: price.id, object: 'price', active: true, billing_scheme: 'per_unit', created, currency: 'usd', livemode: false, lookup_key: null,
    metadata: {}, nickname: price.nickname, product: price.product,
    recurring: { interval: price.interval, interval_count: 1, meter: null, usage_type: 'licensed' },
    tax_behavior: 'exclusive', type: 'recurring', unit_amount: price.unit_amount, unit_amount_decimal: String(price.unit_amount),
  };
}

/** Seconds plus one interval, by the calendar (Stripe's billing periods). */
export function addInterval(seconds: number, interval: Interval): number {
  const date = new Date(seconds * 1000);
  if (interval === 'month') date.setUTCMonth(date.getUTCMonth() + 1);
  else date.setUTCFullYear(date.getUTCFullYear() + 1);
  return Math.floor(date.getTime() / 1000);
}

export function customerObject(id: string, created: number): StripeObject {
  return {
    id, object: 'customer', address: null, balance: 0, business_name: null, created, currency: null, default_source: null, delinquent: false,
    description: null, email: null, individual_name: null, invoice_prefix: id.slice(4, 12).toUpperCase(),
    invoice_settings: { custom_fields: null, default_payment_method: null, footer: null, rendering_options: null },
    livemode: false, metadata: {}, name: null, next_invoice_sequence: 1, phone: null, preferred_locales: [], shipping: null,
    tax_exempt: 'none', test_clock: null,
  };
}

export function taxIdObject(customer: string, type: string, value: string, created: number): StripeObject {
  return {
    id: newId('txi'), object: 'tax_id', country: value.slice(0, 2), created, customer, customer_account: null, livemode: false,
    owner: { customer, type: 'customer' }, type, value, verification: { status: 'pending', verified_address: null, verified_name: null },
  };
}

export interface LineItem {
  price: StandinPrice;
  quantity: number;
}

export function sessionObject(fields: {
  id: string; created: number; mode: string; uiMode: string; lineItems: LineItem[]; customer: string | null; customerEmail: string | null;
  clientReferenceId: string | null; metadata: Record<string, string>; successUrl: string | null; cancelUrl: string | null;
  returnUrl: string | null; url: string | null; clientSecret: string | null;
}): StripeObject {
  const total = fields.lineItems.reduce((sum, item) => sum + item.price.unit_amount * item.quantity, 0);
  return {
    id: fields.id, object: 'checkout.session', adaptive_pricing: null, after_expiration: null, allow_promotion_codes: null,
    amount_subtotal: total, amount_total: total, automatic_tax: { enabled: false, liability: null, provider: null, status: null },
    billing_address_collection: null, cancel_url: fields.cancelUrl, client_reference_id: fields.clientReferenceId,
    client_secret: fields.clientSecret, collected_information: null, consent: null, consent_collection: null, created: fields.created,
    currency: 'usd', currency_conversion: null, custom_fields: [],
    custom_text: { after_submit: null, shipping_address: null, submit: null, terms_of_service_acceptance: null },
    customer: fields.customer, customer_account: null, customer_creation: fields.customer ? null : 'always', customer_details: null,
    customer_email: fields.customerEmail, discounts: [], expires_at: fields.created + 24 * 3600, invoice: null, invoice_creation: null,
    livemode: false, locale: null, metadata: fields.metadata, mode: fields.mode, origin_context: null, payment_intent: null,
    payment_link: null, payment_method_collection: 'always', payment_method_types: ['card'], payment_status: 'unpaid',
    recovered_from: null, ...(fields.returnUrl ? { return_url: fields.returnUrl, redirect_on_completion: 'always' } : {}),
    saved_payment_method_options: null, setup_intent: null, shipping_address_collection: null, shipping_cost: null, shipping_options: [],
    status: 'open', submit_type: null, subscription: null, success_url: fields.successUrl,
    total_details: { amount_discount: 0, amount_shipping: 0, amount_tax: 0 }, ui_mode: fields.uiMode, url: fields.url, wallet_options: null,
  };
}

export function subscriptionItemObject(subscription: string, item: LineItem, start: number, end: number, created: number): StripeObject {
  return {
    id: newId('si'), object: 'subscription_item', billing_thresholds: null, created, current_period_end: end, current_period_start: start,
    discounts: [], metadata: {}, price: priceObject(item.price, created), quantity: item.quantity, subscription, tax_rates: [],
  };
}

export function subscriptionObject(fields: { id: string; customer: string; created: number; items: StripeObject[]; metadata: Record<string, string> }): StripeObject {
  return {
    id: fields.id, object: 'subscription', application: null, application_fee_percent: null,
    automatic_tax: { disabled_reason: null, enabled: false, liability: null }, billing_cycle_anchor: fields.created,
    billing_cycle_anchor_config: null, billing_mode: { flexible: null, type: 'flexible', updated_at: fields.created }, billing_thresholds: null,
    cancel_at: null, cancel_at_period_end: false, canceled_at: null, cancellation_details: { comment: null, feedback: null, reason: null },
    collection_method: 'charge_automatically', created: fields.created, currency: 'usd', customer: fields.customer, customer_account: null,
    days_until_due: null, default_payment_method: newId('pm'), default_source: null, description: null, discounts: [], ended_at: null,
    invoice_settings: { account_tax_ids: null, issuer: { type: 'self' } },
    items: { object: 'list', data: fields.items, has_more: false, total_count: fields.items.length, url: `/v1/subscription_items?subscription=${fields.id}` },
    latest_invoice: null, livemode: false, metadata: fields.metadata, next_pending_invoice_item_invoice: null, on_behalf_of: null,
    pause_collection: null, payment_settings: null, pending_invoice_item_interval: null, pending_setup_intent: null, pending_update: null,
    schedule: null, start_date: fields.created, status: 'active', test_clock: null, transfer_data: null, trial_end: null, trial_settings: null,
    trial_start: null,
  };
}

export interface InvoiceLine {
  item: StripeObject;
  amount: number;
  start: number;
  end: number;
  proration: boolean;
  description: string;
}

export function invoiceObject(fields: {
  subscription: StripeObject; customerEmail: string | null; billingReason: string; created: number; lines: InvoiceLine[]; paid: boolean;
}): StripeObject {
  const id = newId('in');
  const total = fields.lines.reduce((sum, line) => sum + line.amount, 0);
  const sub = fields.subscription;
  return {
    id, object: 'invoice', account_country: 'US', amount_due: Math.max(0, total), amount_overpaid: 0, amount_paid: fields.paid ? Math.max(0, total) : 0,
    amount_remaining: fields.paid ? 0 : Math.max(0, total), attempt_count: 1, attempted: true, auto_advance: false,
    billing_reason: fields.billingReason, collection_method: 'charge_automatically', created: fields.created, currency: 'usd',
    customer: sub['customer'], customer_email: fields.customerEmail, description: null, hosted_invoice_url: null,
    lines: {
      object: 'list', has_more: false, total_count: fields.lines.length, url: `/v1/invoices/${id}/lines`,
      data: fields.lines.map((line) => ({
        id: newId('il'), object: 'line_item', amount: line.amount, currency: 'usd', description: line.description, discountable: true,
        discounts: [], invoice: id, livemode: false, metadata: {},
        parent: {
          type: 'subscription_item_details', invoice_item_details: null,
          subscription_item_details: { invoice_item: null, proration: line.proration, proration_details: { credited_items: null }, subscription: sub['id'], subscription_item: line.item['id'] },
        },
        period: { start: line.start, end: line.end },
        pricing: { price_details: { price: line.item['price'].id, product: line.item['price'].product }, type: 'price_details', unit_amount_decimal: String(line.item['price'].unit_amount) },
        quantity: line.item['quantity'],
      })),
    },
    livemode: false, metadata: {},
    parent: { type: 'subscription_details', quote_details: null, subscription_details: { metadata: sub['metadata'], subscription: sub['id'] } },
    period_end: fields.created, period_start: fields.created, status: fields.paid ? 'paid' : 'open',
    status_transitions: { finalized_at: fields.created, marked_uncollectible_at: null, paid_at: fields.paid ? fields.created : null, voided_at: null },
    subtotal: total, total,
  };
}

export function eventObject(type: string, object: StripeObject, created: number, previous?: StripeObject): StripeObject {
  return {
    id: newId('evt'), object: 'event', api_version: API_VERSION, created,
    data: { object: clone(object), ...(previous ? { previous_attributes: clone(previous) } : {}) },
    livemode: false, pending_webhooks: 1, request: { id: null, idempotency_key: null }, type,
  };
}

export function portalSessionObject(customer: string, returnUrl: string | null, url: (id: string) => string, created: number): StripeObject {
  const id = newId('bps');
  return {
    id, object: 'billing_portal.session', configuration: 'bpc_standin', created, customer, customer_account: null, flow: null, livemode: false,
    locale: null, on_behalf_of: null, return_url: returnUrl, url: url(id),
  };
}
