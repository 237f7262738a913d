/**
 * pdf-lib expands every object stream (/Type /ObjStm) whole while it parses a file, beyond any budget.
 * This pass finds them first and decodes each within the document's budget, so an object stream that
 * unpacks to gigabytes is refused before pdf-lib sees it (docs/limits.md#files-and-uploads).
 */
import { PDFContext, PDFObjectParser, PDFRawStream } from 'pdf-lib';
import { SheafError } from '@sheaf/shared/errors';
import { indexOf, lastIndexOf } from './bytes.ts';
import { decodeStreamWithin, type DecodeBudget } from './decode.ts';

/** How far before its /ObjStm name a stream's "obj" keyword may be. */
const HEADER_WINDOW = 4096;

export function checkObjectStreams(bytes: Uint8Array, budget: DecodeBudget): void {
  const context = PDFContext.create();
  for (let at = indexOf(bytes, '/ObjStm'); at >= 0; at = indexOf(bytes, '/ObjStm', at + 7)) {
    const windowStart = Math.max(0, at - HEADER_WINDOW);
    const found = lastIndexOf(bytes.subarray(windowStart, at), 'obj');
    if (found < 0) continue;
    const objAt = windowStart + found;
    try {
      const stream = PDFObjectParser.forBytes(bytes.subarray(objAt + 3), context).parseObject();
      if (stream instanceof PDFRawStream) decodeStreamWithin(stream, budget);
    } catch (error) {
      if (error instanceof SheafError) throw error;
      // Not a stream we can read here: pdf-lib judges it as before.
    }
  }
}
