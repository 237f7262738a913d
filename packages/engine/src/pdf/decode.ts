/**
 * Decodes a PDF stream within an output budget (docs/limits.md#files-and-uploads). A 1 MB upload can
 * hold a FlateDecode stream of 1 GiB of spaces; decoding it whole took 19 s and 1.1 GB. Here every
 * decoded byte is charged to a budget per document, proportional to the file's size, and a stream
 * that expands beyond a plausible ratio is stopped as soon as that shows: a bomb costs milliseconds.
 *
 * FlateDecode is first counted with fflate's streaming inflater fed in small steps (one step yields at
 * most ~1000x its input, so no single step can run away), then decoded by pdf-lib as before, so
 * damaged streams keep pdf-lib's leniency. Other filters are read from pdf-lib's decoder in chunks.
 */
import { Unzlib } from 'fflate';
import { PDFArray, PDFName, decodePDFRawStream, type PDFRawStream } from 'pdf-lib';
import { SheafError } from '@sheaf/shared/errors';

/** Decoded bytes a document may use at least, whatever its size. */
export const MIN_DECODED_BYTES_PER_DOCUMENT = 64 * 1024 * 1024;
/** Decoded bytes per byte of the file, beyond the minimum (the sheet reader's ratio). */
export const MAX_DECODED_RATIO = 250;
/** Decoded bytes a document may use at most, whatever its size. */
export const MAX_DECODED_BYTES_PER_DOCUMENT = 512 * 1024 * 1024;
/** Decoded bytes one stream may produce. */
export const MAX_DECODED_BYTES_PER_STREAM = 256 * 1024 * 1024;
/** Past this many decoded bytes, a stream expanding more than MAX_DECODED_RATIO times is refused. */
export const RATIO_CHECK_BYTES = 4 * 1024 * 1024;

/** Compressed bytes fed to the inflater at a time. */
const INFLATE_STEP = 4 * 1024;
/** Decoded bytes read from pdf-lib's decoders at a time. */
const READ_STEP = 1024 * 1024;

/** What one document may still decode; shared by every stream decoded for it. */
export interface DecodeBudget {
  /** Bytes left for the document. */
  left: number;
  /** The document's whole allowance, for the message. */
  readonly total: number;
}

/** The budget of a document of `fileBytes` bytes. */
export function decodeBudget(fileBytes: number): DecodeBudget {
  const total = Math.min(MAX_DECODED_BYTES_PER_DOCUMENT, Math.max(MIN_DECODED_BYTES_PER_DOCUMENT, MAX_DECODED_RATIO * fileBytes));
  return { left: total, total };
}

/** The refusal: the template unpacks to more than it plausibly should. */
export function tooLargeWhenUnpacked(limitBytes: number): SheafError {
  return new SheafError('template/too-large-when-unpacked', { maxMb: Math.round(limitBytes / 1_048_576) });
}

/** The stream's decoded bytes, charged to `budget`; refuses with template/too-large-when-unpacked. */
export function decodeStreamWithin(stream: PDFRawStream, budget: DecodeBudget): Uint8Array {
  const limit = Math.min(MAX_DECODED_BYTES_PER_STREAM, budget.left);
  const compressed = stream.contents.length;
  if (firstFilter(stream) === 'FlateDecode') countInflated(stream.contents, limit, budget.total);
  const decoder = decodePDFRawStream(stream);
  let size = 0;
  for (;;) {
    const step = decoder.getBytes(READ_STEP).length;
    if (step === 0) break;
    size += step;
    refuseBeyond(size, compressed, limit, budget.total);
  }
  budget.left -= size;
  // Everything is decoded and kept by the decoder: this hands it over without decoding or copying again.
  return decoder.decode();
}

function firstFilter(stream: PDFRawStream): string | undefined {
  const filter = stream.dict.lookup(PDFName.of('Filter'));
  const first = filter instanceof PDFArray ? filter.lookup(0) : filter;
  if (!(first instanceof PDFName)) return undefined;
  const name = first.decodeText();
  return name === 'Fl' ? 'FlateDecode' : name;
}

/**
 * Inflates only to count, refusing once past the limit. A damaged stream stops the count where it
 * breaks; pdf-lib then decodes no more than was counted before failing or giving up the same way.
 */
function countInflated(data: Uint8Array, limit: number, documentTotal: number): void {
  let produced = 0;
  let consumed = 0;
  const inflater = new Unzlib((chunk) => {
    produced += chunk.length;
    refuseBeyond(produced, consumed, limit, documentTotal);
  });
  try {
    for (let at = 0; at < data.length; at += INFLATE_STEP) {
      const end = Math.min(data.length, at + INFLATE_STEP);
      consumed = end;
      inflater.push(data.subarray(at, end), end === data.length);
    }
  } catch (error) {
    if (error instanceof SheafError) throw error;
    // Damaged data: pdf-lib decides what of it is readable.
  }
}

function refuseBeyond(produced: number, consumed: number, limit: number, documentTotal: number): void {
  if (produced > limit) throw tooLargeWhenUnpacked(documentTotal);
  if (produced > RATIO_CHECK_BYTES && produced > MAX_DECODED_RATIO * Math.max(consumed, 1)) throw tooLargeWhenUnpacked(documentTotal);
}
