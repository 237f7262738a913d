/**
 * Wiring at boot (boot.ts, every process): the licence keys are read and checked (a signing key that
 * does not match the public key stops the start with a ConfigError), the licence email's job kind is
 * registered, and the billing module's events are heard.
 */
import type { AppContext } from '../../context.ts';
import { licenceKeysOf } from './keys.ts';
import { registerLicenceMailJob } from './mail-job.ts';
import { applyLicenceSubscriptionChange, issuePurchasedLicence } from './service.ts';

export function connectLicences(ctx: AppContext): void {
  licenceKeysOf(ctx);
  registerLicenceMailJob(ctx);
  ctx.events.on('licence.purchased', (event) => issuePurchasedLicence(ctx, event));
  ctx.events.on('licence.subscription-changed', (event) => applyLicenceSubscriptionChange(ctx, event));
}
