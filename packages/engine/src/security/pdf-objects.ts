/** Walks PDF objects for the strings and streams that encryption covers. */
import { PDFArray, PDFDict, PDFHexString, PDFName, PDFStream, PDFString } from 'pdf-lib';
import type { PDFObject } from 'pdf-lib';
import { bytesToHex } from './bytes.ts';

const TYPE = PDFName.of('Type');
const CONTENTS = PDFName.of('Contents');
const ascii = new TextDecoder();
const SIGNATURE_TYPES = new Set([PDFName.of('Sig'), PDFName.of('DocTimeStamp')]);

export function isPdfString(object: PDFObject | undefined): object is PDFString | PDFHexString {
  return object instanceof PDFString || object instanceof PDFHexString;
}

/**
 * A signature's /Contents is stored in clear in encrypted files (ISO 32000-2 7.6.2; PDFium and
 * qpdf do the same), so the signed byte range can be checked without the key.
 */
export function isClearEntry(dict: PDFDict, key: PDFName): boolean {
  return key === CONTENTS && SIGNATURE_TYPES.has(dict.get(TYPE) as PDFName);
}

function isPlainText(bytes: Uint8Array): boolean {
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i];
    if (byte < 0x20 || byte > 0x7e || byte === 0x28 || byte === 0x29 || byte === 0x5c) return false;
  }
  return true;
}

/** Plain ASCII as a literal string (readable, smaller), anything else as hex. */
export function stringObject(bytes: Uint8Array): PDFString | PDFHexString {
  return isPlainText(bytes) ? PDFString.of(ascii.decode(bytes)) : PDFHexString.of(bytesToHex(bytes));
}

/** Replaces every string inside `object` (dicts and arrays, recursively) in place, via `convert`. */
export function mapStringsInPlace(object: PDFObject, convert: (value: PDFString | PDFHexString) => PDFObject): void {
  if (object instanceof PDFDict) {
    for (const [key, value] of object.entries()) {
      if (isPdfString(value)) {
        if (!isClearEntry(object, key)) object.set(key, convert(value));
      } else if (value instanceof PDFDict || value instanceof PDFArray) mapStringsInPlace(value, convert);
    }
  } else if (object instanceof PDFArray) {
    for (let i = 0; i < object.size(); i++) {
      const value = object.get(i);
      if (isPdfString(value)) object.set(i, convert(value));
      else if (value instanceof PDFDict || value instanceof PDFArray) mapStringsInPlace(value, convert);
    }
  }
}

/** Whether encryption changes the object: it is or holds a string, or is a stream. */
export function holdsEncryptable(object: PDFObject): boolean {
  if (isPdfString(object) || object instanceof PDFStream) return true;
  if (object instanceof PDFDict) {
    for (const [, value] of object.entries()) if (holdsEncryptable(value)) return true;
  } else if (object instanceof PDFArray) {
    for (let i = 0; i < object.size(); i++) if (holdsEncryptable(object.get(i))) return true;
  }
  return false;
}
