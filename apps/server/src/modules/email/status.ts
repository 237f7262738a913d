/**
 * The message state machine. A message is 'queued', then 'sending' while it is handed to SMTP, then
 * 'accepted' once the server answered 250 (or 'queued' again for a retry, 'failed', 'hardBounce').
 * After acceptance, reports only move it up: accepted < delivered < opened < clicked. Bounces win
 * over every delivery state; a soft bounce is retried (back to 'sending', then 'accepted' again).
 */
import type { MessageStatus } from '@sheaf/shared';

/** Internal states; 'sending' is shown as 'queued' in reports (it is not in the shared list). */
export type MessageState = MessageStatus | 'sending';

/** How far a delivered message has come: a report may raise the rank, never lower it. */
const DELIVERY_RANK: Partial<Record<MessageState, number>> = { accepted: 1, delivered: 2, opened: 3, clicked: 4 };

/** The states a message is still being worked on in (the mailing is not done while any is left). */
export const PENDING_STATES: readonly MessageState[] = ['queued', 'sending'];

/** Whether a report of `next` about a message in state `current` changes its status. */
export function shouldMoveTo(current: MessageState, next: MessageState): boolean {
  if (current === next) return false;
  if (current === 'cancelled' || current === 'failed' || current === 'queued' || current === 'sending') {
    // Opens and clicks of a message not accepted yet cannot happen; reports of the old try of a
    // retried message come in as bounces, which the sending code records itself.
    return false;
  }
  if (current === 'hardBounce') return false;
  if (next === 'hardBounce' || next === 'softBounce') return true;
  if (current === 'softBounce') return false;
  const from = DELIVERY_RANK[current];
  const to = DELIVERY_RANK[next];
  return from !== undefined && to !== undefined && to > from;
}

/** The status as the report shows it. */
export function reportedStatus(state: string): MessageStatus {
  return state === 'sending' ? 'queued' : (state as MessageStatus);
}
