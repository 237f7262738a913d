/**
 * The 'merge' job: makes the documents of one merge into a file, stores it, then completes the merge
 * and charges the documents in one transaction. A merge already completed is left alone, so nothing is
 * charged twice. A run stopped before that transaction (a crash, a shutdown, a lost lease) leaves its
 * ZIP and checkpoint journal in tmp under the merge's id (resumable-zip.ts): the next run goes on
 * from the documents written. A combined PDF is made again from the start.
 */
import { createReadStream } from 'node:fs';
import { mkdir, rm, stat } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { isSheafError, formatErrorMessage } from '@sheaf/shared';
import type { MergeInput, OutputDocument, RowIssue } from '@sheaf/engine';
import type { ThreadedMerge } from '@sheaf/engine/node';
import type { AppContext } from '../../context.ts';
import type { JobContext } from '../../jobs/types.ts';
import { isShutdown } from '../../jobs/runner.ts';
import { writeCombined } from '../../merge-output/outputs.ts';
import { journalOf, partialOf, readResumePoint, writeResumableZip } from '../../merge-output/resumable-zip.ts';
import { asStorageError } from '../../merge-output/storage-full.ts';
import { ownScratch, resumableZipOf } from './scratch-sweep.ts';
import { throttled, untilAborted } from '../../merge-output/streams.ts';
import { fallbackFonts, loadTemplateForMerge, requireTemplate } from '../templates/index.ts';
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
import { prepareWordMergeOf, wordDocumentsOf, writeWordCombined } from './word-output.ts';
import { queueRanges } from './range-queue.ts';

export interface MergeJobPayload {
  mergeId: string;
  ownerId: string;
}

/** Tries of a merge that fails for a reason other than its input (a full disk, a lost database). */
export const MERGE_MAX_ATTEMPTS = 3;
/** From this many rows on, a merge's documents are made by one worker thread per core but one; below, by one. */
const PARALLEL_MIN_ROWS = 64;
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
  // Word templates are made by this job alone: their batches go through LibreOffice (word-output.ts).
  if (madeInRanges(row, ctx.config.MERGE_RANGE_ROWS) && (await requireTemplate(ctx, ownerId, row.template_id)).template_type === 'pdf') {
    await queueRanges(ctx, row);
    return;
  }
  const tmpDir = path.join(ctx.config.DATA_DIR, 'tmp');
  await mkdir(tmpDir, { recursive: true });
  // A ZIP is named by the merge (the next run resumes it), a combined PDF by the attempt.
  const tmpFile = row.is_combined_output ? path.join(tmpDir, `${mergeId}-${job.attempt}.pdf`) : resumableZipOf(tmpDir, mergeId);
  const indexFile = path.join(tmpDir, `${mergeId}-${job.attempt}.index.jsonl`);
  const releaseFile = ownScratch(tmpFile); // the periodic sweep leaves them alone
  const releaseIndex = ownScratch(indexFile);
  let keepForResume = false;
  try {
    const made = await makeFile(ctx, row, tmpFile, indexFile, job);
    const size = (await stat(tmpFile)).size;
    await ctx.blobs.put(blobLayout.merge.result(mergeId, made.fileName), createReadStream(tmpFile));
    // What the per-document output collected goes with the ZIP (an emailed merge: its document index).
    await made.output?.store();
    // Stored: the scratch files go before the merge shows as completed, so a finished merge leaves nothing in tmp.
    await removeScratch(tmpFile, indexFile);
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
    if (isShutdown(job.signal)) {
      keepForResume = true; // handed back to the queue: the next run goes on from the documents written
      throw caught;
    }
    // The merge's scratch files go before it is shown ended: whoever sees it ended finds none left.
    await removeScratch(tmpFile, indexFile).catch(() => undefined);
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
    // A run tried again after a failure starts over: what this one wrote may be what failed.
    if (!keepForResume) await removeScratch(tmpFile, indexFile);
    // Remade from the journal by the next run; not awaited: a shutdown must not wait on a stuck disk.
    else void rm(indexFile, { force: true }).catch(() => undefined);
    releaseFile();
    releaseIndex();
  }
}

async function removeScratch(tmpFile: string, indexFile: string): Promise<void> {
  await Promise.all([tmpFile, partialOf(tmpFile), journalOf(tmpFile), indexFile].map((file) => rm(file, { force: true })));
}

/** How one merge's documents are made: by the PDF engine, or from a Word template (word-output.ts). */
interface DocumentSource {
  readonly isCombined: boolean;
  readonly rowCount: number;
  readonly documentCount: number;
  readonly issues: RowIssue[];
  readonly fileName: string;
  writeCombined(): Promise<void>;
  /** The separate documents from `start` (a resumed merge), and the row issues once they are made. */
  documentsFrom(start: number): { documents: Iterable<OutputDocument> | AsyncIterable<OutputDocument>; issues: () => RowIssue[] };
  /** Ends what makes the documents (the worker threads of a PDF merge). */
  close?(): void;
}

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
  const { useNativeCrypto, useNativeZlib } = await import('@sheaf/engine/node');
  // Encrypted outputs: Node's native hashes and AES, three times the pure-JS speed (idempotent);
  // compaction of whole fonts: native zlib.
  useNativeCrypto();
  useNativeZlib();
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
  const fileName = (isCombined: boolean, extension: '.pdf' | '.docx') =>
    resultFileName(row.request.customName || loaded.template.customName || loaded.template.name, isCombined, extension);
  return { input, sheet, options, fileName, templateType: loaded.template.templateType };
}

