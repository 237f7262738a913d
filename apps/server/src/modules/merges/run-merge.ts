/**
 * The 'merge' job: makes the documents of one merge into a file, stores it, then completes the merge
 * and charges the documents in one transaction. A crash anywhere before that transaction re-runs the
 * job from the start; a merge already completed is left alone, so nothing is charged twice.
 */
import { createReadStream } from 'node:fs';
import { mkdir, rm, stat } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { isSheafError, formatErrorMessage } from '@sheaf/shared';
import type { MergeInput, RowIssue } from '@sheaf/engine';
import type { AppContext } from '../../context.ts';
import type { JobContext } from '../../jobs/types.ts';
import { isShutdown } from '../../jobs/runner.ts';
import { writeCombined, writeZip } from '../../merge-output/outputs.ts';
import { asStorageError } from '../../merge-output/storage-full.ts';
import { ownScratch } from './scratch-sweep.ts';
import { throttled, untilAborted } from '../../merge-output/streams.ts';
import { fallbackFonts, loadTemplateForMerge } from '../templates/index.ts';
import { loadSheet } from '../spreadsheets/index.ts';
import { loadUserFonts } from '../fonts/index.ts';
import { chargeDocuments } from '../users/index.ts';
import { ACTIVE_STATUSES, findMerge, markCompleted, markEnded, markGenerating, updateProgress, type MergeRow } from './repository.ts';
import { outputOptionsOf } from './request.ts';
import { resultFileName } from './files.ts';
import { blobLayout } from '../../adapters/blobs/layout.ts';
import { AfterCommit } from '../../events/bus.ts';
import { followUpOf, frozenFollowUp, type DocumentOutput } from './hooks.ts';
import './events.ts';
import { madeInRanges } from './range-kind.ts';
import { queueRanges } from './range-queue.ts';

export interface MergeJobPayload {
  mergeId: string;
  ownerId: string;
}

/** Tries of a merge that fails for a reason other than its input (a full disk, a lost database). */
export const MERGE_MAX_ATTEMPTS = 3;
/** Encrypted documents are CPU-bound: from this many on, they are made on worker threads. */
const PARALLEL_MIN_DOCUMENTS = 64;
const PROGRESS_INTERVAL_MS = 250;

export async function runMergeJob(ctx: AppContext, payload: MergeJobPayload, job: JobContext): Promise<void> {
  const { mergeId, ownerId } = payload;
  const row = await findMerge(ctx.db, ownerId, mergeId);
  // Deleted, or finished by an earlier run whose job record was not closed (a crash right after).
  if (!row || !ACTIVE_STATUSES.includes(row.status)) return;
  if (row.cancel_requested) {
    await markEnded(ctx.db, ownerId, mergeId, 'cancelled', null);
    return;
  }
  await markGenerating(ctx.db, ownerId, mergeId);
  // A large separate-documents merge: its ranges are made by every worker (run-range.ts); this job only queues them.
  if (madeInRanges(row, ctx.config.MERGE_RANGE_ROWS)) {
    await queueRanges(ctx, row);
    return;
  }
  const tmpDir = path.join(ctx.config.DATA_DIR, 'tmp');
  await mkdir(tmpDir, { recursive: true });
  const tmpFile = path.join(tmpDir, `${mergeId}-${job.attempt}${row.is_combined_output ? '.pdf' : '.zip'}`);
  const release = ownScratch(tmpFile); // the periodic sweep leaves it alone
  try {
    const made = await makeFile(ctx, row, tmpFile, job.signal);
    const size = (await stat(tmpFile)).size;
    await ctx.blobs.put(blobLayout.merge.result(mergeId, made.fileName), createReadStream(tmpFile));
    // What the per-document output collected goes with the ZIP (an emailed merge: its document index).
    await made.output?.store();
    // Stored: the scratch files go before the merge shows as completed, so a finished merge leaves nothing in tmp.
    await removeScratch(tmpFile);
    job.signal.throwIfAborted();
    const afterCommit = new AfterCommit();
    const completed = await ctx.db.transaction(async (tx) => {
      const ok = await markCompleted(tx, ownerId, mergeId, { fileName: made.fileName, fileSize: size, documents: made.documents, issues: made.issues });
      if (ok) await chargeDocuments(tx, ownerId, made.documents);
      // The documents exist: subscribers (the mailing: its row and first run) write in this same transaction.
      if (ok) await ctx.events.emit('merge.completed', { tx, merge: row, documents: made.documents, afterCommit });
      return ok;
    });
    if (completed) afterCommit.run();
    // Cancelled or deleted while the file was being stored: the file belongs to nobody.
    if (!completed) await ctx.blobs.deletePrefix(blobLayout.merge.folder(mergeId));
  } catch (caught) {
    if (isShutdown(job.signal)) throw caught; // handed back to the queue: a restart makes it again
    if (job.signal.aborted) {
      await ctx.blobs.deletePrefix(blobLayout.merge.folder(mergeId));
      await markEnded(ctx.db, ownerId, mergeId, 'cancelled', null);
      return;
    }
    // A full disk (ENOSPC, EDQUOT, EIO) is not tried again: the merge ends with generic/storage-full, nothing charged.
    const error = asStorageError(caught);
    if (isSheafError(error)) {
      if (error.code === 'generic/storage-full') {
        ctx.log.warn({ err: caught, mergeId }, 'merge failed: the storage is full');
        await ctx.blobs.deletePrefix(blobLayout.merge.folder(mergeId)).catch(() => undefined);
      }
      await markEnded(ctx.db, ownerId, mergeId, 'error', { code: error.code, message: error.message, params: error.params });
      return;
    }
    ctx.log.error({ err: error, mergeId, attempt: job.attempt }, 'merge failed');
    if (job.attempt < MERGE_MAX_ATTEMPTS) throw error; // the runner tries again with backoff
    await markEnded(ctx.db, ownerId, mergeId, 'error', { code: 'generic/something-wrong', message: formatErrorMessage('generic/something-wrong') });
  } finally {
    await removeScratch(tmpFile);
    release();
  }
}

