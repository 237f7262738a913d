/**
 * The mailing of a merge: created when its documents are made, stopped when the merge is cancelled
 * or deleted, its status shown in the merge history. Tied to the merges module in merge-hooks.ts.
 */
import type { Queryable } from '../../adapters/db/types.ts';
import type { AppContext } from '../../context.ts';
import type { MergeRow } from '../merges/index.ts';
import { enqueueMailingRun, stopMailingRun, wakeMailings } from './mail-queue.ts';
import { finishCancelled } from './mailing-end.ts';
import { findMailing, insertMailing, mailingStatuses, requestMailingCancel, type MailingStatus } from './mailing-repository.ts';
import type { MailingSnapshot } from './snapshot.ts';

export type { MailingSnapshot };

/** The snapshot a merge request carries when it emails its documents (null when it does not). */
export function snapshotOf(row: Pick<MergeRow, 'request'>): MailingSnapshot | null {
  return (row.request as { email?: MailingSnapshot | null }).email ?? null;
}

/**
 * Inside the merge job's completing transaction: the mailing and its first run. Call
 * wakeMailings(ctx) once the transaction has committed.
 */
export async function createMailing(ctx: AppContext, tx: Queryable, merge: Pick<MergeRow, 'id' | 'owner_id' | 'template_id'>, snapshot: MailingSnapshot): Promise<void> {
  const created = await insertMailing(tx, { mergeId: merge.id, ownerId: merge.owner_id, templateId: merge.template_id, senderId: snapshot.senderId });
  if (created) await enqueueMailingRun(ctx, tx, { mergeId: merge.id, ownerId: merge.owner_id }, 0);
}

export { wakeMailings };

/** Stops a queued or sending mailing: messages not sent yet become cancelled; those in flight finish. */
export async function cancelMailing(ctx: AppContext, ownerId: string, mergeId: string): Promise<void> {
  if (!(await requestMailingCancel(ctx.db, ownerId, mergeId))) return;
  const mailing = await findMailing(ctx.db, ownerId, mergeId);
  if (mailing) await stopMailingRun(ctx, mergeId, mailing.round); // resolves once a run here has stopped
  await finishCancelled(ctx, { mergeId, ownerId });
}

/**
 * The mailing status of each merge, as Merge.mailingStatus shows it: from the mailing once it exists;
 * before that, from the merge (documents still being made: queued).
 */
export async function mailingStatusesOf(ctx: AppContext, ownerId: string, rows: readonly Pick<MergeRow, 'id' | 'status' | 'request'>[]): Promise<Map<string, MailingStatus | null>> {
  const emailed = rows.filter((row) => snapshotOf(row));
  const stored = await mailingStatuses(ctx.db, ownerId, emailed.map((row) => row.id));
  const result = new Map<string, MailingStatus | null>();
  for (const row of rows) {
    if (!snapshotOf(row)) result.set(row.id, null);
    else result.set(row.id, stored.get(row.id) ?? (row.status === 'error' ? 'error' : row.status === 'cancelled' ? 'cancelled' : 'queued'));
  }
  return result;
}
