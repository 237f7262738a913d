/** Node's native zlib for template compaction (pdf/compact/strict-decode.ts): no JIT warm-up, C speed. */
import { deflateSync, inflateSync } from 'node:zlib';
import { useZlibPrimitives, type ZlibPrimitives } from '../pdf/compact/strict-decode.ts';

const asBytes = (buffer: Buffer) => new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.length);

export const nativeZlibPrimitives: ZlibPrimitives = {
  // maxOutputLength makes zlib stop with a RangeError past the budget, so a bomb costs nothing.
  inflate: (data, maxBytes) => asBytes(inflateSync(data, { maxOutputLength: Math.max(1, maxBytes) })),
  deflate: (data) => asBytes(deflateSync(data, { level: 6 })),
};

/** Installs the native primitives for this thread (each worker thread calls it too). */
export function useNativeZlib(): void {
  useZlibPrimitives(nativeZlibPrimitives);
}
