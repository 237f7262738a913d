/** Unpacks an object stream (/Type /ObjStm) into the objects it holds, already decrypted. */
import { PDFName, PDFNumber, PDFObjectParser, PDFRef } from 'pdf-lib';
import type { PDFContext, PDFObject, PDFRawStream } from 'pdf-lib';
import { decodeBudget, decodeStreamWithin, type DecodeBudget } from '../pdf/decode.ts';
import { MAX_OBJECT_NUMBER } from './scanner.ts';

const isDigit = (byte: number): boolean => byte >= 0x30 && byte <= 0x39;

/** The header's integer pairs (object number, offset); never more than the data can hold. */
function readHeaderNumbers(data: Uint8Array, end: number, wanted: number): number[] {
  const numbers: number[] = [];
  let at = 0;
  while (numbers.length < wanted && at < end) {
    while (at < end && !isDigit(data[at])) at++;
    let value = 0;
    let digits = 0;
    while (at < end && isDigit(data[at])) {
      value = value * 10 + data[at++] - 0x30;
      digits++;
    }
    if (digits > 0) numbers.push(value);
  }
  return numbers;
}

/**
 * The objects of the stream as [reference, object] pairs. A damaged entry is skipped, not fatal:
 * the rest of the document may still be fine, and pdf-lib treats a missing object as null.
 */
export function expandObjectStream(
  stream: PDFRawStream,
  context: PDFContext,
  budget: DecodeBudget = decodeBudget(stream.contents.length),
): Array<[PDFRef, PDFObject]> {
  const count = stream.dict.lookup(PDFName.of('N'));
  const first = stream.dict.lookup(PDFName.of('First'));
  if (!(count instanceof PDFNumber) || !(first instanceof PDFNumber)) return [];
  const data = decodeStreamWithin(stream, budget);
  const firstOffset = Math.min(Math.max(0, first.asNumber()), data.length);
  const numbers = readHeaderNumbers(data, firstOffset, Math.max(0, count.asNumber()) * 2);
  const objects: Array<[PDFRef, PDFObject]> = [];
  for (let i = 0; i + 1 < numbers.length; i += 2) {
    const offset = firstOffset + numbers[i + 1];
    if (offset >= data.length || numbers[i] > MAX_OBJECT_NUMBER) continue;
    try {
      objects.push([PDFRef.of(numbers[i], 0), PDFObjectParser.forBytes(data.subarray(offset), context).parseObject()]);
    } catch {
      // Damaged entry: left out.
    }
  }
  return objects;
}
