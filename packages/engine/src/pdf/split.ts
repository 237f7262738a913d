/**
 * Cuts the PDF of a batch document (docx/batch.ts, converted once by LibreOffice) into one PDF per
 * row (docs/word-templates.md#pdf-output-in-batches). Each row starts at the named destination of
 * its bookmark `SheafRow<k>` (LibreOffice writes them with BATCH_PDF_EXPORT_FILTER) and ends where
 * the next row starts.
 * Each document is written by batch-writer.ts (shared objects serialised once per batch).
 */
import { PDFArray, PDFDict, PDFDocument, PDFName, PDFRef, PDFString, PDFHexString, type PDFObject } from 'pdf-lib';
import { SheafError } from '@sheaf/shared';
import { ROW_BOOKMARK_PREFIX } from '../docx/batch.ts';
import { loadBatchPdf } from './batch-load.ts';
import { batchDocumentWriter } from './batch-writer.ts';

/**
 * The PDF export filter LibreOffice needs for the destinations, as `soffice --convert-to` takes it
 * (7.4 JSON syntax); over UNO, the filter data property ExportBookmarksToPDFDestination = true.
 */
export const BATCH_PDF_EXPORT_FILTER = 'pdf:writer_pdf_Export:{"ExportBookmarksToPDFDestination":{"type":"boolean","value":"true"}}';

/** Pages of one row's document, 0-based, inclusive. */
export interface PageRange {
  first: number;
  last: number;
}

export interface BatchPdf {
  readonly ranges: readonly PageRange[];
  /** The PDF of row `index`; the bytes of objects rows share are serialised once per batch. */
  document(index: number): Uint8Array;
}

/**
 * Reads the batch PDF of `count` rows whose destinations are named `${prefix}0` .. `${prefix}<count-1>`;
 * throws merge/word-pdf-row-missing when a row's destination is missing or out of order.
 */
export async function openBatchPdf(pdf: Uint8Array, count: number, prefix = ROW_BOOKMARK_PREFIX): Promise<BatchPdf> {
  const doc = await loadBatchPdf(pdf);
  const pages = doc.getPages().map((page) => page.ref);
  const pageIndex = new Map(pages.map((ref, index) => [ref.toString(), index]));
  const destinations = namedDestinations(doc);
  const starts: number[] = [];
  for (let row = 0; row < count; row++) {
    const target = destinations.get(`${prefix}${row}`);
    const page = target ? pageIndex.get(target.toString()) : undefined;
    if (page === undefined || (row > 0 && page <= starts[row - 1]!)) throw new SheafError('merge/word-pdf-row-missing', { row: row + 1 });
    starts.push(page);
  }
  if (count > 0 && starts[0] !== 0) throw new SheafError('merge/word-pdf-row-missing', { row: 1 });
  const ranges = starts.map((first, row) => ({ first, last: row + 1 < count ? starts[row + 1]! - 1 : pages.length - 1 }));

  const writer = batchDocumentWriter(doc, pdf);
  return {
    ranges,
    document(index) {
      const range = ranges[index]!;
      return writer.write(pages.slice(range.first, range.last + 1).map((ref) => ({ ref })));
    },
  };
}

/** Every row's PDF at once, for batches small enough to hold (the server's, of 100 documents). */
export async function splitPdfAtBookmarks(pdf: Uint8Array, count: number): Promise<Uint8Array[]> {
  const batch = await openBatchPdf(pdf, count);
  return batch.ranges.map((_, index) => batch.document(index));
}

/** Destination name -> the page its destination points at: the catalog's /Dests and the /Names /Dests tree. */
function namedDestinations(doc: PDFDocument): Map<string, PDFRef> {
  const found = new Map<string, PDFRef>();
  const pageOf = (value: PDFObject | undefined): PDFRef | undefined => {
    const resolved = value instanceof PDFRef ? doc.context.lookup(value) : value;
    const array = resolved instanceof PDFDict ? resolved.lookup(PDFName.of('D')) : resolved;
    const first = array instanceof PDFArray ? array.get(0) : undefined;
    return first instanceof PDFRef ? first : undefined;
  };
  const dests = doc.catalog.lookupMaybe(PDFName.of('Dests'), PDFDict);
  for (const [key, value] of dests?.entries() ?? []) {
    const page = pageOf(value);
    if (page) found.set(key.decodeText(), page);
  }
  const names = doc.catalog.lookupMaybe(PDFName.of('Names'), PDFDict)?.lookupMaybe(PDFName.of('Dests'), PDFDict);
  const visited = new Set<PDFDict>();
  const walk = (node: PDFDict | undefined) => {
    if (!node || visited.has(node)) return;
    visited.add(node);
    const pairs = node.lookupMaybe(PDFName.of('Names'), PDFArray);
    for (let index = 0; pairs && index + 1 < pairs.size(); index += 2) {
      const name = pairs.lookup(index);
      const page = pageOf(pairs.get(index + 1));
      if (page && (name instanceof PDFString || name instanceof PDFHexString)) found.set(name.decodeText(), page);
    }
    const kids = node.lookupMaybe(PDFName.of('Kids'), PDFArray);
    for (let index = 0; kids && index < kids.size(); index++) walk(kids.lookupMaybe(index, PDFDict));
  };
  walk(names);
  return found;
}
