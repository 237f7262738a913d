/**
 * The email that delivers a licence key, as a job queued in the purchase's transaction: it runs once
 * the licence is committed, and a mail relay that fails is tried again (docs/licences.md#purchase-and-the-licence-email).
 * The payload names the licence, never its key.
 */
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { decryptSecret } from '../../crypto/secrets.ts';
import { defineJob } from '../../jobs/registry.ts';
import { licenceMail } from './mail-texts.ts';
import { findLicenceById } from './repository.ts';

export interface LicenceMailPayload {
  licenceId: string;
  language: string;
}

export const licenceMailJob = defineJob<LicenceMailPayload>({
  name: 'licence-mail',
  // Small and quick, like the attempts sweep: never behind a long merge or mailing.
  queue: 'maintenance',
  payload: z.object({ licenceId: z.string().min(1).max(100), language: z.string().max(35) }),
  maxAttempts: 5,
});

export async function sendLicenceMail(ctx: AppContext, { licenceId, language }: LicenceMailPayload): Promise<void> {
  const licence = await findLicenceById(ctx.db, licenceId);
  if (!licence) return; // its purchase was undone since
  const key = decryptSecret(ctx.config.encryptionKey, licence.key_encrypted);
  const mail = licenceMail(language, { key, machineLimit: licence.machine_limit, expiresAt: licence.expires_at });
  await ctx.mailer.send({ to: licence.email, ...mail });
  ctx.log.info({ licenceId }, 'licence key emailed');
}

export function registerLicenceMailJob(ctx: AppContext): void {
  ctx.jobs.register(licenceMailJob, (payload) => sendLicenceMail(ctx, payload));
}
