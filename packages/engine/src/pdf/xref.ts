/**
 * Reads a PDF's cross-reference chain the way a strict reader would, to decide whether an
 * incremental update may be appended to the original bytes. pdf-lib parses files front to back and
 * forgives broken xref tables; an appended update, though, makes readers follow our /Prev into the
 * original chain, so that chain must be sound or the output would be broken.
 */
import { PDFContext, PDFDict, PDFName, PDFNumber, PDFObjectParser, PDFRawStream, PDFArray, type PDFObject } from 'pdf-lib';
import { decodeBudget, decodeStreamWithin } from './decode.ts';
import { indexOf, lastIndexOf, latin1 } from './bytes.ts';

export interface XrefEntry {
  type: 0 | 1 | 2;
  /** Type 1: byte offset. Type 2: number of the object stream holding it. */
  offset: number;
  /** Type 1: generation. Type 2: index inside the object stream. */
  generation: number;
}

export interface XrefChain {
  /** Offset of the newest xref section (what our /Prev points to). */
  startxref: number;
  /** Whether the newest section is a cross-reference stream (then ours must be one too). */
  newestIsStream: boolean;
  /** The newest trailer (for an xref stream, its dictionary). */
  trailer: PDFDict;
  /** Newest entry per object number. */
  entries: Map<number, XrefEntry>;
  size: number;
}

export type XrefReading = { sound: true; chain: XrefChain } | { sound: false; reason: string };

/** Strict: an xref offset must point at the object header itself, as readers resolve it. */
const OBJ_HEADER = /^(\d+)\s+(\d+)\s+obj\b/;

/** Reads and checks the xref chain. Never throws: a damaged file gives { sound: false }. */
export function readXrefChain(bytes: Uint8Array): XrefReading {
  try {
    return readChain(bytes);
  } catch (error) {
    return { sound: false, reason: error instanceof Error ? error.message : String(error) };
  }
}

function readChain(bytes: Uint8Array): XrefReading {
  // Offsets count from the first byte; a file with bytes before its header only works by luck.
  if (indexOf(bytes, '%PDF-', 0, 5) !== 0) return { sound: false, reason: 'data before the %PDF header' };
  const tailStart = Math.max(0, bytes.length - 2048);
  const at = lastIndexOf(bytes, 'startxref');
  if (at < tailStart) return { sound: false, reason: 'no startxref near the end of the file' };
  const match = /startxref\s+(\d+)\s+%%EOF/.exec(latin1(bytes, at, Math.min(bytes.length, at + 64)));
  if (!match) return { sound: false, reason: 'malformed startxref' };
  // Bytes after %%EOF other than white space are junk some readers warn about.
  const eof = indexOf(bytes, '%%EOF', at);
  if (latin1(bytes, eof + 5).trim() !== '') return { sound: false, reason: 'data after %%EOF' };

  const startxref = Number(match[1]);
  const context = PDFContext.create();
  const entries = new Map<number, XrefEntry>();
  const visited = new Set<number>();
  let offset: number | undefined = startxref;
  let newest: { trailer: PDFDict; isStream: boolean } | undefined;

  while (offset !== undefined) {
    if (visited.has(offset) || offset < 0 || offset >= bytes.length) return { sound: false, reason: `bad xref offset ${offset}` };
    visited.add(offset);
    const section = readSection(bytes, offset, context, entries);
    newest ??= section;
    // A hybrid file's classic trailer names an xref stream holding further entries.
    const xrefStm = section.trailer.get(PDFName.of('XRefStm'));
    if (xrefStm instanceof PDFNumber) readSection(bytes, xrefStm.asNumber(), context, entries);
    const prev = section.trailer.get(PDFName.of('Prev'));
    offset = prev instanceof PDFNumber ? prev.asNumber() : undefined;
  }
  if (!newest) return { sound: false, reason: 'no xref section' };
  if (!newest.trailer.get(PDFName.of('Root'))) return { sound: false, reason: 'trailer without /Root' };

  const missingEnd = objectWithoutEnd(bytes, entries);
  if (missingEnd !== undefined) return { sound: false, reason: `object ${missingEnd} has no endobj` };
  for (const [number, entry] of entries) {
    if (entry.type === 1 && !objectStartsAt(bytes, entry.offset, number)) {
      return { sound: false, reason: `object ${number} is not at offset ${entry.offset}` };
    }
    if (entry.type === 2 && entries.get(entry.offset)?.type !== 1) {
      return { sound: false, reason: `object stream ${entry.offset} of object ${number} is missing` };
    }
  }
  const sizeObject = newest.trailer.get(PDFName.of('Size'));
  const size = sizeObject instanceof PDFNumber ? sizeObject.asNumber() : 0;
  const largest = Math.max(0, ...entries.keys());
  if (size <= largest) return { sound: false, reason: '/Size smaller than the objects present' };
  return { sound: true, chain: { startxref, newestIsStream: newest.isStream, trailer: newest.trailer, entries, size } };
}

