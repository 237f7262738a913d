/**
 * The billing module's public surface (docs/billing.md): plans, the account's Stripe subscription, the
 * offline licence purchase, Stripe's webhook, and the events it announces (licence.purchased,
 * licence.subscription-changed) for the licences module.
 */
export { registerBillingRoutes } from './routes.ts';
export { registerStripeWebhook } from './webhook-routes.ts';
export { connectBilling } from './subscriptions.ts';
export type { LicencePurchased, LicenceSubscriptionChanged } from './events.ts';
