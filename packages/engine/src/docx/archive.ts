/**
 * Safe reading of a DOCX package (docs/word-templates.md#what-is-refused). The file is judged before
 * anything is unpacked: size, an OLE compound file (an encrypted OOXML document or a Word 97-2003
 * file), a ZIP with too many entries or encrypted entries. Every inflated byte is then charged to a
 * budget per document, 250 times the file's size (64-512 MB, the PDF reader's rule), and an entry
 * expanding more than 250:1 is stopped once past 4 MB: a zip bomb costs milliseconds.
 */
import { Inflate } from 'fflate';
import { MAX_UPLOAD_BYTES, SheafError, listZip, startsLikeZip } from '@sheaf/shared';
import { concatBytes } from '../pdf/bytes.ts';
import { notDocx } from './xml.ts';

/** Entries a DOCX may hold; Word writes tens, a few hundred with many images. */
export const MAX_DOCX_ENTRIES = 5_000;
export const MIN_UNPACKED_BYTES = 64 * 1024 * 1024;
export const MAX_UNPACKED_BYTES = 512 * 1024 * 1024;
export const MAX_UNPACK_RATIO = 250;
export const RATIO_CHECK_BYTES = 4 * 1024 * 1024;
/** Compressed bytes inflated at a time: one step yields at most ~1000x this. */
const INFLATE_STEP = 16 * 1024;

const OLE_SIGNATURE = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];

/** One part of the package, in archive order, inflated. */
export interface DocxPart {
  name: string;
  data: Uint8Array;
}

export function isOleCompoundFile(bytes: Uint8Array): boolean {
  return OLE_SIGNATURE.every((byte, index) => bytes[index] === byte);
}

export function unpackBudget(fileBytes: number): number {
  return Math.min(MAX_UNPACKED_BYTES, Math.max(MIN_UNPACKED_BYTES, MAX_UNPACK_RATIO * fileBytes));
}

function tooLargeWhenUnpacked(limit: number): SheafError {
  return new SheafError('template/word-too-large-when-unpacked', { maxMb: Math.round(limit / 1_048_576) });
}

/** Every part of the DOCX, checked and inflated within the budget. */
export function readDocxParts(bytes: Uint8Array, maxBytes = MAX_UPLOAD_BYTES): DocxPart[] {
  if (bytes.length === 0) throw new SheafError('template/empty');
  if (bytes.length > maxBytes) throw new SheafError('template/too-large', { maxMb: Math.round(maxBytes / 1_048_576) });
  if (isOleCompoundFile(bytes)) throw new SheafError('template/word-encrypted');
  if (!startsLikeZip(bytes)) throw notDocx('not a ZIP package');
  const listing = listZip(bytes);
  if (listing.kind !== 'listed') throw notDocx('the ZIP directory is damaged');
  if (listing.entries.length > MAX_DOCX_ENTRIES) throw notDocx(`more than ${MAX_DOCX_ENTRIES} entries`);
  if (listing.entries.some((entry) => entry.isEncrypted)) throw new SheafError('template/word-encrypted');

  const limit = unpackBudget(bytes.length);
  let unpacked = 0;
  const seen = new Set<string>();
  const parts: DocxPart[] = [];
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (const entry of listing.entries) {
    if (entry.isDirectory) continue;
    const name = entry.names[0]!.replaceAll('\\', '/').replace(/^\/+/, '');
    // Two entries of one name: readers disagree on which counts, a known way to smuggle content.
    if (seen.has(name.toLowerCase())) throw notDocx(`the part ${name} appears twice`);
    seen.add(name.toLowerCase());
    const at = entry.localHeaderOffset;
    if (at < 0 || at + 30 > bytes.length || view.getUint32(at, true) !== 0x04034b50) throw notDocx(`${name} has no local header`);
    const start = at + 30 + view.getUint16(at + 26, true) + view.getUint16(at + 28, true);
    const end = start + entry.compressedSize;
    if (entry.compressedSize === 0xffffffff || end > bytes.length) throw notDocx(`${name} is truncated`);
    const data = bytes.subarray(start, end);
    let inflated: Uint8Array;
    if (entry.method === 0) {
      unpacked += data.length;
      if (unpacked > limit) throw tooLargeWhenUnpacked(limit);
      inflated = data;
    } else if (entry.method === 8) {
      inflated = inflateWithin(data, name, limit - unpacked, limit);
      unpacked += inflated.length;
    } else {
      throw notDocx(`${name} uses compression method ${entry.method}`);
    }
    parts.push({ name, data: inflated });
  }
  return parts;
}

function inflateWithin(data: Uint8Array, name: string, left: number, limit: number): Uint8Array {
  const chunks: Uint8Array[] = [];
  let produced = 0;
  let consumed = 0;
  const inflater = new Inflate((chunk) => {
    produced += chunk.length;
    if (produced > left) throw tooLargeWhenUnpacked(limit);
    if (produced > RATIO_CHECK_BYTES && produced > MAX_UNPACK_RATIO * Math.max(consumed, 1)) throw tooLargeWhenUnpacked(limit);
    chunks.push(chunk);
  });
  try {
    for (let at = 0; at < data.length; at += INFLATE_STEP) {
      const end = Math.min(data.length, at + INFLATE_STEP);
      consumed = end;
      inflater.push(data.subarray(at, end), end === data.length);
    }
    if (data.length === 0) inflater.push(new Uint8Array(0), true);
  } catch (error) {
    if (error instanceof SheafError) throw error;
    throw notDocx(`${name}: ${error instanceof Error ? error.message : 'bad compressed data'}`);
  }
  return chunks.length === 1 ? chunks[0]! : concatBytes(chunks);
}

/** The part a relationship's target names, from the folder of the part that holds it ("word/" + "../x.xml" -> "x.xml"). */
export function resolvePartTarget(folder: string, target: string): string {
  if (target.startsWith('/')) return target.slice(1);
  const out: string[] = [];
  for (const piece of (folder + target).split('/')) {
    if (piece === '..') out.pop();
    else if (piece !== '.' && piece !== '') out.push(piece);
  }
  return out.join('/');
}
