/**
 * Merges: starting one (checked, counted, charged against the quota on completion), reading the
 * history, cancelling, deleting, downloading. The documents themselves are made by the 'merge' job
 * (run-merge.ts).
 */
import {
  entitlements, FREE_PLAN_WATERMARK, SheafError, type Merge, type MergeRequest, type Placeholder, type TemplateSummary,
} from '@sheaf/shared';
import type { Readable } from 'node:stream';
import type { SheetData } from '@sheaf/engine';
import type { AppContext } from '../../context.ts';
import { loadSheet } from '../spreadsheets/index.ts';
import { listSummaries, lockTemplateRow, requireTemplate, wordFieldsOf, type TemplateRow } from '../templates/index.ts';
import { followUpOf } from './hooks.ts';
import './events.ts';
import { currentPeriod, getCredits } from '../users/index.ts';
import { contentTypeOf } from './files.ts';
import { blobLayout } from '../../adapters/blobs/layout.ts';
import { readDownloadToken } from './links.ts';
import { listMergesForTemplates, mailingStatusesOf, toMergeDto } from './present.ts';
import * as repo from './repository.ts';
import { checkedOutputOptions, storedRequest } from './request.ts';
import type { MergeJobPayload } from './run-merge.ts';
import { mergeJob } from './job-kinds.ts';
import { columnIndex, documentGroups, rowSelectionOf, selectedRows, selectionOfRows } from './selection.ts';
import { accountFor, type Principal } from '../../access/index.ts';
import { requireFreeSpace } from '../../merge-output/storage-full.ts';

export const MERGE_JOB = mergeJob.name;

async function mailingInProgress(ctx: AppContext, ownerId: string, row: repo.MergeRow): Promise<boolean> {
  const status = (await mailingStatusesOf(ctx, ownerId, [row])).get(row.id);
  return status === 'queued' || status === 'sending';
}

export async function startMerge(ctx: AppContext, principal: Principal, templateId: string, request: MergeRequest): Promise<Merge> {
  const ownerId = accountFor(principal, 'merges:write');
  // The client picks the id, so a retried request returns the merge it already started.
  const existing = await existingMerge(ctx, ownerId, templateId, request.mergeId);
  if (existing) return toMergeDto(ctx, existing);
  const template = await requireTemplate(ctx, ownerId, templateId); // template/not-found
  if (await repo.findActiveMerge(ctx.db, ownerId, templateId)) throw new SheafError('merge/in-progress');
  const word = template.template_type === 'sfdt';
  // A Word template's fields are in its document (checked below); a PDF's are its placeholders.
  if (!word && template.placeholders.length === 0) throw new SheafError('merge/no-placeholders');
  await requireFreeSpace(ctx.config); // generic/storage-full below MIN_FREE_MB: the database keeps its room

  const sheet = await loadSheet(ctx, ownerId, templateId); // sheet/missing without one
  if (word) await checkWordFields(ctx, template, sheet);
  else checkColumns(template.placeholders, sheet);
  const options = checkedOutputOptions(request, sheet.headers);

  let selection = rowSelectionOf(request.rowsData);
  const rows = selectedRows(sheet, selection);
  const groups = documentGroups(sheet, rows, template.placeholders);
  // Combined output counts each row as a document; otherwise a group of rows is one document.
  const needed = options.isCombinedOutput ? rows.length : groups.length;
  const credits = await getCredits(ctx.db, ownerId, needed);
  if (!credits.unlimited && credits.available !== null && credits.available < needed) {
    if (!request.limitToCredits || credits.available <= 0) {
      throw new SheafError('merge/insufficient-credits', { available: credits.available, needed });
    }
    const first = options.isCombinedOutput ? rows.slice(0, credits.available) : groups.slice(0, credits.available).flat();
    selection = selectionOfRows(sheet, first);
  }
  // Emailing: checked over the rows that will be made; the settings are frozen into the merge (with
  // the attachments as they are now). The email module does it (hooks.ts); none registered: no email.
  const followUp = followUpOf(ctx);
  const email = followUp
    ? await followUp.prepare({ ownerId, templateId, mergeId: request.mergeId, request, sheet, rows: selectedRows(sheet, selection), isCombined: options.isCombinedOutput })
    : null;
  const total = Math.min(needed, credits.available ?? needed);
  const { plan } = await currentPeriod(ctx.db, ownerId);
  const watermark = entitlements(plan, ctx.config.EDITION).watermark ? FREE_PLAN_WATERMARK : null;

  const payload: MergeJobPayload = { mergeId: request.mergeId, ownerId };
  const created = await ctx.db.transaction(async (tx) => {
    // One merge of a template at a time: the template row is locked while we look.
    await lockTemplateRow(tx, ownerId, templateId);
    if (await repo.findActiveMerge(tx, ownerId, templateId)) throw new SheafError('merge/in-progress');
    const inserted = await repo.insertMerge(tx, {
      id: request.mergeId,
      templateId,
      ownerId,
      actorId: principal.actorId,
      request: storedRequest(ctx.config.encryptionKey, request, selection, watermark, email),
      isCombinedOutput: options.isCombinedOutput,
      total,
    });
    if (inserted) await ctx.jobs.enqueue(mergeJob, payload, { id: request.mergeId, tx });
    return inserted;
  });
  if (created) ctx.jobs.wake();
  // A concurrent request with the same id may have won the insert: answer with its merge.
  const row = await existingMerge(ctx, ownerId, templateId, request.mergeId);
  if (!row) throw new SheafError('merge/not-found');
  return toMergeDto(ctx, row);
}

