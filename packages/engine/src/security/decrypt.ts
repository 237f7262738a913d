/**
 * Opening encrypted templates: inspectEncryption says what protects a PDF, decryptPdf rewrites it
 * as an ordinary unencrypted PDF with the same objects.
 */
import { PDFArray, PDFDict, PDFRef } from 'pdf-lib';
import type { PDFObject } from 'pdf-lib';
import { SheafError } from '@sheaf/shared/errors';
import { guarded } from './guard.ts';
import { ObjectDecryptor } from './object-decryptor.ts';
import { expandObjectStream } from './object-stream.ts';
import { isPdfString } from './pdf-objects.ts';
import { stringBytes } from './pdf-string.ts';
import { writePdfFile } from './pdf-file-writer.ts';
import { isStreamOfType, scanPdf, type ScannedPdf } from './scanner.ts';
import { authenticate, opensWithoutPassword, readSecurityHandler, type EncryptionInfo, type SecurityHandler } from './security-handler.ts';

/** First element of the trailer /ID, which the RC4/AES-128 key derivation hashes. */
function documentId(scanned: ScannedPdf): Uint8Array {
  const id = scanned.trailer.ID instanceof PDFRef ? scanned.context.lookup(scanned.trailer.ID) : scanned.trailer.ID;
  const first = id instanceof PDFArray && id.size() > 0 ? scanned.context.lookup(id.get(0)) : undefined;
  return isPdfString(first) ? stringBytes(first) : new Uint8Array(0);
}

/** The security handler named by the trailer, or null for an unencrypted file. */
export function readHandler(scanned: ScannedPdf): SecurityHandler | null {
  const entry = scanned.trailer.Encrypt;
  if (!entry) return null;
  const encrypt: PDFObject | undefined = entry instanceof PDFRef ? scanned.context.lookup(entry) : entry;
  if (!(encrypt instanceof PDFDict)) throw new SheafError('template/corrupt', { detail: 'the encryption dictionary is missing' });
  return readSecurityHandler(encrypt, documentId(scanned));
}

/** null for an unencrypted PDF, else what encrypts it and whether it opens without a password. */
export function inspectEncryption(bytes: Uint8Array): EncryptionInfo | null {
  return guarded(() => {
    const handler = readHandler(scanPdf(bytes));
    if (!handler) return null;
    return { ...handler.info, opensWithoutPassword: handler.info.supported && opensWithoutPassword(handler) };
  });
}

/**
 * The same document without encryption. `password` may be the user or the owner password; a
 * file whose user password is empty opens without one (the password is then not checked). An
 * unencrypted input comes back unchanged.
 */
export function decryptPdf(bytes: Uint8Array, password: string): Uint8Array {
  return guarded(() => {
    const scanned = scanPdf(bytes);
    const handler = readHandler(scanned);
    if (!handler) return bytes;
    if (!handler.info.supported) throw new SheafError('template/unsupported-encryption', { detail: handler.info.unsupportedReason ?? handler.info.filter });
    const fileKey = authenticate(handler, password);
    if (!fileKey) throw new SheafError('template/wrong-password');

    const decryptor = new ObjectDecryptor(handler, fileKey);
    const encryptRef = scanned.trailer.Encrypt;
    const objects = new Map<PDFRef, PDFObject>();
    for (const { ref, object } of scanned.objects) {
      if (ref === encryptRef || isStreamOfType(object, 'XRef')) continue;
      const plain = decryptor.decrypt(ref, object);
      if (!isStreamOfType(plain, 'ObjStm')) {
        objects.set(ref, plain);
        continue;
      }
      // Objects inside an object stream are not encrypted individually: the stream was.
      for (const [innerRef, inner] of expandObjectStream(plain, scanned.context)) objects.set(innerRef, inner);
    }
    const { Root, Info, ID } = scanned.trailer;
    if (!Root) throw new SheafError('template/corrupt', { detail: 'no document catalog' });
    return writePdfFile(scanned.context, scanned.version, objects, { Root, Info, ID });
  });
}
