/**
 * The template library: upload, replace, unlock, settings, placeholders and delete. Untrusted PDF
 * bytes are only ever parsed in worker threads (pdf-tasks.ts); every lookup is scoped to the owner.
 */
import { SheafError, normalizeDisplayName, normalizeFileName, type Placeholder, type TemplateDetail, type TemplateOutputSettings } from '@sheaf/shared';
import type { AppContext } from '../../context.ts';
import { sha256Hex } from '../../crypto/secrets.ts';
import { newId } from '../../ids.ts';
import { changeHeaderRow } from './sheet-facts.ts';
import { blobLayout } from '../../adapters/blobs/layout.ts';
import { writeAndSwitch } from '../../adapters/blobs/switch.ts';
import { DEFAULT_OUTPUT, mergeOutput, readOutput, storeOutput } from './output-settings.ts';
import { checkPdf, scheduleThumbnail, storeThumbnail, unlockPdf } from './pdf-tasks.ts';
import { toDetail } from './present.ts';
import {
  deleteTemplateRow, findTemplateFileId, findTemplateRow, insertTemplateRow, updateTemplateFields, updateTemplateFile,
  type FileFacts, type PageSize, type TemplateRow,
} from './repository.ts';
import { readTemplatePdf, thumbnailKey } from './template-files.ts';
import { prepareWord, wordTypeOf } from './word-files.ts';
import { accountFor, type Principal } from '../../access/index.ts';

/** Readers accept up to 1 KB of junk before the header; so does the engine. */
const HEADER_SEARCH_BYTES = 1024 + 5;
const PDF_HEADER = Buffer.from('%PDF-');

export async function requireTemplate(ctx: AppContext, ownerId: string, id: string): Promise<TemplateRow> {
  const row = await findTemplateRow(ctx.db, ownerId, id);
  if (!row) throw new SheafError('template/not-found');
  return row;
}

export async function getDetail(ctx: AppContext, principal: Principal, id: string): Promise<TemplateDetail> {
  const ownerId = accountFor(principal, 'templates:read');
  return toDetail(ctx, await requireTemplate(ctx, ownerId, id));
}

/** The template's PDF as stored, for download. */
export async function templateFile(ctx: AppContext, principal: Principal, id: string): Promise<{ row: TemplateRow; bytes: Uint8Array }> {
  const row = await requireTemplate(ctx, accountFor(principal, 'templates:read'), id);
  return { row, bytes: await readTemplatePdf(ctx, row) };
}

/** The thumbnail of page 1 (thumbnail/not-found until it is made). */
export async function templateThumbnail(ctx: AppContext, principal: Principal, id: string): Promise<{ row: TemplateRow; png: Uint8Array }> {
  const row = await requireTemplate(ctx, accountFor(principal, 'templates:read'), id);
  const key = row.has_thumbnail ? await thumbnailKey(ctx, row) : undefined;
  if (!key) throw new SheafError('thumbnail/not-found');
  return { row, png: await ctx.blobs.get(key) };
}

interface PreparedPdf {
  bytes: Uint8Array;
  isEncrypted: boolean;
  pages: PageSize[];
  /** A thumbnail already made (files unlocked on the way in); otherwise it is made in the background. */
  thumbnail: Uint8Array | null;
}

/** Cheap checks on the main thread, then the engine's full read in a worker. */
export async function preparePdf(bytes: Uint8Array): Promise<PreparedPdf> {
  if (bytes.length === 0) throw new SheafError('template/empty');
  if (Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.length, HEADER_SEARCH_BYTES)).indexOf(PDF_HEADER) < 0) {
    throw new SheafError('template/wrong-type');
  }
  const checked = await checkPdf(bytes);
  if (checked.kind === 'plain') return { bytes, isEncrypted: false, pages: checked.facts.pages, thumbnail: null };
  if (checked.kind === 'locked') return { bytes, isEncrypted: true, pages: [], thumbnail: null };
  // Only an owner password (restrictions): nothing to ask the user, so store it unlocked.
  const unlocked = await unlockPdf(bytes, '');
  return { bytes: unlocked.bytes, isEncrypted: false, pages: unlocked.pages, thumbnail: unlocked.png };
}

export interface NewTemplateInput {
  bytes: Uint8Array;
  name: string;
  /** The uploaded file's own name, whose extension tells a word-processor file (default `name`). */
  fileName?: string;
  customName?: string | null;
  placeholders?: Placeholder[];
  headersRowNo?: number;
  output?: TemplateOutputSettings;
}

