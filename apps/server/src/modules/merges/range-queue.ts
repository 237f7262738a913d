/** Cuts a large separate-documents merge into ranges and queues one 'merge-range' job per range. */
import type { AppContext } from '../../context.ts';
import { mergeRangeJob, planRanges, rangeJobId } from './range-kind.ts';
import { countRanges, insertRanges } from './range-repository.ts';
import type { MergeRow } from './repository.ts';

/**
 * Idempotent: the merge job run again after a crash finds the ranges and their jobs there already
 * (both keyed by the merge id and the range index), whatever MERGE_RANGE_ROWS says by then.
 */
export async function queueRanges(ctx: AppContext, merge: MergeRow): Promise<void> {
  const ranges = planRanges(merge.total, ctx.config.MERGE_RANGE_ROWS);
  const queued = await ctx.db.transaction(async (tx) => {
    if ((await countRanges(tx, merge.id)) > 0) return false;
    await insertRanges(tx, merge.id, ranges);
    for (const range of ranges) {
      const payload = { mergeId: merge.id, ownerId: merge.owner_id, index: range.index, ranges: ranges.length, first: range.first, last: range.last };
      await ctx.jobs.enqueue(mergeRangeJob, payload, { id: rangeJobId(merge.id, range.index), tx });
    }
    return true;
  });
  if (queued) ctx.log.info({ mergeId: merge.id, documents: merge.total, ranges: ranges.length }, 'merge made in ranges');
  ctx.jobs.wake();
}
