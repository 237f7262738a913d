/**
 * A synchronous, forgiving whole-file scan built on pdf-lib's object parser. pdf-lib's own
 * PDFDocument.load is asynchronous and expands object streams while it parses, which fails on
 * encrypted files (an object stream must be decrypted first). This scan reads every indirect object
 * in file order (later definitions win, as with pdf-lib), skips junk and damaged objects, and
 * collects the trailer entries of trailer dictionaries and cross-reference streams.
 */
import { PDFContext, PDFDict, PDFName, PDFParser, PDFRawStream, PDFRef } from 'pdf-lib';
import type { PDFObject } from 'pdf-lib';
import { SheafError } from '@sheaf/shared/errors';
import { withStreamEnd } from '../pdf/stream-ends.ts';

export interface ScannedObject {
  ref: PDFRef;
  object: PDFObject;
}

export interface TrailerEntries {
  Root?: PDFObject;
  Info?: PDFObject;
  ID?: PDFObject;
  Encrypt?: PDFObject;
}

export interface ScannedPdf {
  /** Holds the scanned top-level objects, so lookups through references work. */
  context: PDFContext;
  /** Header version, e.g. "1.7". */
  version: string;
  /** Every indirect object in file order, object and cross-reference streams included. */
  objects: ScannedObject[];
  trailer: TrailerEntries;
}

const keyword = (text: string): number[] => Array.from(text, (char) => char.charCodeAt(0));
const OBJ = keyword('obj');
const ENDOBJ = keyword('endobj');
const XREF = keyword('xref');
const TRAILER = keyword('trailer');
const STARTXREF = keyword('startxref');
const HEADER = keyword('%PDF-');
/** ISO 32000 limits; anything larger is damage, not an object. */
export const MAX_OBJECT_NUMBER = 8_388_607;
const MAX_GENERATION = 65_535;
const TRAILER_KEYS = ['Root', 'Info', 'ID', 'Encrypt'] as const;

const isDigit = (byte: number): boolean => byte >= 0x30 && byte <= 0x39;

function indexOf(haystack: Uint8Array, needle: readonly number[], from: number): number {
  for (let at = haystack.indexOf(needle[0], from); at >= 0; at = haystack.indexOf(needle[0], at + 1)) {
    let i = 1;
    while (i < needle.length && haystack[at + i] === needle[i]) i++;
    if (i === needle.length) return at;
  }
  return -1;
}

export function isStreamOfType(object: PDFObject, type: string): object is PDFRawStream {
  return object instanceof PDFRawStream && object.dict.get(PDFName.of('Type')) === PDFName.of(type);
}

class PdfScanner extends PDFParser {
  private readonly source: Uint8Array;
  private readonly objects: ScannedObject[] = [];
  private readonly trailer: TrailerEntries = {};
  /** Where the next "endobj" after a damaged object is, remembered so recovery stays linear. */
  private nextEndobj = -1;

  constructor(bytes: Uint8Array) {
    super(bytes, Infinity, false, false);
    this.source = bytes;
  }

  scan(requireHeader: boolean): ScannedPdf {
    const version = requireHeader ? this.readHeader() : '';
    let previous = -1;
    while (!this.bytes.done()) {
      this.readObjects();
      this.skipXrefTable();
      this.readTrailer();
      this.skipStartxref();
      this.skipJunk();
      const offset = this.bytes.offset();
      if (offset === previous) this.bytes.next();
      previous = offset;
    }
    // Streams with an indirect /Length (LibreOffice's) are read whole (pdf/stream-ends.ts), once every length object is known.
    for (const scanned of this.objects) {
      const original = scanned.object;
      const restored = withStreamEnd(original, this.context);
      if (restored === original) continue;
      scanned.object = restored;
      // Only the definition that won (the last one) is the context's.
      if (this.context.lookup(scanned.ref) === original) this.context.assign(scanned.ref, restored);
    }
    return { context: this.context, version, objects: this.objects, trailer: this.trailer };
  }

  private readHeader(): string {
    const at = indexOf(this.source, HEADER, 0);
    if (at < 0) throw new SheafError('template/corrupt', { detail: 'no PDF header' });
    let end = at + HEADER.length;
    while (end < this.source.length && (isDigit(this.source[end]) || this.source[end] === 0x2e)) end++;
    const version = String.fromCharCode(...this.source.subarray(at + HEADER.length, end));
    this.bytes.moveTo(end);
    return /^\d\.\d$/.test(version) ? version : '1.7';
  }

