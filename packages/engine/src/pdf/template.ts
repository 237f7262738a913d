/**
 * Loads a template once per merge: parses it with pdf-lib, reads each page's geometry, resources and
 * contents, and settles the bytes every output is appended to (the original when its xref chain is
 * sound, a clean rewrite when the user asked for repair).
 */
import { PDFArray, PDFDict, PDFDocument, PDFInvalidObject, PDFName, PDFNumber, PDFRawStream, PDFRef, PDFStream } from 'pdf-lib';
import { MAX_UPLOAD_BYTES } from '@sheaf/shared/constants';
import { SheafError } from '@sheaf/shared/errors';
import { indexOf } from './bytes.ts';
import { normaliseRect, pageGeometry, type PageGeometry, type Rect } from './geometry.ts';
import { readXrefChain, type XrefChain } from './xref.ts';
import { contentSyntaxError } from './contentCheck.ts';
import { decodeBudget, decodeStreamWithin, type DecodeBudget } from './decode.ts';
import { checkObjectStreams } from './object-streams.ts';

export interface TemplatePage extends PageGeometry {
  index: number;
  ref: PDFRef;
  dict: PDFDict;
  /** Effective (possibly inherited) resources, resolved to a dictionary. */
  resources: PDFDict;
  /** The page's content streams, in order. */
  contents: PDFRef[];
}

export interface Template {
  doc: PDFDocument;
  /** Bytes every incremental update is appended to. */
  base: Uint8Array;
  chain: XrefChain;
  pages: TemplatePage[];
  /** True when the base is a rewrite of a damaged original. */
  repaired: boolean;
  /** What decoding this template's streams may still cost (a merge decodes each page's content once). */
  budget: DecodeBudget;
}

export interface LoadTemplateOptions {
  /** Rewrite a damaged file instead of refusing it. */
  repair?: boolean;
}

export async function loadTemplate(bytes: Uint8Array, options: LoadTemplateOptions = {}): Promise<Template> {
  checkTemplateBytes(bytes);
  const original = await parse(bytes);
  const reading = readXrefChain(bytes);
  // Outputs reuse the original bytes, so every flaw in them would reach every output.
  const damage = reading.sound ? findDamage(original, decodeBudget(bytes.length)) : reading.reason;
  if (damage === undefined && reading.sound) return describeOrRefuse(original, bytes, reading.chain, false);
  if (!options.repair) throw new SheafError('template/damaged', { detail: damage! });
  // pdf-lib reads objects front to back, so it recovers what a broken xref hides; its rewrite is sound
  // once content lists name only streams that exist.
  dropMissingContents(original);
  let rewritten: Uint8Array;
  try {
    rewritten = await original.save({ useObjectStreams: false, addDefaultPage: false, updateFieldAppearances: false });
  } catch (error) {
    throw new SheafError('template/corrupt', { detail: error instanceof Error ? error.message : String(error) }, { cause: error });
  }
  const again = readXrefChain(rewritten);
  const repaired = await parse(rewritten);
  const left = again.sound ? findDamage(repaired, decodeBudget(bytes.length)) : again.reason;
  if (left !== undefined || !again.sound) throw new SheafError('template/corrupt', { detail: left ?? 'unreadable' });
  return describeOrRefuse(repaired, rewritten, again.chain, true);
}

/** Objects pdf-lib could not read, or page contents that do not decode: the file is damaged. */
function findDamage(doc: PDFDocument, budget: DecodeBudget): string | undefined {
  for (const [ref, object] of doc.context.enumerateIndirectObjects()) {
    if (object instanceof PDFInvalidObject) return `object ${ref.objectNumber} cannot be read`;
  }
  try {
    for (const [index, page] of doc.getPages().entries()) {
      const contents = page.node.get(PDFName.of('Contents'));
      const listed = contents instanceof PDFRef ? doc.context.lookup(contents) : contents;
      const refs = listed instanceof PDFArray ? listed.asArray() : [contents];
      if (refs.some((ref) => ref instanceof PDFRef && !(doc.context.lookup(ref) instanceof PDFStream))) {
        return `page ${index + 1} names content that does not exist`;
      }
      for (const ref of contentRefs(doc, page.node)) {
        const stream = doc.context.lookup(ref);
        if (!(stream instanceof PDFRawStream)) continue;
        const syntax = contentSyntaxError(decodeStreamWithin(stream, budget));
        if (syntax) return `a page's content is damaged (${syntax})`;
      }
    }
  } catch (error) {
    if (error instanceof SheafError) throw error;
    return `a page's content cannot be decoded (${error instanceof Error ? error.message : String(error)})`;
  }
  return undefined;
}