/** The first object whose bytes run into the next object (or the end) without `endobj`. */
function objectWithoutEnd(bytes: Uint8Array, entries: Map<number, XrefEntry>): number | undefined {
  const placed = [...entries].filter(([, entry]) => entry.type === 1).sort((a, b) => a[1].offset - b[1].offset);
  for (let i = 0; i < placed.length; i++) {
    const [number, { offset }] = placed[i]!;
    const end = i + 1 < placed.length ? placed[i + 1]![1].offset : bytes.length;
    if (indexOf(bytes, 'endobj', offset, end) < 0) return number;
  }
  return undefined;
}

function objectStartsAt(bytes: Uint8Array, offset: number, number: number): boolean {
  if (offset <= 0 || offset >= bytes.length) return false;
  const header = OBJ_HEADER.exec(latin1(bytes, offset, Math.min(bytes.length, offset + 32)));
  return header !== null && Number(header[1]) === number;
}

/** Reads one section at `offset` into `entries` (older sections never override newer ones). */
function readSection(bytes: Uint8Array, offset: number, context: PDFContext, entries: Map<number, XrefEntry>) {
  const head = latin1(bytes, offset, Math.min(bytes.length, offset + 32));
  if (/^\s*xref/.test(head)) return readTable(bytes, offset, context, entries);
  if (OBJ_HEADER.test(head)) return readStream(bytes, offset, context, entries);
  throw new Error(`no xref at offset ${offset}`);
}

function readTable(bytes: Uint8Array, offset: number, context: PDFContext, entries: Map<number, XrefEntry>) {
  const trailerAt = indexOf(bytes, 'trailer', offset);
  if (trailerAt < 0) throw new Error('xref table without trailer');
  const lines = latin1(bytes, offset, trailerAt).trim().split(/\s+/);
  let i = 1; // after "xref"
  while (i < lines.length) {
    const first = Number(lines[i]);
    const count = Number(lines[i + 1]);
    if (!Number.isInteger(first) || !Number.isInteger(count)) throw new Error('malformed xref subsection');
    i += 2;
    for (let k = 0; k < count; k++, i += 3) {
      const kind = lines[i + 2];
      if (kind !== 'n' && kind !== 'f') throw new Error('malformed xref entry');
      const number = first + k;
      if (entries.has(number)) continue;
      entries.set(number, { type: kind === 'n' ? 1 : 0, offset: Number(lines[i]), generation: Number(lines[i + 1]) });
    }
  }
  const parser = PDFObjectParser.forBytes(bytes.subarray(trailerAt + 7), context);
  const trailer = parser.parseObject();
  if (!(trailer instanceof PDFDict)) throw new Error('trailer is not a dictionary');
  return { trailer, isStream: false };
}

