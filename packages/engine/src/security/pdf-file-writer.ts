/**
 * Writes a complete PDF file from indirect objects: header, objects in number order, a classic
 * cross-reference table and the trailer. An object may be given already serialised (its bytes
 * between "obj" and "endobj"), so parts that are the same in many files are serialised once. Synchronous (pdf-lib's PDFWriter is not), so decryption
 * and encryption stay plain functions usable in a worker without awaiting.
 */
import { PDFDict, PDFName, PDFNumber } from 'pdf-lib';
import type { PDFContext, PDFObject, PDFRef } from 'pdf-lib';
import type { TrailerEntries } from './scanner.ts';

const BINARY_MARK = '%\u00e2\u00e3\u00cf\u00d3\n';
const ENDOBJ = '\nendobj\n';

function writeAscii(text: string, buffer: Uint8Array, offset: number): number {
  for (let i = 0; i < text.length; i++) buffer[offset + i] = text.charCodeAt(i);
  return text.length;
}

/** "0000012345 00000 n \n": the fixed 20-byte row of the cross-reference table. */
function xrefRow(offset: number, generation: number, kind: 'n' | 'f'): string {
  return `${String(offset).padStart(10, '0')} ${String(generation).padStart(5, '0')} ${kind} \n`;
}

function xrefTable(entries: ReadonlyArray<[PDFRef, number]>): string {
  let table = 'xref\n0 1\n' + xrefRow(0, 65535, 'f');
  // One subsection per run of consecutive object numbers; the gaps are simply absent.
  for (let start = 0; start < entries.length; ) {
    let end = start + 1;
    while (end < entries.length && entries[end][0].objectNumber === entries[end - 1][0].objectNumber + 1) end++;
    table += `${entries[start][0].objectNumber} ${end - start}\n`;
    for (let i = start; i < end; i++) table += xrefRow(entries[i][1], entries[i][0].generationNumber, 'n');
    start = end;
  }
  return table;
}

export function writePdfFile(
  context: PDFContext,
  version: string,
  objects: ReadonlyMap<PDFRef, PDFObject | Uint8Array>,
  trailer: TrailerEntries,
): Uint8Array {
  const sorted = [...objects].sort((a, b) => a[0].objectNumber - b[0].objectNumber || a[0].generationNumber - b[0].generationNumber);
  // Two objects with one number (two generations) cannot both be in one xref: the higher generation wins.
  const unique = sorted.filter((entry, i) => i + 1 === sorted.length || sorted[i + 1][0].objectNumber !== entry[0].objectNumber);
  const header = `%PDF-${version}\n${BINARY_MARK}`;
  const heads = unique.map(([ref]) => `${ref.objectNumber} ${ref.generationNumber} obj\n`);
  // Offsets come from the sizes first, so the trailer is known and the file is allocated once.
  const offsets: Array<[PDFRef, number]> = [];
  let offset = header.length;
  for (let i = 0; i < unique.length; i++) {
    offsets.push([unique[i][0], offset]);
    const object = unique[i][1];
    offset += heads[i].length + (object instanceof Uint8Array ? object.length : object.sizeInBytes()) + ENDOBJ.length;
  }

  const trailerDict = PDFDict.withContext(context);
  const lastNumber = unique.length ? unique[unique.length - 1][0].objectNumber : 0;
  trailerDict.set(PDFName.of('Size'), PDFNumber.of(lastNumber + 1));
  for (const key of ['Root', 'Info', 'ID', 'Encrypt'] as const) {
    const value = trailer[key];
    if (value) trailerDict.set(PDFName.of(key), value);
  }
  const tail = `${xrefTable(offsets)}trailer\n${trailerDict.toString()}\nstartxref\n${offset}\n%%EOF\n`;

  const file = new Uint8Array(offset + tail.length);
  let at = writeAscii(header, file, 0);
  for (let i = 0; i < unique.length; i++) {
    at += writeAscii(heads[i], file, at);
    const object = unique[i][1];
    if (object instanceof Uint8Array) file.set(object, at);
    at += object instanceof Uint8Array ? object.length : object.copyBytesInto(file, at);
    at += writeAscii(ENDOBJ, file, at);
  }
  writeAscii(tail, file, at);
  return file;
}

/** An object's bytes as writePdfFile writes them between "obj" and "endobj". */
export function serializedBody(object: PDFObject): Uint8Array {
  const body = new Uint8Array(object.sizeInBytes());
  object.copyBytesInto(body, 0);
  return body;
}