/** Stores a PDF, or a word-processor document (as DOCX), as a new template of `ownerId` (upload and import). */
export async function createTemplate(ctx: AppContext, principal: Principal, input: NewTemplateInput): Promise<TemplateRow> {
  const ownerId = accountFor(principal, 'templates:write');
  const wordType = wordTypeOf(input.fileName ?? input.name);
  const word = wordType ? await prepareWord(ctx, input.bytes, wordType) : undefined;
  // A Word template's file is its DOCX; its printed PDF gives the pages and the thumbnail.
  const pdf: PreparedPdf = word ? { bytes: word.pdf, isEncrypted: false, pages: word.pages, thumbnail: null } : await preparePdf(input.bytes);
  const stored = word ? word.docx : pdf.bytes;
  const templateType = word ? 'sfdt' : 'pdf';
  const id = newId();
  const fileId = newId();
  const checksum = sha256Hex(stored);
  try {
    await ctx.blobs.put(blobLayout.template.file(id, fileId, templateType), stored);
    await insertTemplateRow(ctx.db, {
      id,
      ownerId,
      templateType,
      fileId,
      // Names from an upload are normalised at the edge already; an import's come from its JSON.
      name: normalizeFileName(input.name, 'template.pdf'),
      customName: input.customName == null ? null : normalizeDisplayName(input.customName, 255) || null,
      checksum,
      fileSize: stored.length,
      numPages: pdf.pages.length,
      pages: pdf.pages,
      isEncrypted: pdf.isEncrypted,
      placeholders: input.placeholders ?? [],
      headersRowNo: input.headersRowNo ?? 1,
      output: storeOutput(ctx.config.encryptionKey, input.output ?? DEFAULT_OUTPUT),
    });
  } catch (error) {
    // A template that was not made leaves no folder behind.
    await ctx.blobs.deletePrefix(blobLayout.template.folder(id)).catch(() => undefined);
    throw error;
  }
  // The print the upload made is the editor's pages (GET /templates/:id/printed), so it is kept.
  if (word) await ctx.blobs.put(blobLayout.template.printed(id, checksum), word.pdf).catch(() => undefined);
  await thumbnailFor(ctx, ownerId, id, checksum, pdf);
  return requireTemplate(ctx, ownerId, id);
}

async function thumbnailFor(ctx: AppContext, ownerId: string, id: string, checksum: string, pdf: PreparedPdf): Promise<void> {
  if (pdf.thumbnail) await storeThumbnail(ctx, ownerId, id, checksum, pdf.thumbnail);
  else if (!pdf.isEncrypted) scheduleThumbnail(ctx, ownerId, id, checksum, pdf.bytes);
}

/**
 * Writes the template's new PDF and its row as one unit (adapters/blobs/switch.ts): the file under a new
 * file id, the row switched to it in a transaction, the old file removed after the commit. A failed switch
 * (a refused update, a commit that fails) removes the new file; the old row and its file stay as they were.
 */
async function switchFile(ctx: AppContext, ownerId: string, id: string, bytes: Uint8Array, facts: Omit<FileFacts, 'fileId'>): Promise<void> {
  const fileId = newId();
  await writeAndSwitch(ctx.blobs, blobLayout.template.pdf(id, fileId), bytes, async () => {
    const switched = await ctx.db.transaction((tx) => updateTemplateFile(tx, ownerId, id, { ...facts, fileId }));
    if (!switched) throw new SheafError('template/not-found');
    // The old file's thumbnail goes with it (the row says none is made until the new one is).
    const thumbnails = [blobLayout.template.thumbnail(id, switched.previousChecksum), blobLayout.template.thumbnail(id, null)];
    return { result: undefined, replaced: [blobLayout.template.pdf(id, switched.previous), ...thumbnails] };
  }, async () => (await findTemplateFileId(ctx.db, ownerId, id)) === fileId);
}

/** A new PDF for the template. Placeholders stay, even those on pages the new file no longer has. */
export async function replaceFile(ctx: AppContext, principal: Principal, id: string, bytes: Uint8Array, name: string): Promise<TemplateDetail> {
  const ownerId = accountFor(principal, 'templates:write');
  const row = await requireTemplate(ctx, ownerId, id);
  if (row.template_type === 'sfdt') return replaceWordFile(ctx, principal, id, bytes, name);
  const pdf = await preparePdf(bytes);
  const checksum = sha256Hex(pdf.bytes);
  await switchFile(ctx, ownerId, id, pdf.bytes, {
    name, checksum, fileSize: pdf.bytes.length, numPages: pdf.pages.length, pages: pdf.pages, isEncrypted: pdf.isEncrypted,
  });
  await thumbnailFor(ctx, ownerId, id, checksum, pdf);
  return getDetail(ctx, principal, id);
}

/** Unlocks an encrypted template for good: the stored file becomes the decrypted PDF. */
export async function decrypt(ctx: AppContext, principal: Principal, id: string, password: string): Promise<{ isEncrypted: boolean; thumbnailImage: string | null }> {
  const ownerId = accountFor(principal, 'templates:write');
  const row = await requireTemplate(ctx, ownerId, id);
  if (!row.is_encrypted) {
    return { isEncrypted: false, thumbnailImage: row.has_thumbnail ? `/v1/templates/${id}/thumbnail?v=${row.checksum}` : null };
  }
  const unlocked = await unlockPdf(await readTemplatePdf(ctx, row), password);
  const checksum = sha256Hex(unlocked.bytes);
  await switchFile(ctx, ownerId, id, unlocked.bytes, {
    checksum, fileSize: unlocked.bytes.length, numPages: unlocked.pages.length, pages: unlocked.pages, isEncrypted: false,
  });
  if (!unlocked.png) return { isEncrypted: false, thumbnailImage: null };
  await storeThumbnail(ctx, ownerId, id, checksum, unlocked.png);
  return { isEncrypted: false, thumbnailImage: `data:image/png;base64,${Buffer.from(unlocked.png).toString('base64')}` };
}

