/**
 * What billing says to the events of other modules (called by boot): an account being deleted has its
 * subscriptions cancelled at once, without refund (docs/billing.md#deleting-the-account). If Stripe
 * cannot be told, the deletion is refused: the user must not be billed for an account that is gone.
 */
import { SheafError } from '@sheaf/shared';
import type { AppContext } from '../../context.ts';
import type { AccountDeleting } from '../auth/index.ts';
import { isLive } from './apply.ts';
import { findBillingRow } from './repository.ts';
import { isStripeNotFound } from '../../adapters/payments/stripe.ts';
import { callStripe, idempotencyKey } from './stripe-calls.ts';

/** Subscriptions that no longer bill. */
const ENDED = new Set(['canceled', 'incomplete_expired']);
/** The deletion waits on Stripe inside its transaction: not for long. */
const DELETION_TIMEOUT_MS = 10_000;

export function connectBilling(ctx: AppContext): void {
  ctx.events.on('account.deleting', async ({ tx, accountId }: AccountDeleting) => {
    const row = await findBillingRow(tx, accountId);
    if (!row?.stripe_customer_id) return;
    const stripe = ctx.stripe;
    if (!stripe) {
      if (row.stripe_subscription_id && isLive(row.subscription_status)) throw new SheafError('billing/not-configured');
      return;
    }
    const customer = row.stripe_customer_id;
    // A customer Stripe no longer has (deleted in its dashboard) bills nothing.
    const subscriptions = await callStripe(ctx, 'subscriptions.list', () =>
      stripe.subscriptions.list({ customer, status: 'all', limit: 100 }, { timeout: DELETION_TIMEOUT_MS }).catch((error: unknown) => {
        if (isStripeNotFound(error)) return { data: [] };
        throw error;
      }),
    );
    for (const subscription of subscriptions.data.filter((candidate) => !ENDED.has(candidate.status))) {
      const params = { prorate: false, invoice_now: false };
      await callStripe(ctx, 'subscriptions.cancel', () =>
        stripe.subscriptions.cancel(subscription.id, params, {
          idempotencyKey: idempotencyKey('delete-account', [accountId, subscription.id, params], { clientKey: undefined, kind: 'once' }),
          timeout: DELETION_TIMEOUT_MS,
        }),
      );
    }
  });
}
