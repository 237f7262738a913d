/** Events the billing module announces (events/bus.ts); the licences module subscribes. */
import type { Queryable } from '../../adapters/db/types.ts';
import type { AfterCommit } from '../../events/bus.ts';

/**
 * An offline licence purchase was paid (checkout.session.completed of an offline session, applied once
 * per Stripe event), inside the webhook's transaction: the subscriber issues the licence in `tx` and
 * queues its email with `afterCommit`.
 */
export interface LicencePurchased {
  tx: Queryable;
  afterCommit: AfterCommit;
  /** The signed-in buyer, or null for a visitor (the licence goes to `email`). */
  userId: string | null;
  email: string;
  sessionId: string;
  subscriptionId: string;
  /** Licences bought: the machine limit. */
  quantity: number;
  /** The paid period's end: the licence's expiry. */
  periodEnd: Date;
  language: string;
}

/** An offline licence's subscription was renewed or changed (invoice paid, quantity changed, cancelled). */
export interface LicenceSubscriptionChanged {
  tx: Queryable;
  subscriptionId: string;
  quantity: number;
  periodEnd: Date;
}

declare module '../../events/bus.ts' {
  interface SheafEvents {
    'licence.purchased': LicencePurchased;
    'licence.subscription-changed': LicenceSubscriptionChanged;
  }
}
