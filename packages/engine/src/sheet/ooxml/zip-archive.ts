/**
 * Just enough ZIP to read a workbook: the central directory (ZIP64 aware), and an entry's bytes
 * inflated whole (small parts) or streamed in chunks (the sheet, the shared strings) so the sheet XML
 * is never held in memory at once. Every inflated byte is charged to one budget per workbook, and an
 * entry that expands beyond a plausible ratio is stopped after one inflate step (at most ~64 MB out).
 */
import { Inflate } from 'fflate';
import { SheafError } from '@sheaf/shared';
import { concatBytes } from '../../pdf/bytes.ts';
import {
  MAX_COMPRESSION_RATIO,
  MAX_INFLATED_BYTES,
  MAX_ZIP_ENTRIES,
  RATIO_CHECK_BYTES,
  corrupt,
  limitsExceeded,
} from '../limits.ts';

export interface ZipEntry {
  readonly name: string;
  readonly method: number;
  readonly flags: number;
  readonly compressedSize: number;
  readonly size: number;
  readonly localHeaderOffset: number;
}

export interface ZipArchive {
  readonly bytes: Uint8Array;
  /** Entries by lower-cased name (some writers vary the case of part names). */
  readonly entries: ReadonlyMap<string, ZipEntry>;
  /** Bytes inflated so far, across entries. */
  inflated: number;
}

const EOCD = 0x06054b50;
const ZIP64_LOCATOR = 0x07064b50;
const ZIP64_EOCD = 0x06064b50;
const CENTRAL_HEADER = 0x02014b50;
const LOCAL_HEADER = 0x04034b50;
const STORED = 0;
const DEFLATED = 8;
/** Compressed bytes fed to the inflater at a time: bounds one step's output to ~1000x this. */
const INFLATE_STEP = 64 * 1024;

const nameDecoder = new TextDecoder();

export function openZip(bytes: Uint8Array): ZipArchive {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const eocd = findEndOfCentralDirectory(bytes, view);
  let count = view.getUint16(eocd + 10, true);
  let directorySize = view.getUint32(eocd + 12, true);
  let directoryOffset = view.getUint32(eocd + 16, true);
  let directoryEnd = eocd;
  const locator = eocd - 20;
  if (locator >= 0 && view.getUint32(locator, true) === ZIP64_LOCATOR) {
    const record = safeNumber(view.getBigUint64(locator + 8, true));
    if (record + 56 > bytes.length || view.getUint32(record, true) !== ZIP64_EOCD) throw corrupt('bad ZIP64 directory');
    count = safeNumber(view.getBigUint64(record + 32, true));
    directorySize = safeNumber(view.getBigUint64(record + 40, true));
    directoryOffset = safeNumber(view.getBigUint64(record + 48, true));
    directoryEnd = record;
  }
  if (count > MAX_ZIP_ENTRIES) throw limitsExceeded(`more than ${MAX_ZIP_ENTRIES} files in the archive`);
  // Bytes prepended to the archive (self-extractors, junk) shift every offset by the same amount.
  const shift = directoryEnd - directorySize - directoryOffset;
  if (shift < 0 || directoryOffset + shift < 0) throw corrupt('bad ZIP directory');
  const entries = new Map<string, ZipEntry>();
  let at = directoryOffset + shift;
  for (let index = 0; index < count; index++) {
    if (at + 46 > bytes.length || view.getUint32(at, true) !== CENTRAL_HEADER) throw corrupt('bad ZIP directory entry');
    const nameLength = view.getUint16(at + 28, true);
    const extraLength = view.getUint16(at + 30, true);
    const commentLength = view.getUint16(at + 32, true);
    if (at + 46 + nameLength + extraLength > bytes.length) throw corrupt('bad ZIP directory entry');
    const name = nameDecoder.decode(bytes.subarray(at + 46, at + 46 + nameLength)).replaceAll('\\', '/');
    const sizes = {
      compressedSize: view.getUint32(at + 20, true),
      size: view.getUint32(at + 24, true),
      localHeaderOffset: view.getUint32(at + 42, true),
    };
    readZip64Sizes(view, at + 46 + nameLength, extraLength, sizes);
    entries.set(name.toLowerCase(), {
      name,
      method: view.getUint16(at + 10, true),
      flags: view.getUint16(at + 8, true),
      compressedSize: sizes.compressedSize,
      size: sizes.size,
      localHeaderOffset: sizes.localHeaderOffset + shift,
    });
    at += 46 + nameLength + extraLength + commentLength;
  }
  return { bytes, entries, inflated: 0 };
}

export function findEntry(zip: ZipArchive, name: string): ZipEntry | undefined {
  return zip.entries.get(name.toLowerCase());
}

/** An entry's whole content; `maxBytes` caps this entry on top of the workbook budget. */
export function readEntry(zip: ZipArchive, entry: ZipEntry, maxBytes: number): Uint8Array {
  const chunks: Uint8Array[] = [];
  let size = 0;
  streamEntry(zip, entry, (chunk) => {
    size += chunk.length;
    if (size > maxBytes) throw limitsExceeded(`${entry.name} is larger than ${Math.round(maxBytes / 1048576)} MB`);
    chunks.push(chunk);
    return true;
  });
  return chunks.length === 1 ? chunks[0]! : concatBytes(chunks);
}

