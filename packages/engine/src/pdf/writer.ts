/**
 * Serialises indirect objects and cross-reference sections for incremental updates. Objects are
 * pdf-lib objects; we write them ourselves so shared parts are serialised once per merge and each
 * row only pays for its own bytes.
 */
import { PDFDict, PDFName, PDFNumber, PDFRef, type PDFObject, type PDFContext, PDFArray } from 'pdf-lib';
import { ascii, concatBytes } from './bytes.ts';

const ENDOBJ = ascii('\nendobj\n');
const NEWLINE = ascii('\n');

/** `N G obj ... endobj` bytes of one object. */
export function serializeObject(ref: PDFRef, object: PDFObject): Uint8Array {
  const header = ascii(`${ref.objectNumber} ${ref.generationNumber} obj\n`);
  const size = object.sizeInBytes();
  const out = new Uint8Array(header.length + size + ENDOBJ.length);
  out.set(header, 0);
  object.copyBytesInto(out, header.length);
  out.set(ENDOBJ, header.length + size);
  return out;
}

/**
 * Objects serialised back to back as one block that will sit at `startOffset` of the file (after a
 * newline, so the previous bytes need not end with one), with their xref placements.
 */
export function serializeSection(objects: ReadonlyArray<readonly [PDFRef, PDFObject]>, startOffset: number): { bytes: Uint8Array; placements: XrefPlacement[] } {
  const parts: Uint8Array[] = [NEWLINE];
  const placements: XrefPlacement[] = [];
  let offset = startOffset + NEWLINE.length;
  for (const [ref, object] of objects) {
    const bytes = serializeObject(ref, object);
    placements.push({ number: ref.objectNumber, generation: ref.generationNumber, offset });
    parts.push(bytes);
    offset += bytes.length;
  }
  return { bytes: concatBytes(parts), placements };
}

/** One object placed in an update: its number, generation and offset from the start of the file. */
export interface XrefPlacement {
  number: number;
  generation: number;
  offset: number;
}

export interface TrailerFields {
  size: number;
  root: PDFRef;
  info?: PDFObject;
  id?: PDFObject;
  prev?: number;
}

/** A classic `xref` table + trailer + startxref for the given placements (any order). */
export function classicXrefSection(placements: XrefPlacement[], trailer: TrailerFields, context: PDFContext, xrefOffset: number): Uint8Array {
  const sorted = [...placements].sort((a, b) => a.number - b.number);
  let text = 'xref\n';
  if (trailer.prev === undefined) text += '0 1\n0000000000 65535 f\r\n';
  for (let i = 0; i < sorted.length; ) {
    let j = i + 1;
    while (j < sorted.length && sorted[j]!.number === sorted[j - 1]!.number + 1) j++;
    text += `${sorted[i]!.number} ${j - i}\n`;
    for (let k = i; k < j; k++) {
      const entry = sorted[k]!;
      text += `${String(entry.offset).padStart(10, '0')} ${String(entry.generation).padStart(5, '0')} n\r\n`;
    }
    i = j;
  }
  const dict = trailerDict(trailer, context);
  text += `trailer\n${dict.toString()}\nstartxref\n${xrefOffset}\n%%EOF\n`;
  return ascii(text);
}

/**
 * A cross-reference stream (for bases whose newest section is one: mixing kinds is not allowed).
 * `ref` is the stream's own object, placed at `xrefOffset`.
 */
export function xrefStreamSection(placements: XrefPlacement[], trailer: TrailerFields, context: PDFContext, ref: PDFRef, xrefOffset: number): Uint8Array {
  const all = [...placements, { number: ref.objectNumber, generation: ref.generationNumber, offset: xrefOffset }].sort((a, b) => a.number - b.number);
  const index: number[] = [];
  const data = new Uint8Array(all.length * 7);
  let position = 0;
  for (let i = 0; i < all.length; ) {
    let j = i + 1;
    while (j < all.length && all[j]!.number === all[j - 1]!.number + 1) j++;
    index.push(all[i]!.number, j - i);
    for (let k = i; k < j; k++) {
      const { offset, generation } = all[k]!;
      data[position++] = 1;
      data[position++] = (offset >>> 24) & 0xff;
      data[position++] = (offset >>> 16) & 0xff;
      data[position++] = (offset >>> 8) & 0xff;
      data[position++] = offset & 0xff;
      data[position++] = (generation >>> 8) & 0xff;
      data[position++] = generation & 0xff;
    }
    i = j;
  }
  const dict = trailerDict(trailer, context);
  dict.set(PDFName.of('Type'), PDFName.of('XRef'));
  dict.set(PDFName.of('W'), context.obj([1, 4, 2]));
  dict.set(PDFName.of('Index'), context.obj(index));
  const stream = context.stream(data, {});
  for (const [key, value] of dict.entries()) stream.dict.set(key, value);
  const body = serializeObject(ref, stream);
  const tail = ascii(`startxref\n${xrefOffset}\n%%EOF\n`);
  const out = new Uint8Array(body.length + tail.length);
  out.set(body, 0);
  out.set(tail, body.length);
  return out;
}

function trailerDict(trailer: TrailerFields, context: PDFContext): PDFDict {
  const dict = context.obj({}) as PDFDict;
  dict.set(PDFName.of('Size'), PDFNumber.of(trailer.size));
  dict.set(PDFName.of('Root'), trailer.root);
  if (trailer.info) dict.set(PDFName.of('Info'), trailer.info);
  if (trailer.id instanceof PDFArray) dict.set(PDFName.of('ID'), trailer.id);
  if (trailer.prev !== undefined) dict.set(PDFName.of('Prev'), PDFNumber.of(trailer.prev));
  return dict;
}
