/**
 * Ends of a mailing: completed once nothing is left to send (else the next run is scheduled for the
 * next retry), cancelled, or stopped by an error; then the owner's summary (the sender's
 * notifications: 'all', or 'failed' when something failed or bounced).
 */
import { formatErrorMessage, type ErrorCode } from '@sheaf/shared';
import type { AppContext } from '../../context.ts';
import { findUserById } from '../users/index.ts';
import { enqueueMailingRun, wakeMailings, type MailingJobPayload } from './mail-queue.ts';
import { endMailing, findMailingWithName, lockMailing, nextRound, ACTIVE_MAILING } from './mailing-repository.ts';
import { cancelWaitingMessages, countByStatus, pendingWork } from './message-repository.ts';
import { MAX_SEND_ATTEMPTS } from './mailing-send.ts';
import { summaryMail } from './notify-texts.ts';
import { resolveSenderDelivery } from './sender-delivery.ts';

/** After a run: complete the mailing, or queue the run that sends what is due later. Returns whether it ended. */
export async function settleMailing(ctx: AppContext, payload: MailingJobPayload): Promise<boolean> {
  const ended = await ctx.db.transaction(async (tx) => {
    const mailing = await lockMailing(tx, payload.ownerId, payload.mergeId);
    if (!mailing || !ACTIVE_MAILING.includes(mailing.status)) return false;
    const { pending, nextDue } = await pendingWork(tx, payload.mergeId, MAX_SEND_ATTEMPTS);
    if (pending === 0) return endMailing(tx, payload.ownerId, payload.mergeId, 'completed');
    const round = await nextRound(tx, payload.ownerId, payload.mergeId);
    await enqueueMailingRun(ctx, tx, payload, round, nextDue ?? undefined);
    return false;
  });
  if (ended) await notifyOwner(ctx, payload, 'completed');
  else wakeMailings(ctx);
  return ended;
}

/** Waiting messages become cancelled and the mailing ends as cancelled (idempotent). */
export async function finishCancelled(ctx: AppContext, payload: MailingJobPayload): Promise<void> {
  const ended = await ctx.db.transaction(async (tx) => {
    await cancelWaitingMessages(tx, payload.ownerId, payload.mergeId);
    return endMailing(tx, payload.ownerId, payload.mergeId, 'cancelled');
  });
  if (ended) await notifyOwner(ctx, payload, 'cancelled');
}

export async function finishWithError(ctx: AppContext, payload: MailingJobPayload, code: ErrorCode): Promise<void> {
  const ended = await ctx.db.transaction(async (tx) => {
    await cancelWaitingMessages(tx, payload.ownerId, payload.mergeId);
    return endMailing(tx, payload.ownerId, payload.mergeId, 'error', { code, message: formatErrorMessage(code) });
  });
  if (ended) await notifyOwner(ctx, payload, 'error');
}

async function notifyOwner(ctx: AppContext, payload: MailingJobPayload, outcome: 'completed' | 'cancelled' | 'error'): Promise<void> {
  try {
    const [owner, mailing, counts] = await Promise.all([
      findUserById(ctx.db, payload.ownerId),
      findMailingWithName(ctx.db, payload.ownerId, payload.mergeId),
      countByStatus(ctx.db, payload.mergeId),
    ]);
    if (!owner || !mailing) return;
    // A sender deleted meanwhile: its choice is gone, so the default ('failed') applies.
    const delivery = await resolveSenderDelivery(ctx, payload.ownerId, mailing.sender_id).catch(() => undefined);
    const notifications = delivery?.notifications ?? 'failed';
    const n = (status: string) => counts[status] ?? 0;
    const failed = n('failed');
    const bounced = n('hardBounce') + n('softBounce');
    if (notifications === 'failed' && failed + bounced === 0 && outcome !== 'error') return;
    const summary = {
      name: mailing.name,
      outcome,
      total: Object.values(counts).reduce((sum, value) => sum + value, 0),
      sent: n('accepted') + n('delivered') + n('opened') + n('clicked'),
      failed,
      bounced,
      cancelled: n('cancelled'),
      reportUrl: `${ctx.config.PUBLIC_URL}/wizard/${mailing.template_id}`,
    };
    await ctx.mailer.send({ to: delivery?.ownerEmail ?? owner.email, ...summaryMail(owner.language, summary) });
  } catch (error) {
    ctx.log.warn({ err: error, mergeId: payload.mergeId }, 'mailing summary could not be sent');
  }
}
