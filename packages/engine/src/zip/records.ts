/**
 * Byte layouts of the ZIP records (PKWARE APPNOTE 6.3.x, sections 4.3 and 4.5): local file header,
 * central directory header, the ZIP64 extended-information extra field and the end records.
 */
export const UINT16_MAX = 0xffff;
export const UINT32_MAX = 0xffffffff;

const LOCAL_HEADER_SIGNATURE = 0x04034b50;
const CENTRAL_HEADER_SIGNATURE = 0x02014b50;
const ZIP64_END_SIGNATURE = 0x06064b50;
const ZIP64_LOCATOR_SIGNATURE = 0x07064b50;
const END_SIGNATURE = 0x06054b50;
const ZIP64_EXTRA_ID = 0x0001;

const VERSION_DEFAULT = 20; // 2.0: stored entries, folders
const VERSION_ZIP64 = 45; // 4.5: ZIP64 extensions
const MADE_BY_UNIX = 3 << 8;
const FLAG_UTF8_NAME = 1 << 11;
const METHOD_STORE = 0;
const UNIX_FILE_MODE = 0o100644; // regular file, rw-r--r--

export const LOCAL_HEADER_SIZE = 30;
export const CENTRAL_HEADER_SIZE = 46;
export const ZIP64_END_SIZE = 56;
export const ZIP64_LOCATOR_SIZE = 20;
export const END_SIZE = 22;

/** What the central directory must remember of an entry written earlier. */
export interface ZipEntry {
  name: Uint8Array;
  crc: number;
  size: number;
  offset: number;
  dosTime: number;
  dosDate: number;
}

/** MS-DOS date and time fields (local time, 2-second steps, 1980 to 2107). */
export function dosDateTime(date: Date): { dosTime: number; dosDate: number } {
  const year = Math.min(Math.max(date.getFullYear(), 1980), 2107);
  const clamped = year !== date.getFullYear();
  const dosTime = clamped ? 0 : (date.getHours() << 11) | (date.getMinutes() << 5) | (date.getSeconds() >> 1);
  const dosDate = clamped
    ? ((year - 1980) << 9) | (1 << 5) | 1
    : ((year - 1980) << 9) | ((date.getMonth() + 1) << 5) | date.getDate();
  return { dosTime, dosDate };
}

function writeUint64(view: DataView, at: number, value: number): void {
  view.setUint32(at, value % 0x100000000, true);
  view.setUint32(at + 4, Math.floor(value / 0x100000000), true);
}

/** Local header; sizes move into a ZIP64 extra field when the entry reaches 4 GiB. */
export function localHeader(entry: ZipEntry): Uint8Array {
  const zip64 = entry.size >= UINT32_MAX;
  const extraLength = zip64 ? 20 : 0;
  const bytes = new Uint8Array(LOCAL_HEADER_SIZE + entry.name.length + extraLength);
  const view = new DataView(bytes.buffer);
  view.setUint32(0, LOCAL_HEADER_SIGNATURE, true);
  view.setUint16(4, zip64 ? VERSION_ZIP64 : VERSION_DEFAULT, true);
  view.setUint16(6, FLAG_UTF8_NAME, true);
  view.setUint16(8, METHOD_STORE, true);
  view.setUint16(10, entry.dosTime, true);
  view.setUint16(12, entry.dosDate, true);
  view.setUint32(14, entry.crc, true);
  view.setUint32(18, zip64 ? UINT32_MAX : entry.size, true);
  view.setUint32(22, zip64 ? UINT32_MAX : entry.size, true);
  view.setUint16(26, entry.name.length, true);
  view.setUint16(28, extraLength, true);
  bytes.set(entry.name, LOCAL_HEADER_SIZE);
  if (zip64) {
    const at = LOCAL_HEADER_SIZE + entry.name.length;
    view.setUint16(at, ZIP64_EXTRA_ID, true);
    view.setUint16(at + 2, 16, true);
    writeUint64(view, at + 4, entry.size); // uncompressed
    writeUint64(view, at + 12, entry.size); // compressed
  }
  return bytes;
}

/** Size of an entry's central header: fixed part, name, and a ZIP64 field for each value that overflows. */
export function centralHeaderSize(entry: ZipEntry): number {
  return CENTRAL_HEADER_SIZE + entry.name.length + zip64ExtraLength(entry);
}

function zip64ExtraLength(entry: ZipEntry): number {
  const values = (entry.size >= UINT32_MAX ? 2 : 0) + (entry.offset >= UINT32_MAX ? 1 : 0);
  return values === 0 ? 0 : 4 + 8 * values;
}

