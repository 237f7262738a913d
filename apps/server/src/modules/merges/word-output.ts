/**
 * A Word template's merge on the server (docs/word-templates.md#merging): prepared from the stored
 * request (rows, file names, passwords, the plan's watermark), its documents made by
 * merge-output/word-documents.ts (shared with `sheaf merge`) through the server's LibreOffice pool,
 * into the same resumable ZIP (or one combined file) as PDF templates.
 */
import { writeFile } from 'node:fs/promises';
import type { OutputDocument, PreparedWordMerge, SheetData } from '@sheaf/engine';
import type { AppContext } from '../../context.ts';
import { wordCombined, wordDocuments } from '../../merge-output/word-documents.ts';
import type { MergeRow } from './repository.ts';
import { outputOptionsOf } from './request.ts';
import { documentGroupColumn } from './selection.ts';

/** Whether the merge makes PDFs from its Word template (the default) or DOCX files. */
export function wordOutputOf(row: MergeRow): 'docx' | 'pdf' {
  return row.request.isSfdtPdfOutput === false ? 'docx' : 'pdf';
}

/** Prepares the merge of a Word template: its fields compiled once, rows chosen and grouped. */
export async function prepareWordMergeOf(ctx: AppContext, row: MergeRow, docx: Uint8Array, sheet: SheetData, placeholders: Parameters<typeof documentGroupColumn>[0], images?: ReadonlyMap<string, Uint8Array>): Promise<PreparedWordMerge> {
  const { prepareWordMerge } = await import('@sheaf/engine');
  const options = outputOptionsOf(ctx.config.encryptionKey, row.request);
  return prepareWordMerge({
    template: docx,
    sheet,
    rows: row.request.selection,
    groupBy: documentGroupColumn(placeholders),
    fileNamePattern: options.fileNamePattern,
    output: wordOutputOf(row),
    isCombinedOutput: options.isCombinedOutput,
    passwordProtection: options.passwordProtection,
    // The template's images, for {{%image Column}} tags (docs/word-templates.md#images-and-qr-codes).
    images,
    // The plan's watermark, decided when the merge started (docs/plans.md#watermark).
    watermark: options.watermark,
  });
}

/** The separate documents from `start`, as the ZIP writer takes them. */
export function wordDocumentsOf(ctx: AppContext, merge: PreparedWordMerge, start: number): AsyncGenerator<OutputDocument> {
  return wordDocuments(merge, (docx) => ctx.office.toPdf(docx), start, ctx.office.size);
}

/** The combined document (every row one after another) written to `file`. */
export async function writeWordCombined(ctx: AppContext, merge: PreparedWordMerge, file: string): Promise<void> {
  await writeFile(file, await wordCombined(merge, (docx) => ctx.office.toPdf(docx)));
}