function dropMissingContents(doc: PDFDocument): void {
  for (const page of doc.getPages()) {
    const contents = page.node.get(PDFName.of('Contents'));
    const listed = contents instanceof PDFRef ? doc.context.lookup(contents) : contents;
    if (!(listed instanceof PDFArray)) continue;
    const streams = listed.asArray().filter((ref) => ref instanceof PDFRef && doc.context.lookup(ref) instanceof PDFStream);
    page.node.set(PDFName.of('Contents'), doc.context.obj(streams));
  }
}

function describeOrRefuse(doc: PDFDocument, base: Uint8Array, chain: XrefChain, repaired: boolean): Template {
  try {
    return describe(doc, base, chain, repaired);
  } catch (error) {
    throw new SheafError('template/corrupt', { detail: error instanceof Error ? error.message : String(error) }, { cause: error });
  }
}

/** Size, emptiness and magic-byte checks, before any parsing. */
export function checkTemplateBytes(bytes: Uint8Array): void {
  if (bytes.length === 0) throw new SheafError('template/empty');
  if (bytes.length > MAX_UPLOAD_BYTES) throw new SheafError('template/too-large', { maxMb: MAX_UPLOAD_BYTES / 1_048_576 });
  // Readers accept up to 1 KB of junk before the header.
  if (indexOf(bytes, '%PDF-', 0, 1024 + 5) < 0) throw new SheafError('template/wrong-type');
}

async function parse(bytes: Uint8Array): Promise<PDFDocument> {
  checkObjectStreams(bytes, decodeBudget(bytes.length));
  let doc: PDFDocument;
  try {
    doc = await PDFDocument.load(bytes, { ignoreEncryption: true, updateMetadata: false, throwOnInvalidObject: false });
  } catch (error) {
    throw new SheafError('template/corrupt', { detail: error instanceof Error ? error.message : String(error) }, { cause: error });
  }
  if (doc.isEncrypted) throw new SheafError('template/encrypted');
  let count: number;
  try {
    count = doc.getPageCount();
  } catch (error) {
    throw new SheafError('template/corrupt', { detail: 'the page tree cannot be read' }, { cause: error });
  }
  if (count === 0) throw new SheafError('template/no-pages');
  return doc;
}

function describe(doc: PDFDocument, base: Uint8Array, chain: XrefChain, repaired: boolean): Template {
  // pdf-lib forgets object-stream and xref-stream containers; new objects must not reuse their numbers.
  doc.context.largestObjectNumber = Math.max(doc.context.largestObjectNumber, chain.size - 1);
  const pages = doc.getPages().map((page, index): TemplatePage => {
    const node = page.node;
    const mediaBox = rectOf(node.MediaBox()) ?? ([0, 0, 612, 792] as Rect);
    const cropBox = rectOf(node.CropBox());
    const rotate = node.Rotate()?.asNumber() ?? 0;
    return {
      index,
      ref: page.ref,
      dict: node,
      resources: node.Resources() ?? doc.context.obj({}),
      contents: contentRefs(doc, node),
      ...pageGeometry(mediaBox, cropBox, rotate),
    };
  });
  return { doc, base, chain, pages, repaired, budget: decodeBudget(base.length) };
}

function rectOf(array: PDFArray | undefined): Rect | undefined {
  if (!array || array.size() < 4) return undefined;
  const numbers = array.asArray().map((item) => (item instanceof PDFNumber ? item.asNumber() : NaN));
  return numbers.every(Number.isFinite) ? normaliseRect(numbers) : undefined;
}

function contentRefs(doc: PDFDocument, node: PDFDict): PDFRef[] {
  const contents = node.get(PDFName.of('Contents'));
  const resolved = contents instanceof PDFRef ? doc.context.lookup(contents) : contents;
  if (contents instanceof PDFRef && (resolved instanceof PDFStream || resolved instanceof PDFRawStream)) return [contents];
  if (resolved instanceof PDFArray) return resolved.asArray().filter((item): item is PDFRef => item instanceof PDFRef);
  return [];
}
