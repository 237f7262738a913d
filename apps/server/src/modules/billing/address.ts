/**
 * PUT /billing/address (docs/billing.md#billing-address): the EU billing address and VAT id, kept on the
 * Stripe customer (address, name, the VAT id as its eu_vat tax id) and in the account for the dialog.
 * The fields were checked by the route's schema; the VAT id is Stripe's to accept.
 */
import { SheafFieldErrors, type BillingAddress, type BillingStatus } from '@sheaf/shared';
import type { AppContext } from '../../context.ts';
import { stripeErrorFacts } from '../../adapters/payments/stripe.ts';
import { accountFor, type Principal } from '../../access/index.ts';
import { ensureCustomer, personName } from './customer.ts';
import { saveBillingAddress } from './repository.ts';
import { billingStatus, requireBillingRow } from './service.ts';
import { callStripe, idempotencyKey, requireStripe, stripeFailure } from './stripe-calls.ts';

const VAT_TYPE = 'eu_vat';

/** Stripe refused the tax id's value (its format for the type). */
const isVatRefusal = (error: unknown): boolean => {
  const facts = stripeErrorFacts(error);
  return facts?.statusCode === 400 && (facts.code === 'tax_id_invalid' || facts.param === 'value');
};

export async function updateBillingAddress(ctx: AppContext, principal: Principal, input: BillingAddress, clientKey: string | undefined): Promise<BillingStatus> {
  const uid = accountFor(principal, 'billing');
  const stripe = requireStripe(ctx);
  const row = await requireBillingRow(ctx, uid);
  const customer = await ensureCustomer(ctx, stripe, row);
  const address: BillingAddress = { ...input, vatId: input.vatId.replace(/[\s.-]/g, '').toUpperCase() };
  const key = (purpose: string, params: unknown) => idempotencyKey(purpose, [uid, customer, params], { clientKey, kind: 'perRequest' });

  // Invoices show the organization when there is one, else the person.
  const update = {
    name: address.organization || personName(row),
    business_name: address.organization,
    address: { line1: address.line1, line2: address.line2, postal_code: address.zip, city: address.city, country: address.country },
    metadata: { organization: address.organization },
  };
  await callStripe(ctx, 'customers.update', () => stripe.customers.update(customer, update, { idempotencyKey: key('address', update) }));

  // The new VAT id first, the old ones after: a refused id leaves the one the customer had.
  const existing = (await callStripe(ctx, 'customers.listTaxIds', () => stripe.customers.listTaxIds(customer, { limit: 100 }))).data.filter(
    (taxId) => taxId.type === VAT_TYPE,
  );
  if (address.vatId && !existing.some((taxId) => taxId.value === address.vatId)) {
    const params = { type: VAT_TYPE, value: address.vatId } as const;
    try {
      await stripe.customers.createTaxId(customer, params, { idempotencyKey: key('tax-id', params) });
    } catch (error) {
      if (isVatRefusal(error)) throw new SheafFieldErrors({ vatId: 'billing/vat-invalid' });
      throw stripeFailure(ctx, 'customers.createTaxId', error);
    }
  }
  for (const old of existing.filter((taxId) => taxId.value !== address.vatId)) {
    await callStripe(ctx, 'customers.deleteTaxId', () => stripe.customers.deleteTaxId(customer, old.id));
  }
  await saveBillingAddress(ctx.db, uid, address);
  return billingStatus(ctx, principal);
}