/** The caller's merge with this id; an id taken by another user or another template is "not found". */
async function existingMerge(ctx: AppContext, ownerId: string, templateId: string, mergeId: string): Promise<repo.MergeRow | undefined> {
  const row = await repo.findMerge(ctx.db, ownerId, mergeId);
  if (row && row.template_id === templateId) return row;
  if (row || (await repo.mergeIdTaken(ctx.db, mergeId))) throw new SheafError('merge/not-found');
  return undefined;
}

/** Every field of a Word template names a heading: merge/word-field-unknown before anything starts. */
async function checkWordFields(ctx: AppContext, template: TemplateRow, sheet: SheetData): Promise<void> {
  const { unknownDocxFields } = await import('@sheaf/engine'); // the engine loads with the first merge, not at start
  const [unknown] = unknownDocxFields(await wordFieldsOf(ctx, template), sheet.headers);
  if (unknown) throw new SheafError('merge/word-field-unknown', { column: unknown.column });
}

/** Every placeholder needs its column; none at all matching is its own message (the wizard's dialog). */
function checkColumns(placeholders: readonly Placeholder[], sheet: SheetData): void {
  const missing = placeholders.filter((placeholder) => columnIndex(sheet.headers, placeholder.column) === undefined);
  if (missing.length === placeholders.length) throw new SheafError('merge/no-matching-placeholders');
  const [first] = missing;
  if (first) throw new SheafError('merge/missing-column', { column: first.column, name: first.id });
}

/** The merge of this template, or 404 merge/not-found (also for another user's merge). */
async function ownMerge(ctx: AppContext, ownerId: string, templateId: string, mergeId: string): Promise<repo.MergeRow> {
  const row = await repo.findMerge(ctx.db, ownerId, mergeId);
  if (!row || row.template_id !== templateId) throw new SheafError('merge/not-found');
  return row;
}

/** The library as the home list shows it: every template with its merge history, newest first. */
export async function listLibrary(ctx: AppContext, principal: Principal): Promise<TemplateSummary[]> {
  const ownerId = accountFor(principal, 'templates:read');
  const summaries = await listSummaries(ctx, principal);
  const merges = summaries.length ? await listMergesForTemplates(ctx, ownerId, summaries.map((summary) => summary.id)) : new Map<string, Merge[]>();
  return summaries.map((summary) => ({ ...summary, merges: merges.get(summary.id) ?? [] }));
}

export async function listMerges(ctx: AppContext, principal: Principal, templateId: string): Promise<Merge[]> {
  const ownerId = accountFor(principal, 'merges:read');
  await requireTemplate(ctx, ownerId, templateId); // template/not-found
  const rows = await repo.listMerges(ctx.db, ownerId, [templateId]);
  const mailings = await mailingStatusesOf(ctx, ownerId, rows);
  return Promise.all(rows.map((row) => toMergeDto(ctx, row, mailings.get(row.id) ?? null)));
}

export async function getMerge(ctx: AppContext, principal: Principal, templateId: string, mergeId: string): Promise<Merge> {
  const ownerId = accountFor(principal, 'merges:read');
  return toMergeDto(ctx, await ownMerge(ctx, ownerId, templateId, mergeId));
}

