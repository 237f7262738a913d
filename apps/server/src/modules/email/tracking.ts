/**
 * Opens and clicks reported by the tracking URLs: checked against their signature, then recorded as
 * a status rise (accepted < delivered < opened < clicked; never over a bounce) with an event.
 */
import type { AppContext } from '../../context.ts';
import { findMessageById, recordReport } from './message-repository.ts';
import { shouldMoveTo, type MessageState } from './status.ts';
import { isGenuineClick, isGenuineOpen, isRedirectTarget } from './tracking-links.ts';

const MESSAGE_ID = /^[a-z0-9]{24}$/;
const STATES: readonly MessageState[] = ['queued', 'sending', 'accepted', 'delivered', 'opened', 'clicked', 'softBounce', 'hardBounce', 'failed', 'cancelled'];

/** Applies a report to a message when the state machine allows it (see status.ts). */
export async function reportStatus(ctx: AppContext, messageId: string, status: MessageState, detail: string | null, retryAt?: Date): Promise<boolean> {
  const allowedFrom = STATES.filter((state) => shouldMoveTo(state, status));
  const moved = await recordReport(ctx.db, messageId, { status, detail, allowedFrom, retryAt });
  return moved !== undefined;
}

export async function recordOpen(ctx: AppContext, messageId: string, signature: string): Promise<boolean> {
  if (!MESSAGE_ID.test(messageId) || !isGenuineOpen(ctx.config.jwtKey, messageId, signature)) return false;
  if (!(await findMessageById(ctx.db, messageId))) return false;
  await reportStatus(ctx, messageId, 'opened', null);
  return true;
}

/** The target of a genuine click (recorded), or null for a forged or foreign link. */
export async function recordClick(ctx: AppContext, messageId: string, signature: string, target: string): Promise<string | null> {
  if (!MESSAGE_ID.test(messageId) || !isRedirectTarget(target) || !isGenuineClick(ctx.config.jwtKey, messageId, target, signature)) return null;
  if (!(await findMessageById(ctx.db, messageId))) return null;
  await reportStatus(ctx, messageId, 'clicked', target.slice(0, 500));
  return target;
}
