/**
 * Loads a PDF LibreOffice printed (a batch: pdf/split.ts, pdf/stamp/), every stream whole
 * (stream-ends.ts: LibreOffice's indirect /Length would cost a stream ending in a carriage return its
 * last byte).
 */
import { PDFDocument } from 'pdf-lib';
import { restoreStreamEnds } from './stream-ends.ts';

export async function loadBatchPdf(pdf: Uint8Array): Promise<PDFDocument> {
  const doc = await PDFDocument.load(pdf, { updateMetadata: false, throwOnInvalidObject: false });
  restoreStreamEnds(doc.context);
  return doc;
}
