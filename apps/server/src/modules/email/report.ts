/** The email reports: one mailing (wizard), the last days of an account (email-report screen), one message's history. */
import {
  EMAIL_REPORT_DAYS, SheafError, formatErrorMessage, type EmailEvent, type EmailEventCounts, type EmailReport, type MailingReport,
} from '@sheaf/shared';
import type { AppContext } from '../../context.ts';
import { findMerge } from '../merges/index.ts';
import { mailingStatusesOf, snapshotOf } from './mailing.ts';
import { findMailing } from './mailing-repository.ts';
import { listMailingMessages, listRecentMessages, messageHistory, type ReportRow } from './report-repository.ts';
import { reportedStatus } from './status.ts';
import { accountFor, can, type Principal } from '../../access/index.ts';

function toEvent(row: ReportRow, withOwner: boolean): EmailEvent {
  return {
    messageId: row.id,
    mergeId: row.merge_id,
    templateId: row.template_id,
    rowNumber: row.row_number,
    recipient: row.recipient,
    subject: row.subject,
    status: reportedStatus(row.status),
    date: new Date(row.updated_at).toISOString(),
    detail: row.last_reply,
    ...(withOwner && row.owner_email ? { owner: row.owner_email } : {}),
  };
}

export function countEvents(events: readonly EmailEvent[]): EmailEventCounts {
  const counts: EmailEventCounts = { total: events.length, queued: 0, accepted: 0, delivery: 0, opened: 0, clicked: 0, softBounce: 0, hardBounce: 0, failed: 0, cancelled: 0 };
  for (const event of events) {
    if (event.status === 'delivered') counts.delivery += 1;
    else counts[event.status] += 1;
  }
  return counts;
}

export async function mailingReport(ctx: AppContext, principal: Principal, templateId: string, mergeId: string): Promise<MailingReport> {
  const ownerId = accountFor(principal, 'merges:read');
  const merge = await findMerge(ctx.db, ownerId, mergeId);
  if (!merge || merge.template_id !== templateId) throw new SheafError('merge/not-found');
  if (!snapshotOf(merge)) throw new SheafError('email/not-sent');
  const [mailing, statuses, rows] = await Promise.all([
    findMailing(ctx.db, ownerId, mergeId),
    mailingStatusesOf(ctx, ownerId, [merge]),
    listMailingMessages(ctx.db, ownerId, mergeId),
  ]);
  const events = rows.map((row) => toEvent(row, false));
  const mailingStatus = statuses.get(mergeId) ?? null;
  const error = mailing?.error ?? (merge.status === 'error' && merge.error ? { code: merge.error.code, message: merge.error.message } : null);
  return {
    events,
    eventCounts: countEvents(events),
    service: 'smtp',
    isCancelled: mailingStatus === 'cancelled' || mailing?.cancel_requested === true,
    mailingStatus,
    error: error ? { code: error.code, message: error.message || formatErrorMessage('generic/something-wrong') } : null,
  };
}

export async function emailReport(ctx: AppContext, principal: Principal, scope: 'me' | 'all', days: number): Promise<EmailReport> {
  const uid = accountFor(principal, 'merges:read');
  // scope=all is the admin's view of everyone in the account (their child users too); anyone else,
  // and scope=me, gets the messages they sent themselves.
  const everyone = scope === 'all' && can(principal, 'users:manage');
  const since = new Date(Date.now() - Math.min(days, EMAIL_REPORT_DAYS) * 86_400_000);
  const events = (await listRecentMessages(ctx.db, uid, everyone ? null : principal.actorId, since)).map((row) => toEvent(row, scope === 'all'));
  return { events, eventCounts: countEvents(events), since: since.toISOString() };
}

export async function messageEvents(ctx: AppContext, principal: Principal, messageId: string) {
  const uid = accountFor(principal, 'merges:read');
  // The admin may open any message of the account; a child user only their own.
  const history = await messageHistory(ctx.db, uid, can(principal, 'users:manage') ? null : principal.actorId, messageId);
  if (!history) throw new SheafError('email/message-not-found');
  return {
    events: history.map((row) => ({ messageId: row.message_id, status: reportedStatus(row.status), date: new Date(row.created_at).toISOString(), detail: row.detail })),
  };
}