/** Writes an entry's central header into `view` at `at`; returns the position after it. */
export function writeCentralHeader(view: DataView, bytes: Uint8Array, at: number, entry: ZipEntry): number {
  const bigSize = entry.size >= UINT32_MAX;
  const bigOffset = entry.offset >= UINT32_MAX;
  const extraLength = zip64ExtraLength(entry);
  const version = extraLength > 0 ? VERSION_ZIP64 : VERSION_DEFAULT;
  view.setUint32(at, CENTRAL_HEADER_SIGNATURE, true);
  view.setUint16(at + 4, MADE_BY_UNIX | version, true);
  view.setUint16(at + 6, version, true);
  view.setUint16(at + 8, FLAG_UTF8_NAME, true);
  view.setUint16(at + 10, METHOD_STORE, true);
  view.setUint16(at + 12, entry.dosTime, true);
  view.setUint16(at + 14, entry.dosDate, true);
  view.setUint32(at + 16, entry.crc, true);
  view.setUint32(at + 20, bigSize ? UINT32_MAX : entry.size, true);
  view.setUint32(at + 24, bigSize ? UINT32_MAX : entry.size, true);
  view.setUint16(at + 28, entry.name.length, true);
  view.setUint16(at + 30, extraLength, true);
  view.setUint16(at + 32, 0, true); // comment length
  view.setUint16(at + 34, 0, true); // disk number
  view.setUint16(at + 36, 0, true); // internal attributes
  view.setUint32(at + 38, UNIX_FILE_MODE * 0x10000, true);
  view.setUint32(at + 42, bigOffset ? UINT32_MAX : entry.offset, true);
  bytes.set(entry.name, at + CENTRAL_HEADER_SIZE);
  let field = at + CENTRAL_HEADER_SIZE + entry.name.length;
  if (extraLength > 0) {
    // The ZIP64 field holds, in this order, only the values whose header slot says 0xFFFFFFFF.
    view.setUint16(field, ZIP64_EXTRA_ID, true);
    view.setUint16(field + 2, extraLength - 4, true);
    field += 4;
    if (bigSize) {
      writeUint64(view, field, entry.size);
      writeUint64(view, field + 8, entry.size);
      field += 16;
    }
    if (bigOffset) {
      writeUint64(view, field, entry.offset);
      field += 8;
    }
  }
  return field;
}

/** The end records: ZIP64 end record and locator when any count, size or offset overflows, then the classic end record. */
export function endRecords(entryCount: number, directoryOffset: number, directorySize: number): Uint8Array {
  const zip64 = entryCount >= UINT16_MAX || directoryOffset >= UINT32_MAX || directorySize >= UINT32_MAX;
  const bytes = new Uint8Array((zip64 ? ZIP64_END_SIZE + ZIP64_LOCATOR_SIZE : 0) + END_SIZE);
  const view = new DataView(bytes.buffer);
  let at = 0;
  if (zip64) {
    const zip64EndOffset = directoryOffset + directorySize;
    view.setUint32(0, ZIP64_END_SIGNATURE, true);
    writeUint64(view, 4, ZIP64_END_SIZE - 12); // size of the rest of this record
    view.setUint16(12, MADE_BY_UNIX | VERSION_ZIP64, true);
    view.setUint16(14, VERSION_ZIP64, true);
    view.setUint32(16, 0, true); // this disk
    view.setUint32(20, 0, true); // disk where the directory starts
    writeUint64(view, 24, entryCount);
    writeUint64(view, 32, entryCount);
    writeUint64(view, 40, directorySize);
    writeUint64(view, 48, directoryOffset);
    view.setUint32(56, ZIP64_LOCATOR_SIGNATURE, true);
    view.setUint32(60, 0, true);
    writeUint64(view, 64, zip64EndOffset);
    view.setUint32(72, 1, true); // total disks
    at = ZIP64_END_SIZE + ZIP64_LOCATOR_SIZE;
  }
  view.setUint32(at, END_SIGNATURE, true);
  view.setUint16(at + 4, 0, true);
  view.setUint16(at + 6, 0, true);
  view.setUint16(at + 8, Math.min(entryCount, UINT16_MAX), true);
  view.setUint16(at + 10, Math.min(entryCount, UINT16_MAX), true);
  view.setUint32(at + 12, Math.min(directorySize, UINT32_MAX), true);
  view.setUint32(at + 16, Math.min(directoryOffset, UINT32_MAX), true);
  view.setUint16(at + 20, 0, true); // comment length
  return bytes;
}
