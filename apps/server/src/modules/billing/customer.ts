/** The account's Stripe customer: made once, on the first checkout, address or portal request. */
import type { AppContext } from '../../context.ts';
import type { StripeClient } from '../../adapters/payments/stripe.ts';
import { findBillingRow, linkCustomer, type BillingRow } from './repository.ts';
import { callStripe, idempotencyKey } from './stripe-calls.ts';

export const personName = (row: Pick<BillingRow, 'first_name' | 'last_name'>): string => `${row.first_name} ${row.last_name}`.trim();

/** The customer id of the account, creating the customer (metadata uid) when it has none. */
export async function ensureCustomer(ctx: AppContext, stripe: StripeClient, row: BillingRow): Promise<string> {
  if (row.stripe_customer_id) return row.stripe_customer_id;
  const params = { email: row.email, name: personName(row), metadata: { uid: row.id }, preferred_locales: [row.language] };
  // One customer per account: the same key for every attempt (Stripe keeps keys for 24 hours), so a
  // customer made by a request whose answer was lost is found again rather than made twice.
  const customer = await callStripe(ctx, 'customers.create', () =>
    stripe.customers.create(params, { idempotencyKey: idempotencyKey('customer', [row.id, params], { clientKey: undefined, kind: 'once' }) }),
  );
  await linkCustomer(ctx.db, row.id, customer.id);
  // Another request may have linked one first: theirs is the account's.
  return (await findBillingRow(ctx.db, row.id))?.stripe_customer_id ?? customer.id;
}
