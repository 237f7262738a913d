/**
 * The 'merge-range' job: makes one row range of a large separate-documents merge into a part of its
 * ZIP (local headers and stored documents, no directory; merge-output/zip-parts.ts), stores the part
 * and its manifest, and records the range as finished. The range that finishes last assembles the
 * ZIP and completes the merge (assemble.ts).
 *
 * Re-runs are safe: a range made again overwrites only its own part (byte for byte the same: every
 * entry carries the merge's creation time); a range already recorded goes straight to the count.
 * A range stops when its job is cancelled (merge.stopped cancels every range job) and, on any
 * process, when its progress update finds the merge no longer generating.
 */
import { createReadStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { formatErrorMessage, isSheafError } from '@sheaf/shared';
import type { ThreadedMerge } from '@sheaf/engine/node';
import type { AppContext } from '../../context.ts';
import type { JobContext } from '../../jobs/types.ts';
import { isShutdown } from '../../jobs/runner.ts';
import { blobLayout } from '../../adapters/blobs/layout.ts';
import { writeZipPart } from '../../merge-output/zip-parts.ts';
import { throttled, untilAborted } from '../../merge-output/streams.ts';
import { asStorageError } from '../../merge-output/storage-full.ts';
import { ownScratch } from './scratch-sweep.ts';
import { assembleMerge } from './assemble.ts';
import { MERGE_RANGE_MAX_ATTEMPTS, mergeRangeJob, rangeJobId, type MergeRangePayload } from './range-kind.ts';
import { finishRange, listRanges, updateRangeProgress } from './range-repository.ts';
import { ACTIVE_STATUSES, findMerge, markEnded, type MergeRow } from './repository.ts';
import { loadMergeInput, threadedMergeOf } from './run-merge.ts';
import { dropThreadedMerge, isKept, keepThreadedMerge, takeThreadedMerge } from './kept-merges.ts';

const PROGRESS_INTERVAL_MS = 250;

/** Registers the range job and stops every range of a merge the user cancels or deletes. */
export function registerRangeJobs(ctx: AppContext): void {
  ctx.jobs.register(mergeRangeJob, (payload, job) => runMergeRange(ctx, payload, job));
  ctx.events.on('merge.stopped', async ({ ownerId, mergeId }) => {
    dropThreadedMerge(mergeId);
    const ranges = await listRanges(ctx.db, ownerId, mergeId);
    await Promise.all(ranges.map((range) => ctx.jobs.cancel(rangeJobId(mergeId, range.range_index))));
    await ctx.blobs.deletePrefix(blobLayout.merge.parts(mergeId));
  });
}

export async function runMergeRange(ctx: AppContext, payload: MergeRangePayload, job: JobContext): Promise<void> {
  const { mergeId, ownerId, index } = payload;
  const dropPart = () => Promise.all([ctx.blobs.delete(blobLayout.merge.part(mergeId, index)), ctx.blobs.delete(blobLayout.merge.partManifest(mergeId, index))]);
  const merge = await findMerge(ctx.db, ownerId, mergeId);
  // Ended (cancelled, failed in another range, completed by a duplicate delivery) or deleted.
  if (!merge || merge.status !== 'generating' || merge.cancel_requested) {
    // Completed: the assembler may have stopped before clearing the parts (they are no longer read).
    if (merge?.status === 'completed') await ctx.blobs.deletePrefix(blobLayout.merge.parts(mergeId));
    else await dropPart();
    return;
  }
  // Stops this range on any process: the progress update tells when the merge stopped generating.
  const stopped = new AbortController();
  const signal = AbortSignal.any([job.signal, stopped.signal]);
  const tmpDir = path.join(ctx.config.DATA_DIR, 'tmp');
  const tmpFile = path.join(tmpDir, `${mergeId}-range-${index}-${job.attempt}.zip-part`);
  const release = ownScratch(tmpFile); // the periodic sweep leaves it alone
  try {
    const recorded = (await listRanges(ctx.db, ownerId, mergeId)).find((range) => range.range_index === index);
    if (!recorded) return; // the merge's ranges are gone with it
    let finish;
    if (recorded.finished) {
      finish = await ctx.db.transaction((tx) => finishRange(tx, ownerId, mergeId, index, recorded));
    } else {
      await mkdir(tmpDir, { recursive: true });
      const made = await makePart(ctx, merge, payload, tmpFile, signal, () => stopped.abort(new Error('merge stopped')));
      await rm(tmpFile, { force: true }); // stored: nothing of it stays in tmp while the merge is assembled
      finish = await ctx.db.transaction((tx) => finishRange(tx, ownerId, mergeId, index, made));
    }
    if (finish === 'stopped') await dropPart();
    // Re-read: the row as it is now (the events of completion carry it).
    if (finish === 'last') dropThreadedMerge(mergeId);
    if (finish === 'last') await assembleMerge(ctx, (await findMerge(ctx.db, ownerId, mergeId))!, signal);
  } catch (caught) {
    if (isShutdown(job.signal)) throw caught; // handed back to the queue: a restart makes it again
    // A full disk (ENOSPC, EDQUOT, EIO) is not tried again: the merge ends with generic/storage-full.
    const error = asStorageError(caught);
    if (signal.aborted) {
      // Cancelled, or the merge failed elsewhere: whoever ended it cleared its folder, but this range may
      // have written since (its part; the ZIP, if it was assembling). A merge that did end has no files.
      // A merge still generating (only this job was stopped, e.g. its lease was lost to another run of
      // it) keeps the part: that other run may have written it already, and assembly clears the parts.
      const now = await findMerge(ctx.db, ownerId, mergeId);
      if (!now || !(ACTIVE_STATUSES.includes(now.status) || now.status === 'completed')) await ctx.blobs.deletePrefix(blobLayout.merge.folder(mergeId));
      return;
    }
    const failed = isSheafError(error)
      ? { code: error.code, message: error.message, params: error.params }
      : job.attempt < MERGE_RANGE_MAX_ATTEMPTS ? undefined : { code: 'generic/something-wrong', message: formatErrorMessage('generic/something-wrong') };
    if (!isSheafError(error)) ctx.log.error({ err: error, mergeId, range: index, attempt: job.attempt }, 'merge range failed');
    if (!failed) throw error; // the runner tries again with backoff
    // One range failing for good fails the merge: the other ranges see it at their next progress update.
    if (await markEnded(ctx.db, ownerId, mergeId, 'error', failed)) await ctx.blobs.deletePrefix(blobLayout.merge.parts(mergeId));
  } finally {
    await rm(tmpFile, { force: true });
    release();
  }
}

interface MadePart {
  documents: number;
  issues: MergeRow['issues'];
}

/** Makes the range's documents (in the merge's worker threads, kept-merges.ts) into its part and stores the part and its manifest. */
async function makePart(ctx: AppContext, merge: MergeRow, range: MergeRangePayload, tmpFile: string, signal: AbortSignal, stop: () => void): Promise<MadePart> {
  const prepared = await takeThreadedMerge(merge, signal, async () => threadedMergeOf(ctx, (await loadMergeInput(ctx, merge)).input, signal));
  try {
    const made = await writePart(ctx, merge, range, prepared, tmpFile, signal, stop);
    keepThreadedMerge(merge, prepared); // the next range of this merge here goes on with the prepared workers
    return made;
  } finally {
    if (!isKept(merge, prepared)) prepared.close();
  }
}

async function writePart(ctx: AppContext, merge: MergeRow, range: MergeRangePayload, prepared: ThreadedMerge, tmpFile: string, signal: AbortSignal, stop: () => void): Promise<MadePart> {
  signal.throwIfAborted();
  // The ranges were cut from the merge's count of documents: the engine must see the same documents.
  if (range.last >= prepared.documentCount || (range.index === range.ranges - 1 && range.last !== prepared.documentCount - 1)) {
    throw new Error(`merge ${merge.id}: range ${range.index} (${range.first}-${range.last}) does not fit ${prepared.documentCount} documents`);
  }
  const { documents, issues } = prepared.documents({ start: range.first, end: range.last + 1 }, signal);
  const progress = throttled(PROGRESS_INTERVAL_MS, async (done) => {
    if (!(await updateRangeProgress(ctx.db, merge.owner_id, merge.id, range.index, done))) stop();
  });
  const manifest = await writeZipPart(tmpFile, untilAborted(documents, signal), new Date(merge.created_at), (done) => progress.push(done));
  await progress.flush();
  signal.throwIfAborted();
  await ctx.blobs.put(blobLayout.merge.part(merge.id, range.index), createReadStream(tmpFile));
  await ctx.blobs.put(blobLayout.merge.partManifest(merge.id, range.index), Buffer.from(JSON.stringify(manifest)));
  // Issues of rows before the range may come again (assembly keeps each once).
  return { documents: manifest.entries.length, issues: [...issues] };
}
