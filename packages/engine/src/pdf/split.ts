/**
 * Cuts the PDF of a batch document (docx/batch.ts, converted once by LibreOffice) into one PDF per
 * row (docs/word-templates.md#pdf-output-in-batches). Each row starts at the named destination of
 * its bookmark `SheafRow<k>` (LibreOffice writes them with BATCH_PDF_EXPORT_FILTER) and ends where
 * the next row starts.
 *
 * Speed: every object keeps its number, so an object's bytes are serialised once for the whole
 * batch and copied into each document that uses it (fonts, images: usually every document); only
 * page dictionaries (a new parent) and each document's page tree, catalog and xref are written per
 * document. pdf-lib's copyPages would serialise the shared fonts again for every row.
 */
import { PDFArray, PDFDict, PDFDocument, PDFName, PDFRef, PDFStream, PDFString, PDFHexString, type PDFObject } from 'pdf-lib';
import { SheafError } from '@sheaf/shared';
import { ROW_BOOKMARK_PREFIX } from '../docx/batch.ts';
import { concatBytes } from './bytes.ts';
import { classicXrefSection, serializeObject, type XrefPlacement } from './writer.ts';

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

const INHERITED = ['Resources', 'MediaBox', 'CropBox', 'Rotate'].map((name) => PDFName.of(name));
const PARENT = PDFName.of('Parent');
const BINARY_MARK = new Uint8Array([0x25, 0xe2, 0xe3, 0xcf, 0xd3, 0x0a]);

/**
 * Reads the batch PDF of `count` rows whose destinations are named `${prefix}0` .. `${prefix}<count-1>`;
 * throws merge/word-pdf-row-missing when a row's destination is missing or out of order.
 */
export async function openBatchPdf(pdf: Uint8Array, count: number, prefix = ROW_BOOKMARK_PREFIX): Promise<BatchPdf> {
  const doc = await PDFDocument.load(pdf, { updateMetadata: false, throwOnInvalidObject: false });
  const { context } = doc;
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

  const header = concatBytes([pdf.subarray(0, pdf.indexOf(0x0a) + 1), BINARY_MARK]);
  const serialised = new Map<string, Uint8Array>();
  const pagesRef = PDFRef.of(context.largestObjectNumber + 1);
  const catalogRef = PDFRef.of(context.largestObjectNumber + 2);

  return {
    ranges,
    document(index) {
      const range = ranges[index]!;
      const own = new Map<string, Uint8Array>();
      const kids: PDFRef[] = [];
      const roots: PDFObject[] = [];
      for (let page = range.first; page <= range.last; page++) {
        const ref = pages[page]!;
        const leaf = standalonePage(context.lookup(ref, PDFDict), pagesRef);
        own.set(ref.toString(), serializeObject(ref, leaf));
        kids.push(ref);
        roots.push(leaf);
      }
      const used = reachable(roots, context, own);
      const parts: Uint8Array[] = [header];
      const placements: XrefPlacement[] = [];
      let offset = header.length;
      const place = (ref: PDFRef, bytes: Uint8Array) => {
        placements.push({ number: ref.objectNumber, generation: ref.generationNumber, offset });
        parts.push(bytes);
        offset += bytes.length;
      };
      for (const ref of used) {
        const key = ref.toString();
        let bytes = own.get(key) ?? serialised.get(key);
        if (!bytes) {
          bytes = serializeObject(ref, context.lookup(ref)!);
          serialised.set(key, bytes);
        }
        place(ref, bytes);
      }
      place(pagesRef, serializeObject(pagesRef, context.obj({ Type: 'Pages', Kids: kids, Count: kids.length })));
      place(catalogRef, serializeObject(catalogRef, context.obj({ Type: 'Catalog', Pages: pagesRef })));
      parts.push(classicXrefSection(placements, { size: catalogRef.objectNumber + 1, root: catalogRef }, context, offset));
      return concatBytes(parts);
    },
  };
}

/** Every row's PDF at once, for batches small enough to hold (the server's, of 100 documents). */
export async function splitPdfAtBookmarks(pdf: Uint8Array, count: number): Promise<Uint8Array[]> {
  const batch = await openBatchPdf(pdf, count);
  return batch.ranges.map((_, index) => batch.document(index));
}

/** A copy of a page dictionary under `parent`, carrying the attributes it inherited from the page tree. */
function standalonePage(page: PDFDict, parent: PDFRef): PDFDict {
  const leaf = page.clone();
  for (const name of INHERITED) {
    if (leaf.has(name)) continue;
    for (let node = page.lookupMaybe(PARENT, PDFDict); node; node = node.lookupMaybe(PARENT, PDFDict)) {
      const value = node.get(name);
      if (value !== undefined) {
        leaf.set(name, value);
        break;
      }
    }
  }
  leaf.set(PARENT, parent);
  return leaf;
}

/**
 * Every object the document's pages use, in object-number order. Page dictionaries' parents are
 * not followed (the document gets its own page tree), nor pages of other rows that a link names.
 */
function reachable(roots: readonly PDFObject[], context: PDFDocument['context'], own: ReadonlyMap<string, Uint8Array>): PDFRef[] {
  const seen = new Set<string>(own.keys());
  const refs: PDFRef[] = [];
  const stack: PDFObject[] = [...roots];
  for (const key of own.keys()) refs.push(refOf(key));
  while (stack.length > 0) {
    const object = stack.pop()!;
    if (object instanceof PDFRef) {
      const key = object.toString();
      if (seen.has(key)) continue;
      seen.add(key);
      const target = context.lookup(object);
      if (target === undefined || isPageTreeNode(target)) continue;
      refs.push(object);
      stack.push(target);
    } else if (object instanceof PDFDict) {
      for (const [key, value] of object.entries()) if (key !== PARENT || !isPageTreeNode(object)) stack.push(value);
    } else if (object instanceof PDFArray) {
      for (let index = 0; index < object.size(); index++) stack.push(object.get(index));
    } else if (object instanceof PDFStream) {
      stack.push(object.dict);
    }
  }
  return refs.sort((a, b) => a.objectNumber - b.objectNumber);
}

const refOf = (key: string) => {
  const [number, generation] = key.split(' ');
  return PDFRef.of(Number(number), Number(generation));
};

function isPageTreeNode(object: PDFObject): boolean {
  if (!(object instanceof PDFDict)) return false;
  const type = object.get(PDFName.of('Type'));
  return type === PDFName.of('Page') || type === PDFName.of('Pages');
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
