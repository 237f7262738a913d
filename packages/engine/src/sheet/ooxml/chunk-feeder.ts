/**
 * Feeds an entry's inflated chunks to an element-level scanner. A scanner consumes whole elements
 * and stops before one that runs past the chunk; the unconsumed tail is carried over and re-scanned
 * with the next chunk. Only that tail is ever copied, and it is bounded (one element).
 */
import { MAX_XML_ELEMENT_BYTES, corrupt, limitsExceeded } from '../limits.ts';
import { type ZipArchive, type ZipEntry, streamEntry } from './zip-archive.ts';

export interface ChunkScanner {
  /** Scans `buf` from its start; returns how many leading bytes it consumed (whole elements only). */
  scan(buf: Uint8Array): number;
  /** True once the scanner has seen the end of what it reads; the rest of the entry is skipped. */
  readonly done: boolean;
}

export function scanEntry(zip: ZipArchive, entry: ZipEntry, scanner: ChunkScanner): void {
  let carry: Uint8Array = new Uint8Array(0);
  let carried = 0;
  streamEntry(zip, entry, (chunk) => {
    let buf = chunk;
    if (carried > 0) {
      carry = withCapacity(carry, carried, carried + chunk.length);
      carry.set(chunk, carried);
      buf = carry.subarray(0, carried + chunk.length);
    }
    const consumed = scanner.scan(buf);
    const rest = buf.length - consumed;
    if (rest > MAX_XML_ELEMENT_BYTES) throw limitsExceeded(`an XML element of ${entry.name} is larger than ${MAX_XML_ELEMENT_BYTES / 1048576} MB`);
    if (rest > 0) {
      if (buf === chunk) {
        carry = withCapacity(carry, 0, rest);
        carry.set(chunk.subarray(consumed));
      } else {
        carry.copyWithin(0, consumed, buf.length);
      }
    }
    carried = rest;
    return !scanner.done;
  });
  if (!scanner.done) throw corrupt(`${entry.name} ends before its last element`);
}

function withCapacity(buffer: Uint8Array, keep: number, capacity: number): Uint8Array {
  if (capacity <= buffer.length) return buffer;
  let size = Math.max(65_536, buffer.length);
  while (size < capacity) size *= 2;
  const grown = new Uint8Array(size);
  grown.set(buffer.subarray(0, keep));
  return grown;
}