/**
 * Feeds an entry's content to `onChunk` as it inflates; `onChunk` returns false to stop early (the
 * rest is then never inflated). Chunks are only valid during the call.
 */
export function streamEntry(zip: ZipArchive, entry: ZipEntry, onChunk: (chunk: Uint8Array) => boolean): void {
  const data = entryData(zip, entry);
  if (entry.method === STORED) {
    for (let at = 0; at < data.length; at += INFLATE_STEP) {
      const chunk = data.subarray(at, Math.min(data.length, at + INFLATE_STEP));
      charge(zip, entry, chunk.length, 0);
      if (!onChunk(chunk)) return;
    }
    return;
  }
  let stopped = false;
  let produced = 0;
  let consumed = 0;
  const inflater = new Inflate((chunk) => {
    if (stopped || chunk.length === 0) return;
    produced += chunk.length;
    charge(zip, entry, chunk.length, produced / Math.max(consumed, 1));
    if (!onChunk(chunk)) stopped = true;
  });
  try {
    for (let at = 0; at < data.length && !stopped; at += INFLATE_STEP) {
      const end = Math.min(data.length, at + INFLATE_STEP);
      consumed = end;
      inflater.push(data.subarray(at, end), end === data.length);
    }
    if (data.length === 0) inflater.push(new Uint8Array(0), true);
  } catch (error) {
    if (error instanceof SheafError) throw error;
    throw corrupt(`${entry.name}: ${error instanceof Error ? error.message : 'bad compressed data'}`, error);
  }
}

function charge(zip: ZipArchive, entry: ZipEntry, bytes: number, ratio: number): void {
  zip.inflated += bytes;
  if (zip.inflated > MAX_INFLATED_BYTES) {
    throw limitsExceeded(`more than ${MAX_INFLATED_BYTES / 1048576} MB once uncompressed`);
  }
  if (zip.inflated > RATIO_CHECK_BYTES && ratio > MAX_COMPRESSION_RATIO) {
    throw limitsExceeded(`${entry.name} expands more than ${MAX_COMPRESSION_RATIO} times`);
  }
}

function entryData(zip: ZipArchive, entry: ZipEntry): Uint8Array {
  const { bytes } = zip;
  if (entry.flags & 1) throw new SheafError('sheet/encrypted');
  if (entry.method !== STORED && entry.method !== DEFLATED) throw corrupt(`${entry.name} uses compression method ${entry.method}`);
  const at = entry.localHeaderOffset;
  if (at < 0 || at + 30 > bytes.length) throw corrupt(`${entry.name} is outside the archive`);
  const view = new DataView(bytes.buffer, bytes.byteOffset + at, 30);
  if (view.getUint32(0, true) !== LOCAL_HEADER) throw corrupt(`${entry.name} has no local header`);
  const start = at + 30 + view.getUint16(26, true) + view.getUint16(28, true);
  const end = start + entry.compressedSize;
  if (end > bytes.length) throw corrupt(`${entry.name} is truncated`);
  return bytes.subarray(start, end);
}

function findEndOfCentralDirectory(bytes: Uint8Array, view: DataView): number {
  const lowest = Math.max(0, bytes.length - 22 - 65_535);
  for (let at = bytes.length - 22; at >= lowest; at--) {
    if (bytes[at] === 0x50 && view.getUint32(at, true) === EOCD) return at;
  }
  throw corrupt('the ZIP archive is truncated (no central directory)');
}

/** Sizes of 0xFFFFFFFF live in the ZIP64 extra field (id 1), in this order. */
function readZip64Sizes(
  view: DataView,
  extraStart: number,
  extraLength: number,
  sizes: { compressedSize: number; size: number; localHeaderOffset: number },
): void {
  const needed = sizes.size === 0xffffffff || sizes.compressedSize === 0xffffffff || sizes.localHeaderOffset === 0xffffffff;
  if (!needed) return;
  const end = extraStart + extraLength;
  for (let at = extraStart; at + 4 <= end; ) {
    const id = view.getUint16(at, true);
    const length = view.getUint16(at + 2, true);
    if (id === 1) {
      let field = at + 4;
      const next = (): number => {
        if (field + 8 > at + 4 + length) throw corrupt('bad ZIP64 extra field');
        const value = safeNumber(view.getBigUint64(field, true));
        field += 8;
        return value;
      };
      if (sizes.size === 0xffffffff) sizes.size = next();
      if (sizes.compressedSize === 0xffffffff) sizes.compressedSize = next();
      if (sizes.localHeaderOffset === 0xffffffff) sizes.localHeaderOffset = next();
      return;
    }
    at += 4 + length;
  }
  throw corrupt('missing ZIP64 extra field');
}

function safeNumber(value: bigint): number {
  if (value > BigInt(Number.MAX_SAFE_INTEGER)) throw corrupt('bad ZIP64 size');
  return Number(value);
}
