/**
 * Writes one document of a batch PDF (LibreOffice's print of many documents) from some of its pages,
 * for pdf/split.ts and pdf/stamp/. Every object keeps its number, so an object's bytes are serialised
 * once for the whole batch and copied into each document that uses it (fonts, images: usually every
 * document); only page dictionaries (a new parent), any page content replaced for this document, and
 * each document's page tree, catalog and xref are written per document. pdf-lib's copyPages would
 * serialise the shared fonts again for every row.
 */
import { PDFArray, PDFDict, PDFName, PDFRef, PDFStream, type PDFDocument, type PDFObject } from 'pdf-lib';
import { concatBytes } from './bytes.ts';
import { classicXrefSection, serializeObject, type XrefPlacement } from './writer.ts';

/** A page of the document: the batch's page `ref`, with `contents` (a new content stream) in place of its own. */
export interface DocumentPage {
  ref: PDFRef;
  contents?: PDFStream;
}

export interface BatchDocumentWriter {
  write(pages: readonly DocumentPage[]): Uint8Array;
}

const INHERITED = ['Resources', 'MediaBox', 'CropBox', 'Rotate'].map((name) => PDFName.of(name));
const PARENT = PDFName.of('Parent');
const CONTENTS = PDFName.of('Contents');
const BINARY_MARK = new Uint8Array([0x25, 0xe2, 0xe3, 0xcf, 0xd3, 0x0a]);

/** `pdf`: the batch's bytes (its header line is kept); `doc`: the same, loaded. */
export function batchDocumentWriter(doc: PDFDocument, pdf: Uint8Array): BatchDocumentWriter {
  const { context } = doc;
  const header = concatBytes([pdf.subarray(0, pdf.indexOf(0x0a) + 1), BINARY_MARK]);
  const serialised = new Map<string, Uint8Array>();
  const pagesRef = PDFRef.of(context.largestObjectNumber + 1);
  const catalogRef = PDFRef.of(context.largestObjectNumber + 2);
  return {
    write(pages) {
      const own = new Map<string, Uint8Array>();
      const kids: PDFRef[] = [];
      const roots: PDFObject[] = [];
      let nextNumber = catalogRef.objectNumber + 1;
      for (const page of pages) {
        const leaf = standalonePage(context.lookup(page.ref, PDFDict), pagesRef);
        if (page.contents) {
          const ref = PDFRef.of(nextNumber++);
          own.set(ref.toString(), serializeObject(ref, page.contents));
          leaf.set(CONTENTS, ref);
        }
        own.set(page.ref.toString(), serializeObject(page.ref, leaf));
        kids.push(page.ref);
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
      parts.push(classicXrefSection(placements, { size: nextNumber, root: catalogRef }, context, offset));
      return concatBytes(parts);
    },
  };
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
 * Every object the document's pages use, in object-number order, `own` (already written) included.
 * Page dictionaries' parents are not followed (the document gets its own page tree), nor pages of
 * other rows that a link names.
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
