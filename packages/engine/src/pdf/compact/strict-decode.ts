/**
 * Decoding for compaction, where speed matters (it runs before the first document of a merge) and
 * leniency does not (a stream that does not decode cleanly just leaves the template as it is). A plain
 * FlateDecode stream is inflated in one call within the budget; anything else goes through the
 * merge's own budgeted decoder. Node installs its native zlib (`useZlibPrimitives`): a cold process
 * spends ~60 ms inflating a 200 KB font in JavaScript, ~2 ms natively.
 */
import { Unzlib, zlibSync } from 'fflate';
import { PDFArray, PDFName, type PDFContext, type PDFRawStream } from 'pdf-lib';
import { concatBytes } from '../bytes.ts';
import { decodeStreamWithin, tooLargeWhenUnpacked, type DecodeBudget } from '../decode.ts';

export interface ZlibPrimitives {
  /** zlib-wrapped data inflated; throws when it is damaged, truncated or longer than `maxBytes`. */
  inflate(data: Uint8Array, maxBytes: number): Uint8Array;
  deflate(data: Uint8Array): Uint8Array;
}

const STEP = 64 * 1024;

/** fflate: works everywhere, the default. */
export const portableZlibPrimitives: ZlibPrimitives = {
  inflate(data, maxBytes) {
    const chunks: Uint8Array[] = [];
    let size = 0;
    let ended = false;
    const inflater = new Unzlib((chunk, final) => {
      size += chunk.length;
      if (size > maxBytes) throw new RangeError('inflated data too long');
      chunks.push(chunk);
      if (final) ended = true;
    });
    if (data.length === 0) inflater.push(data, true);
    for (let at = 0; at < data.length; at += STEP) inflater.push(data.subarray(at, Math.min(data.length, at + STEP)), at + STEP >= data.length);
    if (!ended) throw new Error('truncated stream');
    return concatBytes(chunks);
  },
  deflate: (data) => zlibSync(data, { level: 6 }),
};

let zlib = portableZlibPrimitives;

/** Installs faster primitives for this thread (Node's native zlib: `useNativeZlib`). */
export function useZlibPrimitives(primitives: ZlibPrimitives): void {
  zlib = primitives;
}

export function decodeStrictly(stream: PDFRawStream, budget: DecodeBudget): Uint8Array {
  const filter = stream.dict.lookup(PDFName.of('Filter'));
  const only = filter instanceof PDFArray && filter.size() === 1 ? filter.lookup(0) : filter;
  if (only !== PDFName.of('FlateDecode') || stream.dict.has(PDFName.of('DecodeParms'))) return decodeStreamWithin(stream, budget);
  let data: Uint8Array;
  try {
    data = zlib.inflate(stream.contents, budget.left);
  } catch (error) {
    throw error instanceof RangeError ? tooLargeWhenUnpacked(budget.total) : error;
  }
  budget.left -= data.length;
  return data;
}

/** A FlateDecode stream object of `data`. */
export function flateStream(context: PDFContext, data: Uint8Array, extra: Record<string, number> = {}): PDFRawStream {
  return context.stream(zlib.deflate(data), { Filter: 'FlateDecode', ...extra });
}