function readStream(bytes: Uint8Array, offset: number, context: PDFContext, entries: Map<number, XrefEntry>) {
  const objAt = indexOf(bytes, 'obj', offset, offset + 32);
  const parser = PDFObjectParser.forBytes(bytes.subarray(objAt + 3), context);
  const stream = parser.parseObject();
  if (!(stream instanceof PDFRawStream)) throw new Error('xref stream expected');
  const dict = stream.dict;
  if (dict.get(PDFName.of('Type')) !== PDFName.of('XRef')) throw new Error('object is not an xref stream');
  const widths = (dict.get(PDFName.of('W')) as PDFArray).asArray().map((w) => (w as PDFNumber).asNumber());
  const size = (dict.get(PDFName.of('Size')) as PDFNumber).asNumber();
  const index = dict.get(PDFName.of('Index'));
  const ranges = index instanceof PDFArray ? index.asArray().map((n) => (n as PDFNumber).asNumber()) : [0, size];
  const [w0 = 1, w1 = 0, w2 = 0] = widths;
  const rowWidth = w0 + w1 + w2;
  const data = unpredict(decodeStreamWithin(stream, decodeBudget(bytes.length)), dict.get(PDFName.of('DecodeParms')), rowWidth);
  let position = 0;
  const field = (width: number, fallback: number) => {
    if (width === 0) return fallback;
    let value = 0;
    for (let b = 0; b < width; b++) value = value * 256 + data[position++]!;
    return value;
  };
  for (let r = 0; r < ranges.length; r += 2) {
    const first = ranges[r]!;
    const count = ranges[r + 1]!;
    for (let k = 0; k < count; k++) {
      if (position + rowWidth > data.length) throw new Error('xref stream shorter than its /Index');
      const type = field(w0, 1);
      const second = field(w1, 0);
      const third = field(w2, 0);
      const number = first + k;
      if (entries.has(number) || type > 2) continue;
      entries.set(number, { type: type as 0 | 1 | 2, offset: second, generation: third });
    }
  }
  return { trailer: dict, isStream: true };
}

/**
 * Undoes the PNG predictors xref streams are usually written with (/Predictor 10-15): each row is a
 * filter-type byte followed by `columns` bytes. pdf-lib's decoder stops at Flate.
 */
function unpredict(data: Uint8Array, parms: PDFObject | undefined, rowWidth: number): Uint8Array {
  if (!(parms instanceof PDFDict)) return data;
  const predictor = (parms.get(PDFName.of('Predictor')) as PDFNumber | undefined)?.asNumber() ?? 1;
  if (predictor < 10) {
    if (predictor === 1) return data;
    throw new Error(`unsupported xref stream predictor ${predictor}`);
  }
  const columns = (parms.get(PDFName.of('Columns')) as PDFNumber | undefined)?.asNumber() ?? rowWidth;
  const rows = Math.floor(data.length / (columns + 1));
  const out = new Uint8Array(rows * columns);
  for (let r = 0; r < rows; r++) {
    const type = data[r * (columns + 1)]!;
    const source = r * (columns + 1) + 1;
    const row = r * columns;
    for (let c = 0; c < columns; c++) {
      const raw = data[source + c]!;
      const left = c > 0 ? out[row + c - 1]! : 0;
      const up = r > 0 ? out[row - columns + c]! : 0;
      const upLeft = r > 0 && c > 0 ? out[row - columns + c - 1]! : 0;
      let value: number;
      switch (type) {
        case 0: value = raw; break;
        case 1: value = raw + left; break;
        case 2: value = raw + up; break;
        case 3: value = raw + ((left + up) >> 1); break;
        case 4: {
          const p = left + up - upLeft;
          const pa = Math.abs(p - left);
          const pb = Math.abs(p - up);
          const pc = Math.abs(p - upLeft);
          value = raw + (pa <= pb && pa <= pc ? left : pb <= pc ? up : upLeft);
          break;
        }
        default: throw new Error(`bad PNG predictor row type ${type}`);
      }
      out[row + c] = value & 0xff;
    }
  }
  return out;
}
