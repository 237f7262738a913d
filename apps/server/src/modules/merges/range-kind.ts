/**
 * The 'merge-range' job kind: one row range of a large separate-documents merge (run-range.ts), and
 * how a merge is cut into ranges. Apart from its handler so that the merge job can queue it without
 * an import cycle.
 */
import { z } from 'zod';
import { defineJob } from '../../jobs/registry.ts';

export interface MergeRangePayload {
  mergeId: string;
  ownerId: string;
  /** Which range, from 0, of `ranges`. */
  index: number;
  ranges: number;
  /** First and last position (from 0) of the range in the merge's documents. */
  first: number;
  last: number;
}

/** Tries of a range that fails for a reason other than its input (as the merge job's). */
export const MERGE_RANGE_MAX_ATTEMPTS = 3;

/**
 * Shares the merge job's queue and concurrency: the merge job only queues its ranges and returns, so
 * nothing in the queue waits on another job of it.
 */
export const mergeRangeJob = defineJob<MergeRangePayload>({
  name: 'merge-range',
  queue: 'merges',
  payload: z.object({
    mergeId: z.string().min(1),
    ownerId: z.string().min(1),
    index: z.number().int().min(0),
    ranges: z.number().int().min(1),
    first: z.number().int().min(0),
    last: z.number().int().min(0),
  }),
  maxAttempts: MERGE_RANGE_MAX_ATTEMPTS,
  concurrency: (config) => config.MERGE_CONCURRENCY,
});

/** A range job's id: the merge's id and the range's index (cancelling the merge cancels each). */
export const rangeJobId = (mergeId: string, index: number) => `${mergeId}-range-${index}`;

export interface PlannedRange {
  index: number;
  first: number;
  last: number;
}

/**
 * `documents` cut into ranges of equal size (the last may be shorter), each at most `maxPerRange`.
 * Equal sizes let a range find its documents from its own payload (run-range.ts).
 */
export function planRanges(documents: number, maxPerRange: number): PlannedRange[] {
  const count = Math.ceil(documents / maxPerRange);
  const size = Math.ceil(documents / count);
  const ranges: PlannedRange[] = [];
  for (let first = 0, index = 0; first < documents; first += size, index++) {
    ranges.push({ index, first, last: Math.min(first + size, documents) - 1 });
  }
  return ranges;
}

/** Whether a merge is made in ranges: separate documents, more than one range's worth. */
export function madeInRanges(merge: { is_combined_output: boolean; total: number }, maxPerRange: number): boolean {
  // 0: ranges are off (one worker alone would make them one after another: slower than one job).
  return maxPerRange > 0 && !merge.is_combined_output && merge.total > maxPerRange;
}

/** The range's size, from its payload: every range but the last has the first range's size. */
export function rangeSize(range: Pick<MergeRangePayload, 'index' | 'first' | 'last'>): number {
  return range.index === 0 ? range.last + 1 : range.first / range.index;
}
