/**
 * The documents of a Word template's merge (docs/word-templates.md#merging), shared by `sheaf merge`
 * and the server's merge jobs: DOCX output filled by the engine one document at a time; PDF output
 * in batches, each batch one DOCX converted once (LibreOffice, by the caller's converter) and cut at
 * its documents' bookmarks by the engine, then protected with the document's passwords. Templates
 * printing "Page X of N" get each document's own count (word-page-counts.ts); templates with endnotes
 * convert one document at a time.
 */
import type { OutputDocument, PreparedWordMerge, WordBatch } from '@sheaf/engine';
import { batchDocumentPdfs, combinedPdf, type DocxToPdf } from './word-page-counts.ts';

// A DOCX as PDF (`OfficeConverter.toPdf`), passed in so this file starts no process; declared beside the page counts.
export type { DocxToPdf };

/** Documents per conversion at most: large enough that LibreOffice's per-file cost fades, small enough to stream. */
export const PDF_BATCH_DOCUMENTS = 100;

/**
 * Documents per conversion for `count` documents on `parallel` LibreOffice processes: at most
 * PDF_BATCH_DOCUMENTS, in rounds of one batch per process, all of about the same size. LibreOffice's
 * time is per page, not per conversion (bench/README.md#word-templates-to-pdf), so 100 documents on two
 * processes convert as two batches of 50 at once rather than one of 100, and 300 as four of 75
 * rather than two rounds of 100 whose second leaves a process idle.
 */
export function pdfBatchSize(count: number, parallel: number): number {
  const processes = Math.max(1, parallel);
  const rounds = Math.max(1, Math.ceil(count / (PDF_BATCH_DOCUMENTS * processes)));
  return Math.max(1, Math.ceil(count / (rounds * processes)));
}

/**
 * The separate documents from `start`, as the ZIP writer takes them, in order. PDF output keeps up to
 * `parallel` batches converting at once (the converter's pool size): LibreOffice is most of the time,
 * and each conversion uses one core (bench/README.md, word-pdf: two at once measured 20-25% faster).
 */
export async function* wordDocuments(merge: PreparedWordMerge, toPdf: DocxToPdf, start = 0, parallel = 1): AsyncGenerator<OutputDocument> {
  if (merge.output === 'docx') {
    yield* merge.documents(start);
    return;
  }
  const { encryptPdf } = await import('@sheaf/engine');
  // LibreOffice prints a batch's endnotes after its last document: one document per conversion then.
  const batches = merge.batches(merge.hasEndnotes ? 1 : pdfBatchSize(merge.documentCount - start, parallel), start);
  const converting: Array<Promise<{ batch: WordBatch; pdfs: Uint8Array[] }>> = [];
  const pageCountGuess = { pages: 1 };
  const convertNext = (): boolean => {
    const next = batches.next();
    if (next.done) return false;
    const batch = next.value;
    const converted = batchDocumentPdfs(batch, toPdf, pageCountGuess).then((pdfs) => ({ batch, pdfs }));
    converted.catch(() => undefined); // awaited in order below; a merge stopped early leaves it unread
    converting.push(converted);
    return true;
  };
  while (converting.length < Math.max(1, parallel) && convertNext());
  while (converting.length) {
    const { batch, pdfs } = await converting.shift()!;
    convertNext();
    for (const [position, document] of batch.documents.entries()) {
      const passwords = merge.passwords(document.index);
      const own = pdfs[position]!;
      const bytes = passwords ? encryptPdf(own, passwords) : own;
      yield { ...document, chunks: [bytes], byteLength: bytes.length, sharedPrefixChunks: 0 };
    }
  }
}

/** The combined document (every document one after another, each from a new page), DOCX or PDF. */
export async function wordCombined(merge: PreparedWordMerge, toPdf: DocxToPdf): Promise<Uint8Array> {
  if (merge.output === 'docx') return merge.combinedDocx();
  const pdf = await combinedPdf(merge, toPdf);
  const { encryptPdf } = await import('@sheaf/engine');
  const passwords = merge.passwords(0);
  return passwords ? encryptPdf(pdf, passwords) : pdf;
}