/**
 * A PDF merge made in worker threads (docs/merging.md#threads): the template's parse, the plan and every
 * document are made there, under a heap cap, and this thread only writes what comes back. Small merges
 * use one worker, larger ones one per core but one (the writer's), or one per core for encrypted documents.
 */
export async function threadedMergeOf(ctx: AppContext, input: MergeInput, signal: AbortSignal): Promise<ThreadedMerge> {
  const { prepareMergeInWorkers } = await import('@sheaf/engine/node');
  // One core stays for this thread's writing (and the database): plain documents are made faster than one
  // writer takes them. Encrypted ones cost a key derivation each, so there every core makes documents
  // (as before the merge moved into workers: on two cores one worker halved their speed).
  const cores = availableParallelism();
  const encrypted = Boolean(input.options?.passwordProtection);
  const workers = input.sheet.rowCount >= PARALLEL_MIN_ROWS ? Math.max(1, encrypted ? cores : cores - 1) : 1;
  return prepareMergeInWorkers(input, { workers, maxMemoryMb: ctx.config.MERGE_WORKER_MEMORY_MB, signal });
}

async function makeFile(ctx: AppContext, row: MergeRow, tmpFile: string, indexFile: string, job: JobContext): Promise<MadeFile> {
  const { input, sheet, fileName: fileNameOf, templateType } = await loadMergeInput(ctx, row);
  const source = templateType === 'sfdt' ? await wordSourceOf(ctx, row, input, sheet, tmpFile, fileNameOf) : await pdfSourceOf(ctx, input, tmpFile, job.signal, fileNameOf);
  try {
    return await writeFile(ctx, row, source, sheet, tmpFile, indexFile, job);
  } finally {
    source.close?.();
  }
}

type FileNameOf = Awaited<ReturnType<typeof loadMergeInput>>['fileName'];

async function wordSourceOf(ctx: AppContext, row: MergeRow, input: MergeInput, sheet: MergeInput['sheet'], tmpFile: string, fileNameOf: FileNameOf): Promise<DocumentSource> {
  const merge = await prepareWordMergeOf(ctx, row, input.template, sheet, input.placeholders, input.images);
  return {
    ...merge,
    fileName: fileNameOf(merge.isCombined, merge.output === 'docx' ? '.docx' : '.pdf'),
    writeCombined: () => writeWordCombined(ctx, merge, tmpFile),
    documentsFrom: (start) => ({ documents: wordDocumentsOf(ctx, merge, start), issues: () => merge.issues }),
  };
}

async function pdfSourceOf(ctx: AppContext, input: MergeInput, tmpFile: string, signal: AbortSignal, fileNameOf: FileNameOf): Promise<DocumentSource> {
  const merge = await threadedMergeOf(ctx, input, signal);
  let combinedIssues: RowIssue[] = [];
  return {
    isCombined: merge.isCombined,
    rowCount: merge.rowCount,
    documentCount: merge.documentCount,
    get issues() {
      return combinedIssues;
    },
    fileName: fileNameOf(merge.isCombined, '.pdf'),
    writeCombined: async () => {
      const combined = merge.combined(signal);
      combinedIssues = combined.issues;
      await writeCombined(tmpFile, untilAborted(combined.chunks, signal));
    },
    documentsFrom: (start) => {
      const made = merge.documents({ start }, signal);
      return { documents: made.documents, issues: () => made.issues };
    },
    close: () => merge.close(),
  };
}

async function writeFile(ctx: AppContext, row: MergeRow, merge: DocumentSource, sheet: MergeInput['sheet'], tmpFile: string, indexFile: string, job: JobContext): Promise<MadeFile> {
  const { signal } = job;
  signal.throwIfAborted();
  const fileName = merge.fileName;
  const total = merge.isCombined ? merge.rowCount : merge.documentCount;

  if (merge.isCombined) {
    await updateProgress(ctx.db, row.owner_id, row.id, 0, total);
    await merge.writeCombined();
    const skippedRows = new Set(merge.issues.map((issue) => issue.rowNumber)).size;
    return { fileName, documents: merge.rowCount - skippedRows, issues: merge.issues };
  }
  // The journal of another merge, or of this one with other documents, is not resumed.
  const key = `${row.id}:${new Date(row.created_at).getTime()}:${merge.documentCount}`;
  const resume = await readResumePoint(tmpFile, key);
  const start = resume.entries.length ? resume.entries.at(-1)!.index + 1 : 0;
  // The documents made before count as done from the start: progress never goes back.
  await updateProgress(ctx.db, row.owner_id, row.id, resume.entries.length, total);
  if (start > 0) ctx.log.info({ mergeId: row.id, documents: resume.entries.length, from: start, attempt: job.attempt }, 'merge resumed');
  const progress = throttled(PROGRESS_INTERVAL_MS, (done) => updateProgress(ctx.db, row.owner_id, row.id, done));
  const { documents, issues } = merge.documentsFrom(start);
  const output = frozenFollowUp(row) ? followUpOf(ctx)?.documentOutput(row, sheet, indexFile) : undefined;
  try {
    const { documents: written } = await writeResumableZip(tmpFile, untilAborted(documents, signal), {
      key,
      modified: new Date(row.created_at),
      resume,
      signal,
      onProgress: (done) => progress.push(done),
      onEntry: output ? (document, offset) => output.write(document, offset) : undefined,
    });
    await progress.flush();
    await output?.close();
    ctx.log.info({ mergeId: row.id, documents: written, made: written - resume.entries.length }, 'merge documents written');
    return { fileName, documents: written, issues: issues(), output };
  } catch (error) {
    output?.abort();
    throw error;
  }
}
