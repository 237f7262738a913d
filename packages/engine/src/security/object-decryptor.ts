/** Decrypts the strings and stream data of one indirect object with the document's file key. */
import { PDFArray, PDFDict, PDFName, PDFRawStream } from 'pdf-lib';
import type { PDFObject, PDFRef } from 'pdf-lib';
import { decryptData, type CipherName } from './ciphers.ts';
import { legacyObjectKey } from './legacy-key.ts';
import { isPdfString, mapStringsInPlace, stringObject } from './pdf-objects.ts';
import { stringBytes } from './pdf-string.ts';
import type { SecurityHandler } from './security-handler.ts';

const TYPE = PDFName.of('Type');
const FILTER = PDFName.of('Filter');
const DECODE_PARMS = PDFName.of('DecodeParms');
const CRYPT = PDFName.of('Crypt');
const NAME = PDFName.of('Name');
const METADATA = PDFName.of('Metadata');
const EMBEDDED_FILE = PDFName.of('EmbeddedFile');

function cryptFilterName(parms: PDFObject | undefined): string {
  const name = parms instanceof PDFDict ? parms.get(NAME) : undefined;
  return name instanceof PDFName ? name.decodeText() : 'Identity';
}

/**
 * A stream may name its own crypt filter as the first entry of /Filter (ISO 32000 7.4.10). Returns
 * that filter's name and removes it from /Filter and /DecodeParms, since the output is decrypted.
 */
function takeCryptFilter(dict: PDFDict): string | undefined {
  const filter = dict.get(FILTER);
  const parms = dict.get(DECODE_PARMS);
  if (filter === CRYPT) {
    dict.delete(FILTER);
    dict.delete(DECODE_PARMS);
    return cryptFilterName(parms);
  }
  if (!(filter instanceof PDFArray) || filter.size() === 0 || filter.get(0) !== CRYPT) return undefined;
  filter.remove(0);
  const name = cryptFilterName(parms instanceof PDFArray ? parms.get(0) : parms);
  if (parms instanceof PDFArray && parms.size() > 0) parms.remove(0);
  else dict.delete(DECODE_PARMS);
  if (filter.size() === 0) {
    dict.delete(FILTER);
    dict.delete(DECODE_PARMS);
  }
  return name;
}

export class ObjectDecryptor {
  constructor(
    private readonly handler: SecurityHandler,
    private readonly fileKey: Uint8Array,
  ) {}

  private keyFor(ref: PDFRef, cipher: CipherName): Uint8Array {
    if (cipher === 'AES-256' || this.handler.aes256) return this.fileKey;
    return legacyObjectKey(this.fileKey, ref.objectNumber, ref.generationNumber, cipher === 'AES-128');
  }

  private streamCipher(dict: PDFDict): CipherName {
    const { info, cryptFilters, embeddedFileCipher } = this.handler;
    const ownFilter = takeCryptFilter(dict);
    if (ownFilter !== undefined) return cryptFilters.get(ownFilter) ?? 'none';
    const type = dict.get(TYPE);
    if (type === METADATA && !info.encryptMetadata) return 'none';
    return type === EMBEDDED_FILE ? embeddedFileCipher : info.cipher;
  }

  /** The decrypted object (strings in dicts and arrays are replaced in place; streams are rebuilt). */
  decrypt(ref: PDFRef, object: PDFObject): PDFObject {
    const stringCipher = this.handler.info.stringCipher;
    let stringKey: Uint8Array | undefined;
    const decryptString = (value: Parameters<typeof stringBytes>[0]) => {
      stringKey ??= this.keyFor(ref, stringCipher);
      return stringObject(decryptData(stringCipher, stringKey, stringBytes(value)));
    };
    if (isPdfString(object)) return stringCipher === 'none' ? object : decryptString(object);
    if (stringCipher !== 'none') mapStringsInPlace(object instanceof PDFRawStream ? object.dict : object, decryptString);
    if (!(object instanceof PDFRawStream)) return object;
    const cipher = this.streamCipher(object.dict);
    if (cipher === 'none') return object;
    return PDFRawStream.of(object.dict, decryptData(cipher, this.keyFor(ref, cipher), object.contents));
  }
}
