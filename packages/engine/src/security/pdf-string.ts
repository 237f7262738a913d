/** The bytes a PDF string object stands for, whether written as a literal (...) or as hex <...>. */
import { PDFHexString, PDFString } from 'pdf-lib';
import { hexToBytes } from './bytes.ts';

const BACKSLASH = 0x5c;
const CR = 0x0d;
const LF = 0x0a;
const ESCAPES: Record<number, number> = { 0x6e: LF, 0x72: CR, 0x74: 0x09, 0x62: 0x08, 0x66: 0x0c, 0x28: 0x28, 0x29: 0x29, 0x5c: 0x5c };

function isOctal(code: number): boolean {
  return code >= 0x30 && code <= 0x37;
}

/**
 * Decodes literal string syntax (ISO 32000 7.3.4.2). pdf-lib keeps the raw text between the
 * parentheses; its own asBytes() mishandles a backslash before CR LF and bare CR line ends, which
 * matters for binary (encrypted) strings.
 */
function literalBytes(raw: string): Uint8Array {
  const out = new Uint8Array(raw.length);
  let length = 0;
  for (let i = 0; i < raw.length; i++) {
    const code = raw.charCodeAt(i) & 255;
    if (code === CR) {
      out[length++] = LF;
      if (raw.charCodeAt(i + 1) === LF) i++;
      continue;
    }
    if (code !== BACKSLASH || i + 1 >= raw.length) {
      out[length++] = code;
      continue;
    }
    const next = raw.charCodeAt(++i);
    if (next in ESCAPES) out[length++] = ESCAPES[next];
    else if (isOctal(next)) {
      let value = next - 0x30;
      for (let digits = 1; digits < 3 && isOctal(raw.charCodeAt(i + 1)); digits++) value = value * 8 + raw.charCodeAt(++i) - 0x30;
      out[length++] = value & 255;
    } else if (next === CR) {
      if (raw.charCodeAt(i + 1) === LF) i++;
    } else if (next !== LF) out[length++] = next & 255;
  }
  return out.subarray(0, length);
}

export function stringBytes(value: PDFString | PDFHexString): Uint8Array {
  return value instanceof PDFHexString ? hexToBytes(value.asString()) : literalBytes(value.asString());
}
