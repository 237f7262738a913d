/**
 * The entries of a ZIP archive from its central directory alone: names, flags, sizes, where each entry's
 * data starts. Nothing is decompressed, so listing costs a pass over the directory (tens of bytes per
 * entry) whatever the archive unpacks to. Used by the attachment rule (rules/archives.ts). No Node or DOM
 * APIs beyond TextDecoder.
 */

export interface ZipEntry {
  /** The path as stored (UTF-8 when flagged, else read byte by byte), and the Info-ZIP Unicode path if any. */
  names: string[];
  isDirectory: boolean;
  /** Traditional PKWARE or strong encryption (flag bit 0), or WinZip AES (method 99). */
  isEncrypted: boolean;
  /** 0 stored, 8 deflated, ... */
  method: number;
  compressedSize: number;
  /** Offset of the entry's local header in `bytes` (prefix junk already accounted for). */
  localHeaderOffset: number;
}

export type ZipListing = { kind: 'listed'; entries: ZipEntry[] } | { kind: 'unreadable' };

const EOCD = 0x06054b50;
const ZIP64_LOCATOR = 0x07064b50;
const ZIP64_EOCD = 0x06064b50;
const CENTRAL_HEADER = 0x02014b50;
const LOCAL_HEADER = 0x04034b50;
const UNICODE_PATH_EXTRA = 0x7075;
const MAX_COMMENT = 0xffff;

/** A ZIP by its first bytes: a local file header, or the end record of an empty archive. */
export function startsLikeZip(bytes: Uint8Array): boolean {
  return bytes.length >= 4 && bytes[0] === 0x50 && bytes[1] === 0x4b && ((bytes[2] === 3 && bytes[3] === 4) || (bytes[2] === 5 && bytes[3] === 6));
}

function findEndRecord(view: DataView): number {
  const last = view.byteLength - 22;
  for (let at = last; at >= 0 && at >= last - MAX_COMMENT; at--) {
    if (view.getUint32(at, true) === EOCD && at + 22 + view.getUint16(at + 20, true) <= view.byteLength) return at;
  }
  return -1;
}

/** Lists the archive's entries; 'unreadable' when its end record or directory does not hold together. */
export function listZip(bytes: Uint8Array): ZipListing {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const end = findEndRecord(view);
  if (end < 0) return { kind: 'unreadable' };
  let count = view.getUint16(end + 10, true);
  let size = view.getUint32(end + 12, true);
  let offset = view.getUint32(end + 16, true);
  let directoryEnd = end;
  if (count === 0xffff || size === 0xffffffff || offset === 0xffffffff) {
    // ZIP64: the locator sits just before the end record and points at the ZIP64 end record.
    const locator = end - 20;
    if (locator < 0 || view.getUint32(locator, true) !== ZIP64_LOCATOR) return { kind: 'unreadable' };
    // Its stored offset ignores prefix junk; without extensible data the record is the 56 bytes before the locator.
    let at = Number(view.getBigUint64(locator + 8, true));
    if (!(at + 56 <= locator && view.getUint32(at, true) === ZIP64_EOCD)) at = locator - 56;
    if (at < 0 || view.getUint32(at, true) !== ZIP64_EOCD) return { kind: 'unreadable' };
    count = Number(view.getBigUint64(at + 32, true));
    size = Number(view.getBigUint64(at + 40, true));
    offset = Number(view.getBigUint64(at + 48, true));
    directoryEnd = at;
  }
  // Bytes before the archive (a self-extractor stub, junk) shift every stored offset by the same amount.
  const shift = directoryEnd - size - offset;
  const start = offset + shift;
  if (shift < 0 || start < 0 || count > size / 46 + 1) return { kind: 'unreadable' };
  const entries: ZipEntry[] = [];
  let at = start;
  for (let index = 0; index < count; index++) {
    if (at + 46 > directoryEnd || view.getUint32(at, true) !== CENTRAL_HEADER) return { kind: 'unreadable' };
    const flags = view.getUint16(at + 8, true);
    const method = view.getUint16(at + 10, true);
    const nameLength = view.getUint16(at + 28, true);
    const extraLength = view.getUint16(at + 30, true);
    const commentLength = view.getUint16(at + 32, true);
    const next = at + 46 + nameLength + extraLength + commentLength;
    if (next > directoryEnd) return { kind: 'unreadable' };
    const rawName = bytes.subarray(at + 46, at + 46 + nameLength);
    const name = flags & 0x800 ? new TextDecoder('utf-8').decode(rawName) : String.fromCharCode(...rawName);
    const names = [name, ...unicodePaths(view, at + 46 + nameLength, extraLength)];
    entries.push({
      names,
      isDirectory: names.every((item) => item.endsWith('/') || item.endsWith('\\')),
      isEncrypted: (flags & 1) === 1 || method === 99,
      method,
      compressedSize: view.getUint32(at + 20, true),
      localHeaderOffset: view.getUint32(at + 42, true) + shift,
    });
    at = next;
  }
  return { kind: 'listed', entries };
}

/** Info-ZIP Unicode Path extra fields (0x7075): the name many extractors write instead of the stored one. */
function unicodePaths(view: DataView, from: number, length: number): string[] {
  const names: string[] = [];
  for (let at = from; at + 4 <= from + length;) {
    const id = view.getUint16(at, true);
    const size = view.getUint16(at + 2, true);
    if (at + 4 + size > from + length) break;
    if (id === UNICODE_PATH_EXTRA && size > 5) {
      names.push(new TextDecoder('utf-8').decode(new Uint8Array(view.buffer, view.byteOffset + at + 9, size - 5)));
    }
    at += 4 + size;
  }
  return names;
}

/** The stored (method 0) data of an entry, or null when it is compressed, encrypted or out of bounds. */
export function storedData(bytes: Uint8Array, entry: ZipEntry): Uint8Array | null {
  if (entry.method !== 0 || entry.isEncrypted) return null;
  const at = entry.localHeaderOffset;
  if (at < 0 || at + 30 > bytes.length) return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (view.getUint32(at, true) !== LOCAL_HEADER) return null;
  const start = at + 30 + view.getUint16(at + 26, true) + view.getUint16(at + 28, true);
  const end = start + entry.compressedSize;
  return end <= bytes.length ? bytes.subarray(start, end) : null;
}
