/**
 * pdf-lib's object parser finds the end of a stream whose /Length is an indirect object (LibreOffice
 * writes every stream so) by looking for `endstream`, and drops the end-of-line before it: a stream
 * whose data ends in a carriage return (a zlib checksum ending in 0x0D, about one stream in 256)
 * loses that byte, no longer decodes, and a file written from it fails `qpdf --check`. The parsed
 * stream one byte short of its declared length gets the carriage return back.
 */
import { PDFName, PDFNumber, PDFRawStream, PDFRef, type PDFContext, type PDFObject } from 'pdf-lib';

/** `object` as it is in the file: a stream one byte short of its indirect /Length has its last byte, a carriage return, again. */
export function withStreamEnd(object: PDFObject, context: PDFContext): PDFObject {
  if (!(object instanceof PDFRawStream)) return object;
  const length = object.dict.get(PDFName.of('Length'));
  if (!(length instanceof PDFRef)) return object;
  const declared = context.lookup(length);
  if (!(declared instanceof PDFNumber) || declared.asNumber() !== object.contents.length + 1) return object;
  const contents = new Uint8Array(object.contents.length + 1);
  contents.set(object.contents);
  contents[object.contents.length] = 0x0d;
  return PDFRawStream.of(object.dict, contents);
}

/** Every stream of `context` with its end restored (withStreamEnd). */
export function restoreStreamEnds(context: PDFContext): void {
  for (const [ref, object] of context.enumerateIndirectObjects()) {
    const restored = withStreamEnd(object, context);
    if (restored !== object) context.assign(ref, restored);
  }
}
