/**
 * The worker threads of a large merge, kept between the ranges this process makes of it (at most a
 * few merges, for a short while): preparing reads the template and plans every row, and the names of
 * all documents are made once, so a range costs its own documents and not the whole merge's again.
 * A range takes the kept merge for itself; two ranges of one merge at once each have their own.
 */
import type { ThreadedMerge } from '@sheaf/engine/node';
import type { MergeRow } from './repository.ts';

interface Kept {
  /** The merge's start: a merge started again (restarted, resumed) is prepared again. */
  startedAt: number;
  merge: ThreadedMerge;
  timer: NodeJS.Timeout;
}

const kept = new Map<string, Kept>();
const KEPT_MERGES = 2;
/** Idle workers hold the merge's memory: ended when no range came for this long. */
const KEPT_IDLE_MS = 30_000;

const startOf = (row: MergeRow) => (row.started_at ? new Date(row.started_at).getTime() : 0);

/** The merge's kept workers, or new ones from `prepare`. */
export async function takeThreadedMerge(row: MergeRow, signal: AbortSignal, prepare: () => Promise<ThreadedMerge>): Promise<ThreadedMerge> {
  const entry = kept.get(row.id);
  if (entry) {
    kept.delete(row.id);
    clearTimeout(entry.timer);
    if (entry.startedAt === startOf(row) && !entry.merge.closed) return entry.merge;
    entry.merge.close();
  }
  signal.throwIfAborted();
  return prepare();
}

/** Keeps the workers for the merge's next range (a range already kept there: these end instead). */
export function keepThreadedMerge(row: MergeRow, merge: ThreadedMerge): void {
  if (merge.closed || kept.has(row.id)) return;
  merge.idle();
  const timer = setTimeout(() => dropThreadedMerge(row.id), KEPT_IDLE_MS);
  timer.unref();
  kept.set(row.id, { startedAt: startOf(row), merge, timer });
  for (const id of kept.keys()) {
    if (kept.size <= KEPT_MERGES) break;
    dropThreadedMerge(id);
  }
}

export function isKept(row: MergeRow, merge: ThreadedMerge): boolean {
  return kept.get(row.id)?.merge === merge;
}

/** Ends the merge's kept workers (it ended, or its last range is done). */
export function dropThreadedMerge(mergeId: string): void {
  const entry = kept.get(mergeId);
  if (!entry) return;
  kept.delete(mergeId);
  clearTimeout(entry.timer);
  entry.merge.close();
}
