/**
 * Delivery reports that came back to a message's VERP address: the message's status moves (bounces
 * win over delivery states), and a soft bounce schedules a new try (reopening a completed mailing).
 */
import type { AppContext } from '../../context.ts';
import type { DeliveryReport } from './dsn.ts';
import { enqueueMailingRun, wakeMailings } from './mail-queue.ts';
import { lockMailing, reopenMailing } from './mailing-repository.ts';
import { MAX_SEND_ATTEMPTS, retryDelay } from './mailing-send.ts';
import { findMessageById } from './message-repository.ts';
import { reportStatus } from './tracking.ts';

/** bounce+<id>@domain -> id (ids are 24 lower-case letters and digits). */
export function messageIdOfReturnPath(address: string): string | undefined {
  return /^bounce\+([a-z0-9]{24})@[a-z0-9.-]+$/i.exec(address.trim())?.[1]?.toLowerCase();
}

export async function recordDeliveryReport(ctx: AppContext, messageId: string, report: DeliveryReport): Promise<boolean> {
  const message = await findMessageById(ctx.db, messageId);
  if (!message) return false;
  const retry = report.status === 'softBounce' && message.attempts < MAX_SEND_ATTEMPTS;
  const retryAt = retry ? new Date(Date.now() + retryDelay(ctx.config.MAIL_RETRY_BASE_MS, message.attempts)) : undefined;
  const detail = retry ? `${report.detail} (will try again)` : report.detail;
  const moved = await reportStatus(ctx, messageId, report.status, detail, retryAt);
  if (moved && retryAt) await scheduleRetry(ctx, message.owner_id, message.merge_id, retryAt);
  return moved;
}

/** A completed mailing gets a new run for the retry; a mailing still sending picks it up itself when it settles. */
async function scheduleRetry(ctx: AppContext, ownerId: string, mergeId: string, retryAt: Date): Promise<void> {
  const queued = await ctx.db.transaction(async (tx) => {
    const mailing = await lockMailing(tx, ownerId, mergeId);
    if (mailing?.status !== 'completed') return false;
    const round = await reopenMailing(tx, ownerId, mergeId);
    if (round === undefined) return false;
    await enqueueMailingRun(ctx, tx, { mergeId, ownerId }, round, retryAt);
    return true;
  });
  if (queued) wakeMailings(ctx);
}