export interface TemplateUpdate {
  customName?: string;
  headersRowNo?: number;
  output?: Partial<TemplateOutputSettings>;
}

export async function updateTemplate(ctx: AppContext, principal: Principal, id: string, update: TemplateUpdate): Promise<TemplateDetail> {
  const ownerId = accountFor(principal, 'templates:write');
  const row = await requireTemplate(ctx, ownerId, id);
  // A new header row must fit the attached spreadsheet (re-read with it), else nothing changes.
  if (update.headersRowNo !== undefined && update.headersRowNo !== row.headers_row_no) {
    await changeHeaderRow(ctx, ownerId, id, update.headersRowNo);
  }
  const key = ctx.config.encryptionKey;
  const customName = update.customName === undefined ? undefined : normalizeDisplayName(update.customName, 255);
  if (customName === '') throw new SheafError('generic/invalid-input', { detail: 'customName has no visible characters' });
  await updateTemplateFields(ctx.db, ownerId, id, {
    customName,
    headersRowNo: update.headersRowNo,
    output: update.output ? storeOutput(key, mergeOutput(readOutput(key, row.output), update.output)) : undefined,
  });
  return getDetail(ctx, principal, id);
}

export async function savePlaceholders(ctx: AppContext, principal: Principal, id: string, placeholders: Placeholder[], forceDeleteAll: boolean): Promise<TemplateDetail> {
  const ownerId = accountFor(principal, 'templates:write');
  await requireTemplate(ctx, ownerId, id);
  if (placeholders.length === 0 && !forceDeleteAll) {
    throw new SheafError('generic/invalid-input', { detail: 'saving no placeholders at all needs forceDeleteAllPlaceholders' });
  }
  await updateTemplateFields(ctx.db, ownerId, id, { placeholders });
  return getDetail(ctx, principal, id);
}

export async function saveSplitButtonSelection(ctx: AppContext, principal: Principal, id: string, selection: string): Promise<void> {
  const ownerId = accountFor(principal, 'templates:write');
  await requireTemplate(ctx, ownerId, id);
  await updateTemplateFields(ctx.db, ownerId, id, { splitButtonSelection: selection });
}

/** Deletes the template, its spreadsheet, images, history and all their files. */
export async function deleteTemplate(ctx: AppContext, principal: Principal, id: string): Promise<void> {
  const ownerId = accountFor(principal, 'templates:write');
  await requireTemplate(ctx, ownerId, id);
  // The modules above may refuse (a merge running: merges; a mailing still sending: email) and
  // clear their own files once the rows are gone (the merges' results).
  const afterDelete: Array<() => Promise<void>> = [];
  await ctx.events.emit('template.deleting', { ownerId, templateId: id, afterDelete });
  await deleteTemplateRow(ctx.db, ownerId, id);
  await ctx.blobs.deletePrefix(blobLayout.template.folder(id));
  for (const work of afterDelete) await work();
}

/**
 * A Word template's new document (PATCH updateSfdt: the document saved in the editor; PUT file: a new
 * upload of any word-processor type, named `name`). The same checks as an upload; fields stay.
 */
export async function replaceWordFile(ctx: AppContext, principal: Principal, id: string, bytes: Uint8Array, name?: string): Promise<TemplateDetail> {
  const ownerId = accountFor(principal, 'templates:write');
  const row = await requireTemplate(ctx, ownerId, id);
  if (row.template_type !== 'sfdt') throw new SheafError('template/wrong-type');
  const type = name === undefined ? 'docx' : wordTypeOf(name);
  if (!type) throw new SheafError('template/wrong-type');
  const word = await prepareWord(ctx, bytes, type);
  const checksum = sha256Hex(word.docx);
  const fileId = newId();
  await writeAndSwitch(ctx.blobs, blobLayout.template.file(id, fileId, 'sfdt'), word.docx, async () => {
    const facts = { checksum, fileId, fileSize: word.docx.length, numPages: word.pages.length, pages: word.pages, isEncrypted: false, ...(name ? { name } : {}) };
    const switched = await ctx.db.transaction((tx) => updateTemplateFile(tx, ownerId, id, facts));
    if (!switched) throw new SheafError('template/not-found');
    const replaced = [blobLayout.template.file(id, switched.previous, 'sfdt'), blobLayout.template.thumbnail(id, switched.previousChecksum)];
    if (switched.previousChecksum && switched.previousChecksum !== checksum) replaced.push(blobLayout.template.printed(id, switched.previousChecksum));
    return { result: undefined, replaced };
  }, async () => (await findTemplateFileId(ctx.db, ownerId, id)) === fileId);
  await ctx.blobs.put(blobLayout.template.printed(id, checksum), word.pdf).catch(() => undefined);
  scheduleThumbnail(ctx, ownerId, id, checksum, word.pdf);
  return getDetail(ctx, principal, id);
}