/** Stops a queued or running merge (status cancelled, partial files removed, nothing charged) and its mailing. */
export async function cancelMerge(ctx: AppContext, principal: Principal, templateId: string, mergeId: string): Promise<Merge> {
  const ownerId = accountFor(principal, 'merges:write');
  const row = await ownMerge(ctx, ownerId, templateId, mergeId);
  if (repo.ACTIVE_STATUSES.includes(row.status)) await stopMerge(ctx, ownerId, mergeId);
  // The mailing stops too: queued messages become cancelled; messages in flight finish.
  await ctx.events.emit('merge.stopped', { ownerId, mergeId, reason: 'cancel' });
  return toMergeDto(ctx, await ownMerge(ctx, ownerId, templateId, mergeId));
}

async function stopMerge(ctx: AppContext, ownerId: string, mergeId: string): Promise<void> {
  await repo.requestCancel(ctx.db, ownerId, mergeId);
  await ctx.jobs.cancel(mergeId); // resolves once a job running here has stopped
  if (await repo.markEnded(ctx.db, ownerId, mergeId, 'cancelled', null)) {
    // Ended here rather than by the job (it was queued, or runs elsewhere): clear what it may have written.
    await ctx.blobs.deletePrefix(blobLayout.merge.folder(mergeId));
  }
}

export async function deleteMergeFiles(ctx: AppContext, principal: Principal, templateId: string, mergeId: string): Promise<Merge> {
  const ownerId = accountFor(principal, 'merges:write');
  const row = await ownMerge(ctx, ownerId, templateId, mergeId);
  // A mailing reads the documents from these files while it sends.
  if (repo.ACTIVE_STATUSES.includes(row.status) || (await mailingInProgress(ctx, ownerId, row))) throw new SheafError('merge/in-progress');
  await ctx.blobs.deletePrefix(blobLayout.merge.folder(mergeId));
  const updated = await repo.markFilesDeleted(ctx.db, ownerId, mergeId);
  return toMergeDto(ctx, updated ?? row);
}

export async function deleteMerge(ctx: AppContext, principal: Principal, templateId: string, mergeId: string): Promise<void> {
  const ownerId = accountFor(principal, 'merges:write');
  const row = await ownMerge(ctx, ownerId, templateId, mergeId);
  if (repo.ACTIVE_STATUSES.includes(row.status)) await stopMerge(ctx, ownerId, mergeId);
  await ctx.events.emit('merge.stopped', { ownerId, mergeId, reason: 'delete' });
  await ctx.blobs.deletePrefix(blobLayout.merge.folder(mergeId));
  await repo.deleteMergeRow(ctx.db, ownerId, mergeId);
}

/** A merge's result file, streamed, or (S3_PRESIGNED_DOWNLOADS) a short-lived link straight to the bucket. */
export type MergeDownload = { fileName: string; contentType: string } & ({ stream: Readable; size: number } | { url: string });

/** How long a signed bucket link works: it is made at each click of the (hour-long) download link. */
const BUCKET_LINK_SECONDS = 300;

/**
 * GET /v1/files/:token: the result file for whoever holds a valid link. `contentDisposition` makes the
 * header a bucket link must carry (the HTTP layer's format).
 */
export async function downloadMerge(ctx: AppContext, token: string, contentDisposition: (fileName: string) => string): Promise<MergeDownload> {
  const { mergeId, ownerId } = await readDownloadToken(ctx, token);
  const row = await repo.findMerge(ctx.db, ownerId, mergeId);
  if (!row) throw new SheafError('merge/not-found');
  if (row.files_deleted) throw new SheafError('merge/files-deleted');
  if (row.status !== 'completed' || !row.file_name) throw new SheafError('merge/not-found');
  const key = blobLayout.merge.result(mergeId, row.file_name);
  const file = { contentType: contentTypeOf(row.file_name), fileName: row.file_name };
  if (ctx.config.S3_PRESIGNED_DOWNLOADS && ctx.blobs.downloadUrl) {
    // Checked here: a link to a missing object would answer the bucket's XML error instead of ours.
    if (!(await ctx.blobs.exists(key))) throw new SheafError('merge/files-deleted');
    const options = { contentType: file.contentType, contentDisposition: contentDisposition(row.file_name), expiresInSeconds: BUCKET_LINK_SECONDS };
    return { ...file, url: await ctx.blobs.downloadUrl(key, options) };
  }
  const { stream, size } = await ctx.blobs.stream(key).catch(() => {
    throw new SheafError('merge/files-deleted');
  });
  return { ...file, stream, size };
}
