/**
 * The documents of a Word template's merge (docs/word-templates.md#merging), shared by `sheaf merge`
 * and the server's merge jobs: DOCX output filled by the engine one document at a time; PDF output
 * in batches, each batch one DOCX converted once (LibreOffice, by the caller's converter) and cut at
 * its documents' bookmarks by the engine, then protected with the document's passwords.
 */
import type { OutputDocument, PreparedWordMerge, WordBatch } from '@sheaf/engine';

/** A DOCX as PDF: `OfficeConverter.toPdf` (adapters/office), passed in so this file starts no process. */
export type DocxToPdf = (docx: Uint8Array) => Promise<Uint8Array>;

/** Documents per conversion: large enough that LibreOffice's per-file cost fades, small enough to stream. */
export const PDF_BATCH_DOCUMENTS = 100;

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
  const { encryptPdf, openBatchPdf } = await import('@sheaf/engine');
  const batches = merge.batches(PDF_BATCH_DOCUMENTS, start);
  const converting: Array<Promise<{ batch: WordBatch; pdf: Uint8Array }>> = [];
  const convertNext = (): boolean => {
    const next = batches.next();
    if (next.done) return false;
    const batch = next.value;
    const converted = toPdf(batch.docx).then((pdf) => ({ batch, pdf }));
    converted.catch(() => undefined); // awaited in order below; a merge stopped early leaves it unread
    converting.push(converted);
    return true;
  };
  while (converting.length < Math.max(1, parallel) && convertNext());
  while (converting.length) {
    const { batch, pdf } = await converting.shift()!;
    convertNext();
    const parts = await openBatchPdf(pdf, batch.documents.length);
    for (const [position, document] of batch.documents.entries()) {
      const passwords = merge.passwords(document.index);
      const own = parts.document(position);
      const bytes = passwords ? encryptPdf(own, passwords) : own;
      yield { ...document, chunks: [bytes], byteLength: bytes.length, sharedPrefixChunks: 0 };
    }
  }
}

/** The combined document (every document one after another, each from a new page), DOCX or PDF. */
export async function wordCombined(merge: PreparedWordMerge, toPdf: DocxToPdf): Promise<Uint8Array> {
  const docx = merge.combinedDocx();
  if (merge.output === 'docx') return docx;
  const pdf = await toPdf(docx);
  const { encryptPdf } = await import('@sheaf/engine');
  const passwords = merge.passwords(0);
  return passwords ? encryptPdf(pdf, passwords) : pdf;
}
