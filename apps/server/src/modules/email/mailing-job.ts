/**
 * One run of a mailing (the 'mailing' job): create the message rows on the first run, put messages
 * a dead run left in flight back in the queue, send what is due, then complete the mailing or queue
 * the next run for the next retry. See ARCHITECTURE.md "Mailing" for the whole picture.
 */
import { SheafError } from '@sheaf/shared';
import type { AppContext } from '../../context.ts';
import type { JobContext } from '../../jobs/types.ts';
import { isShutdown } from '../../jobs/signals.ts';
import { blobLayout } from '../../adapters/blobs/layout.ts';
import { findMerge } from '../merges/index.ts';
import { createComposer, loadFrozenAttachments } from './compose.ts';
import { MAILING_JOB_ATTEMPTS, type MailingJobPayload } from './mail-queue.ts';
import { finishCancelled, finishWithError, settleMailing } from './mailing-end.ts';
import { prepareMessages } from './mailing-prepare.ts';
import { ACTIVE_MAILING, findMailing, markSending } from './mailing-repository.ts';
import { sendDueMessages } from './mailing-send.ts';
import { requeueSending } from './message-repository.ts';
import { resolveSenderDelivery } from './sender-delivery.ts';
import type { MailingSnapshot } from './snapshot.ts';

export async function runMailingJob(ctx: AppContext, payload: MailingJobPayload, job: JobContext): Promise<void> {
  const { mergeId, ownerId } = payload;
  const mailing = await findMailing(ctx.db, ownerId, mergeId);
  // Deleted with its merge, or ended (a run of a chain that was cancelled meanwhile).
  if (!mailing || !ACTIVE_MAILING.includes(mailing.status)) return;
  if (mailing.cancel_requested) return finishCancelled(ctx, payload);
  const merge = await findMerge(ctx.db, ownerId, mergeId);
  const snapshot = (merge?.request as { email?: MailingSnapshot | null } | undefined)?.email;
  if (!merge || !snapshot || !merge.file_name || merge.files_deleted) return finishWithError(ctx, payload, 'generic/something-wrong');

  try {
    if (!mailing.prepared) await prepareMessages(ctx, mailing, job.signal);
    if (!(await markSending(ctx.db, ownerId, mergeId))) return; // cancelled meanwhile
    // This run is the mailing's only one: whatever is still 'sending' was in flight when a run died.
    const resumed = await requeueSending(ctx.db, mergeId);
    if (resumed) ctx.log.warn({ mergeId, messages: resumed }, 'mailing resumed: messages in flight at a crash are sent again');

    let delivery;
    try {
      delivery = await resolveSenderDelivery(ctx, ownerId, mailing.sender_id);
    } catch (error) {
      // Gone, unverified, no longer allowed by the plan, or a host now forbidden: the mailing stops.
      // A host that does not resolve right now (sender/smtp-failed) is tried again by the runner.
      if (error instanceof SheafError && error.code !== 'sender/smtp-failed') return finishWithError(ctx, payload, error.code);
      throw new Error(error instanceof Error ? error.message : String(error)); // not a SheafError: the runner retries it
    }
    const composer = createComposer(snapshot, delivery, {
      mailDomain: ctx.config.MAIL_DOMAIN,
      trackingBaseUrl: ctx.config.PUBLIC_URL,
      trackingKey: ctx.config.jwtKey,
      attachments: await loadFrozenAttachments(ctx, mergeId, snapshot),
    });
    const zip = await ctx.blobs.openReader(blobLayout.merge.result(mergeId, merge.file_name));
    try {
      await sendDueMessages({
        db: ctx.db,
        mergeId,
        delivery,
        composer,
        zip,
        concurrency: ctx.config.MAIL_CONCURRENCY,
        retryBaseMs: ctx.config.MAIL_RETRY_BASE_MS,
        mailDomain: ctx.config.MAIL_DOMAIN,
        outboxDir: ctx.config.OUTBOX_DIR,
        signal: job.signal,
      });
    } finally {
      await zip.close();
    }
    job.signal.throwIfAborted();
    await settleMailing(ctx, payload);
  } catch (error) {
    if (isShutdown(job.signal)) throw error; // handed back: the next start resumes it
    if (job.signal.aborted) return finishCancelled(ctx, payload);
    ctx.log.error({ err: error, mergeId, attempt: job.attempt }, 'mailing run failed');
    // A catalogue error does not improve by trying again (the runner would not retry it either).
    if (error instanceof SheafError) return finishWithError(ctx, payload, error.code);
    if (job.attempt >= MAILING_JOB_ATTEMPTS) return finishWithError(ctx, payload, 'generic/something-wrong');
    throw error; // the runner tries the run again with backoff (messages in flight are sent again)
  }
}
