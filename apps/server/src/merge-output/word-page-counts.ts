/**
 * PDF output of a Word template that prints page counts ("Page X of N"; docs/word-templates.md#pdf-output-in-batches):
 * LibreOffice counts NUMPAGES over a whole batch, so each document's count is written in as text
 * (the engine's `countedDocx`) and checked against the pages the conversion gave it. The count
 * written first is a guess, the most common count of the merge's previous batch (1 at first): a
 * document whose pages match it is done in one conversion; the others are converted again, as a
 * smaller batch, with the count they took. A count that still differs (a count changing the layout it
 * is printed in) has its document converted alone, where LibreOffice's own count is the document's.
 */
import type { BatchPdf, PreparedWordMerge, WordBatch } from '@sheaf/engine';

/** A DOCX as PDF: `OfficeConverter.toPdf` (adapters/office), passed in so no process is started here. */
export type DocxToPdf = (docx: Uint8Array) => Promise<Uint8Array>;

/** Conversions with counts written in before a document whose count still differs is converted alone. */
const COUNTED_CONVERSIONS = 3;

/**
 * What a merge learnt from its batches: the page count it writes first (what most documents of the
 * last one had), and how stamping went (stamp batches that matched their reference, and that did not).
 */
export interface PageCountGuess {
  pages: number;
  stamped?: number;
  unstamped?: number;
}

/** Stamp batches that may fail to match before a merge stops trying (a template LibreOffice draws in a way the engine cannot match). */
const STAMP_ATTEMPTS = 2;

/**
 * The batch's PDFs through a stamp batch (docs/word-templates.md#stamped-batches): one conversion
 * prints the first document and every document's variable blocks; the documents it cannot make
 * (a block of another height) are printed the ordinary way in one more conversion. Undefined when
 * the template cannot be stamped or the stamp batch does not match its reference.
 */
async function stampedPdfs(batch: WordBatch, toPdf: DocxToPdf): Promise<Uint8Array[] | undefined> {
  const stamp = batch.stamp;
  if (!stamp) return undefined;
  const { openBatchPdf, openStampPdf } = await import('@sheaf/engine');
  // A stamp batch that fails to convert or to read is printed the ordinary way, which reports any error that persists.
  const stamped = await toPdf(stamp.docx).then((pdf) => openStampPdf(pdf, batch.documents.length, stamp.layout)).catch(() => undefined);
  if (!stamped) return undefined;
  const pdfs = batch.documents.map((_, position) => stamped.document(position));
  const missing = pdfs.flatMap((pdf, position) => (pdf ? [] : [position]));
  if (missing.length > 0) {
    const parts = await openBatchPdf(await toPdf(batch.subset(missing)), missing.length);
    missing.forEach((position, index) => (pdfs[position] = parts.document(index)));
  }
  return pdfs as Uint8Array[];
}

const pageCounts = (pdf: BatchPdf) => pdf.ranges.map((range) => range.last - range.first + 1);

/** The most frequent of `counts` (the smaller on a tie). */
function mostCommon(counts: readonly number[]): number {
  const tally = new Map<number, number>();
  for (const count of counts) tally.set(count, (tally.get(count) ?? 0) + 1);
  return [...tally].sort((a, b) => b[1] - a[1] || a[0] - b[0])[0]![0];
}

/** The PDF of each document of `batch`, in order, each with its own page count. */
export async function batchDocumentPdfs(batch: WordBatch, toPdf: DocxToPdf, guess: PageCountGuess = { pages: 1 }): Promise<Uint8Array[]> {
  const { openBatchPdf } = await import('@sheaf/engine');
  const count = batch.documents.length;
  if (!batch.countedDocx) {
    // One batch's reference may not match (its first row prints a block as nothing, say); a template that never does is not tried again.
    const trying = (guess.stamped ?? 0) > 0 || (guess.unstamped ?? 0) < STAMP_ATTEMPTS;
    const stamped = trying ? await stampedPdfs(batch, toPdf) : undefined;
    if (stamped) guess.stamped = (guess.stamped ?? 0) + 1;
    else if (trying && batch.stamp) guess.unstamped = (guess.unstamped ?? 0) + 1;
    if (stamped) return stamped;
    const parts = await openBatchPdf(await toPdf(batch.docx), count);
    return batch.documents.map((_, position) => parts.document(position));
  }
  const pdfs: Uint8Array[] = [];
  const written = batch.documents.map(() => guess.pages);
  const pages: number[] = [];
  let pending = batch.documents.map((_, position) => position);
  for (let conversion = 0; conversion < COUNTED_CONVERSIONS && pending.length > 0; conversion++) {
    const parts = await openBatchPdf(await toPdf(batch.countedDocx(pending, pending.map((position) => written[position]!))), pending.length);
    const counts = pageCounts(parts);
    const next: number[] = [];
    pending.forEach((position, index) => {
      pages[position] = counts[index]!;
      if (counts[index] === written[position]) pdfs[position] = parts.document(index);
      else {
        written[position] = counts[index]!;
        next.push(position);
      }
    });
    pending = next;
  }
  for (const position of pending) pdfs[position] = (await openBatchPdf(await toPdf(batch.alone(position)), 1)).document(0);
  guess.pages = mostCommon(pages);
  return pdfs;
}

/** The combined PDF, each document printing its own page count (converted again with the counts it took until they settle). */
export async function combinedPdf(merge: PreparedWordMerge, toPdf: DocxToPdf): Promise<Uint8Array> {
  const count = merge.combinedDocumentCount;
  if (!merge.countsPages || count < 2) return toPdf(merge.combinedDocx());
  const { openBatchPdf } = await import('@sheaf/engine');
  let written = Array.from({ length: count }, () => 1);
  let pdf = await toPdf(merge.combinedDocx(written));
  for (let conversion = 1; conversion < COUNTED_CONVERSIONS; conversion++) {
    const counts = pageCounts(await openBatchPdf(pdf, count));
    if (counts.every((pages, index) => pages === written[index])) break;
    written = counts;
    pdf = await toPdf(merge.combinedDocx(written));
  }
  return pdf;
}