async function removeScratch(tmpFile: string): Promise<void> {
  await rm(tmpFile, { force: true });
  await rm(indexFileOf(tmpFile), { force: true });
}

/** A scratch file the per-document output may write (removed with the job's temporary file). */
const indexFileOf = (tmpFile: string) => `${tmpFile}.index.jsonl`;

interface MadeFile {
  fileName: string;
  /** Documents made (rows, for combined output): what the owner is charged. */
  documents: number;
  issues: RowIssue[];
  /** The per-document output (an emailed merge's document index), closed; stored once the ZIP is.*/
  output?: DocumentOutput;
}

/** What the engine needs to make a merge's documents, loaded from its template, sheet and fonts. */
export async function loadMergeInput(ctx: AppContext, row: MergeRow) {
  const { useNativeCrypto } = await import('@sheaf/engine/node');
  // Encrypted outputs: Node's native hashes and AES, three times the pure-JS speed (idempotent).
  useNativeCrypto();
  const [loaded, sheet, fonts, fallback] = await Promise.all([
    loadTemplateForMerge(ctx, row.owner_id, row.template_id),
    loadSheet(ctx, row.owner_id, row.template_id),
    loadUserFonts(ctx, row.owner_id),
    fallbackFonts(),
  ]);
  const options = outputOptionsOf(ctx.config.encryptionKey, row.request);
  const input: MergeInput = {
    template: loaded.bytes,
    placeholders: loaded.template.placeholders,
    sheet,
    rows: row.request.selection,
    options,
    fonts,
    images: loaded.images,
    fallbackFonts: fallback,
  };
  const fileName = (isCombined: boolean) => resultFileName(row.request.customName || loaded.template.customName || loaded.template.name, isCombined);
  return { input, sheet, options, fileName };
}

async function makeFile(ctx: AppContext, row: MergeRow, tmpFile: string, signal: AbortSignal): Promise<MadeFile> {
  const { prepareMerge } = await import('@sheaf/engine');
  const { mergeDocumentsInParallel } = await import('@sheaf/engine/node');
  const { input, sheet, options, fileName: fileNameOf } = await loadMergeInput(ctx, row);
  const merge = await prepareMerge(input);
  signal.throwIfAborted();
  const fileName = fileNameOf(merge.isCombined);
  const total = merge.isCombined ? merge.rowCount : merge.documentCount;
  await updateProgress(ctx.db, row.owner_id, row.id, 0, total);

  if (merge.isCombined) {
    await writeCombined(tmpFile, untilAborted(merge.combined(), signal));
    const skippedRows = new Set(merge.issues.map((issue) => issue.rowNumber)).size;
    return { fileName, documents: merge.rowCount - skippedRows, issues: merge.issues };
  }
  const progress = throttled(PROGRESS_INTERVAL_MS, (done) => updateProgress(ctx.db, row.owner_id, row.id, done));
  const parallel = options.passwordProtection && merge.documentCount >= PARALLEL_MIN_DOCUMENTS && availableParallelism() > 1
    ? mergeDocumentsInParallel(input)
    : undefined;
  const output = frozenFollowUp(row) ? followUpOf(ctx)?.documentOutput(row, sheet, indexFileOf(tmpFile)) : undefined;
  try {
    const { documents } = await writeZip(
      tmpFile,
      untilAborted(parallel?.documents ?? merge.documents(), signal),
      (done) => progress.push(done),
      output ? (document, offset) => output.write(document, offset) : undefined,
    );
    await progress.flush();
    await output?.close();
    return { fileName, documents, issues: parallel ? parallel.issues : merge.issues, output };
  } catch (error) {
    output?.abort();
    throw error;
  }
}
