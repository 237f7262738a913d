/**
 * Starts the email side of the service (called by boot.ts): the mailing job kind (run by whichever
 * process runs jobs) and the bounce listener; mailings a previous process left behind are resumed.
 */
import type { AppContext } from '../../context.ts';
import type { InboundListener } from './inbound.ts';
import { enqueueMailingRun, mailingJob } from './mail-queue.ts';
import { runMailingJob } from './mailing-job.ts';
import { findStrandedMailings, nextRound } from './mailing-repository.ts';

export interface EmailService {
  /** The bounce listener's port (undefined when off or not started). */
  inboundPort: number | undefined;
  close(): Promise<void>;
}

const services = new WeakMap<AppContext, EmailService>();

export async function startEmail(ctx: AppContext): Promise<EmailService> {
  ctx.jobs.register(mailingJob, (payload, job) => runMailingJob(ctx, payload, job));
  await resumeStranded(ctx);
  ctx.jobs.wake();
  // The SMTP server module loads only when the bounce listener is on (INBOUND_SMTP_PORT not off).
  const inbound: InboundListener | undefined = ctx.config.INBOUND_SMTP_PORT === null ? undefined : await (await import('./inbound.ts')).startInboundListener(ctx);
  const service: EmailService = {
    inboundPort: inbound?.port,
    async close() {
      await inbound?.close();
    },
  };
  services.set(ctx, service);
  return service;
}

/** The running email service of a server (tests read the bounce listener's port from it). */
export function emailServiceOf(ctx: AppContext): EmailService | undefined {
  return services.get(ctx);
}

/** A mailing left queued or sending without a job to move it gets a new run (sending is idempotent). */
async function resumeStranded(ctx: AppContext): Promise<void> {
  for (const mailing of await findStrandedMailings(ctx.db)) {
    const payload = { mergeId: mailing.merge_id, ownerId: mailing.owner_id };
    await ctx.db.transaction(async (tx) => enqueueMailingRun(ctx, tx, payload, await nextRound(tx, payload.ownerId, payload.mergeId)));
    ctx.log.warn({ mergeId: mailing.merge_id }, 'mailing without a job resumed');
  }
}
