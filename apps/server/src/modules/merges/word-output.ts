/**
 * The documents of a Word template's merge (docs/word-templates.md#merging): DOCX output filled by
 * the engine one document at a time; PDF output in batches, each batch one DOCX converted once by
 * LibreOffice and cut at its documents' bookmarks by the engine, then protected with the row's
 * passwords. Both feed the same resumable ZIP (or one combined file) as PDF templates do.
 */
import { writeFile } from 'node:fs/promises';
import type { OutputDocument, PreparedWordMerge, SheetData } from '@sheaf/engine';
import type { AppContext } from '../../context.ts';
import type { MergeRow } from './repository.ts';
import { outputOptionsOf } from './request.ts';
import { documentGroupColumn } from './selection.ts';

/** Documents per conversion: large enough that LibreOffice's per-file cost fades, small enough to stream. */
const PDF_BATCH_DOCUMENTS = 100;

/** Whether the merge makes PDFs from its Word template (the default) or DOCX files. */
export function wordOutputOf(row: MergeRow): 'docx' | 'pdf' {
  return row.request.isSfdtPdfOutput === false ? 'docx' : 'pdf';
}

/** Prepares the merge of a Word template: its fields compiled once, rows chosen and grouped. */
export async function prepareWordMergeOf(ctx: AppContext, row: MergeRow, docx: Uint8Array, sheet: SheetData, placeholders: Parameters<typeof documentGroupColumn>[0]): Promise<PreparedWordMerge> {
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
  });
}

/** The separate documents from `start`, as the ZIP writer takes them. */
export async function* wordDocuments(ctx: AppContext, merge: PreparedWordMerge, start: number): AsyncGenerator<OutputDocument> {
  if (merge.output === 'docx') {
    yield* merge.documents(start);
    return;
  }
  const { encryptPdf, openBatchPdf } = await import('@sheaf/engine');
  for (const batch of merge.batches(PDF_BATCH_DOCUMENTS, start)) {
    const pdf = await ctx.office.toPdf(batch.docx);
    const parts = await openBatchPdf(pdf, batch.documents.length);
    for (const [position, document] of batch.documents.entries()) {
      const passwords = merge.passwords(document.index);
      const own = parts.document(position);
      const bytes = passwords ? encryptPdf(own, passwords) : own;
      yield { ...document, chunks: [bytes], byteLength: bytes.length, sharedPrefixChunks: 0 };
    }
  }
}

/** The combined document (every row one after another) written to `file`. */
export async function writeWordCombined(ctx: AppContext, merge: PreparedWordMerge, file: string): Promise<void> {
  const docx = merge.combinedDocx();
  if (merge.output === 'docx') {
    await writeFile(file, docx);
    return;
  }
  const pdf = await ctx.office.toPdf(docx);
  const { encryptPdf } = await import('@sheaf/engine');
  const passwords = merge.passwords(0);
  await writeFile(file, passwords ? encryptPdf(pdf, passwords) : pdf);
}