  /** "12 0 obj": the reference, or undefined with the position unchanged. */
  private readObjectHeader(): PDFRef | undefined {
    const start = this.bytes.offset();
    try {
      const objectNumber = this.parseRawInt();
      this.skipWhitespaceAndComments();
      const generation = this.parseRawInt();
      this.skipWhitespaceAndComments();
      if (objectNumber <= MAX_OBJECT_NUMBER && generation <= MAX_GENERATION && this.matchKeyword(OBJ)) return PDFRef.of(objectNumber, generation);
    } catch {
      // Not an object header.
    }
    this.bytes.moveTo(start);
    return undefined;
  }

  private readObjects(): void {
    this.skipWhitespaceAndComments();
    while (!this.bytes.done() && isDigit(this.bytes.peek())) {
      const ref = this.readObjectHeader();
      if (!ref) return;
      const start = this.bytes.offset();
      try {
        const object = this.parseObject();
        this.skipWhitespaceAndComments();
        this.matchKeyword(ENDOBJ);
        this.record(ref, object);
      } catch {
        this.skipDamagedObject(start);
      }
      this.skipWhitespaceAndComments();
    }
  }

  private record(ref: PDFRef, object: PDFObject): void {
    this.objects.push({ ref, object });
    this.context.assign(ref, object);
    if (isStreamOfType(object, 'XRef')) this.mergeTrailer(object.dict);
  }

  private mergeTrailer(dict: PDFDict): void {
    for (const key of TRAILER_KEYS) {
      const value = dict.get(PDFName.of(key));
      if (value) this.trailer[key] = value;
    }
  }

  private skipDamagedObject(start: number): void {
    if (this.nextEndobj < start) this.nextEndobj = indexOf(this.source, ENDOBJ, start);
    if (this.nextEndobj < 0) this.nextEndobj = this.source.length;
    this.bytes.moveTo(Math.min(this.nextEndobj + ENDOBJ.length, this.source.length));
  }

  /** Classic xref tables are not needed: objects are found by the scan. */
  private skipXrefTable(): void {
    this.skipWhitespaceAndComments();
    if (!this.matchKeyword(XREF)) return;
    while (!this.bytes.done()) {
      const byte = this.bytes.peek();
      if (!(isDigit(byte) || byte === 0x6e || byte === 0x66 || byte <= 0x20)) return;
      this.bytes.next();
    }
  }

  private readTrailer(): void {
    this.skipWhitespaceAndComments();
    if (!this.matchKeyword(TRAILER)) return;
    this.skipWhitespaceAndComments();
    try {
      this.mergeTrailer(this.parseDict());
    } catch {
      // A damaged trailer: the cross-reference stream or an earlier trailer may still name the root.
    }
  }

  private skipStartxref(): void {
    this.skipWhitespaceAndComments();
    if (!this.matchKeyword(STARTXREF)) return;
    this.skipWhitespaceAndComments();
    while (!this.bytes.done() && isDigit(this.bytes.peek())) this.bytes.next();
    this.skipWhitespaceAndComments();
  }

  /** Moves to the next object header or section keyword, past anything unreadable. */
  private skipJunk(): void {
    this.skipWhitespaceAndComments();
    while (!this.bytes.done()) {
      const byte = this.bytes.peek();
      const start = this.bytes.offset();
      if (isDigit(byte) && this.readObjectHeader()) {
        this.bytes.moveTo(start);
        return;
      }
      if ((byte === 0x78 && this.matchKeyword(XREF)) || (byte === 0x74 && this.matchKeyword(TRAILER)) || (byte === 0x73 && this.matchKeyword(STARTXREF))) {
        this.bytes.moveTo(start);
        return;
      }
      this.bytes.next();
    }
  }
}

/**
 * Scans a whole file; throws template/corrupt only when there is no PDF header at all. With
 * `requireHeader` false it reads a fragment, e.g. an incremental update without the file before it
 * (version is then '').
 */
export function scanPdf(bytes: Uint8Array, requireHeader = true): ScannedPdf {
  return new PdfScanner(bytes).scan(requireHeader);
}
