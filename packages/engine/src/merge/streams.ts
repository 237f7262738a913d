/** Writes content-stream objects directly as bytes: the per-row hot path avoids pdf-lib objects. */
import { zlibSync } from 'fflate';
import { ascii } from '../pdf/bytes.ts';

const encoder = new TextEncoder();

/**
 * Below this, Flate saves a few dozen bytes per row but costs more CPU than everything else a row
 * does (deflate sets up its tables per call), so short streams are stored as they are.
 */
const MIN_COMPRESSED_BYTES = 1024;

/**
 * Content operators are ASCII except inside strings, which the text layer writes as hex; TextEncoder
 * then gives exactly one byte per character.
 */
export function streamObject(objectNumber: number, operators: string, compress: boolean): Uint8Array {
  const raw = encoder.encode(operators);
  const data = compress && raw.length >= MIN_COMPRESSED_BYTES ? zlibSync(raw, { level: 6 }) : raw;
  const filter = data === raw ? '' : ' /Filter /FlateDecode';
  const head = ascii(`${objectNumber} 0 obj\n<< /Length ${data.length}${filter} >>\nstream\n`);
  const tail = ascii('\nendstream\nendobj\n');
  const out = new Uint8Array(head.length + data.length + tail.length);
  out.set(head, 0);
  out.set(data, head.length);
  out.set(tail, head.length + data.length);
  return out;
}
