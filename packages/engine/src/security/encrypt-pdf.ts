/**
 * Password-protects whole unencrypted PDFs with AES-256 (a full rewrite, no object streams):
 * encryptPdf for one file, createTemplateEncryptor for many files that share their start (a
 * template plus one incremental update per row), where the template is parsed once and its
 * objects without strings or streams are serialised once.
 */
import { PDFArray, PDFDict, PDFHexString, PDFName, PDFNumber, PDFRef } from 'pdf-lib';
import type { PDFContext, PDFObject } from 'pdf-lib';
import { randomBytes } from '@noble/ciphers/utils.js';
import { SheafError } from '@sheaf/shared/errors';
import { createAes256Encryption, type Aes256EncryptionOptions } from './aes256-encryption.ts';
import { bytesToHex } from './bytes.ts';
import { guarded } from './guard.ts';
import { expandObjectStream } from './object-stream.ts';
import { holdsEncryptable } from './pdf-objects.ts';
import { serializedBody, writePdfFile } from './pdf-file-writer.ts';
import { isStreamOfType, scanPdf, type ScannedPdf, type TrailerEntries } from './scanner.ts';

/** Top-level objects with object streams unpacked and cross-reference streams left out. */
function plainObjects(scanned: ScannedPdf): Map<PDFRef, PDFObject> {
  if (scanned.trailer.Encrypt) throw new SheafError('template/encrypted');
  const objects = new Map<PDFRef, PDFObject>();
  for (const { ref, object } of scanned.objects) {
    if (isStreamOfType(object, 'XRef')) continue;
    if (!isStreamOfType(object, 'ObjStm')) objects.set(ref, object);
    else for (const [innerRef, inner] of expandObjectStream(object, scanned.context)) objects.set(innerRef, inner);
  }
  return objects;
}

/** R6 is part of PDF 2.0; PDF 1.7 readers know it as Adobe's extension level 8. */
function withAdbeExtension(catalog: PDFObject, context: PDFContext): PDFObject {
  const existing = catalog instanceof PDFDict ? catalog.get(PDFName.of('Extensions')) : undefined;
  // An indirect /Extensions stays as it is: readers do not need the entry to open the file.
  if (!(catalog instanceof PDFDict) || (existing && !(existing instanceof PDFDict))) return catalog;
  const copy = catalog.clone();
  const extensions = existing instanceof PDFDict ? existing.clone() : PDFDict.withContext(context);
  extensions.set(PDFName.of('ADBE'), context.obj({ BaseVersion: PDFName.of('1.7'), ExtensionLevel: PDFNumber.of(8) }));
  copy.set(PDFName.of('Extensions'), extensions);
  return copy;
}

/** The trailer /ID, which an encrypted file must have and which is never encrypted itself. */
function documentId(id: PDFObject | undefined, context: PDFContext): PDFObject {
  const value = id instanceof PDFRef ? context.lookup(id) : id;
  if (value instanceof PDFArray && value.size() === 2) return value;
  const random = PDFHexString.of(bytesToHex(randomBytes(16)));
  return context.obj([random, random]);
}

/** A template's objects: those encryption leaves alone already serialised, the others as objects. */
interface BaseObjects {
  unchanged: Map<PDFRef, Uint8Array>;
  encryptable: Map<PDFRef, PDFObject>;
}

function splitBase(objects: Map<PDFRef, PDFObject>, root: PDFObject | undefined): BaseObjects {
  const base: BaseObjects = { unchanged: new Map(), encryptable: new Map() };
  for (const [ref, object] of objects) {
    // The catalog changes in every output (the extension entry), so it stays an object.
    if (ref === root || holdsEncryptable(object)) base.encryptable.set(ref, object);
    else base.unchanged.set(ref, serializedBody(object));
  }
  return base;
}

interface Document {
  context: PDFContext;
  version: string;
  base: BaseObjects;
  /** Objects that replace or add to the base (an incremental update). */
  updates: ReadonlyMap<PDFRef, PDFObject>;
  trailer: TrailerEntries;
}

function writeEncrypted({ context, version, base, updates, trailer }: Document, options: Aes256EncryptionOptions): Uint8Array {
  const { Root, Info, ID } = trailer;
  if (!(Root instanceof PDFRef)) throw new SheafError('template/corrupt', { detail: 'no document catalog' });
  const encryption = createAes256Encryption(options);
  const encrypt = (ref: PDFRef, object: PDFObject) => encryption.encryptObject(ref === Root ? withAdbeExtension(object, context) : object);
  const objects = new Map<PDFRef, PDFObject | Uint8Array>();
  let lastNumber = 0;
  for (const [ref, body] of base.unchanged) if (!updates.has(ref)) objects.set(ref, body);
  for (const [ref, object] of base.encryptable) if (!updates.has(ref)) objects.set(ref, encrypt(ref, object));
  for (const [ref, object] of updates) objects.set(ref, encrypt(ref, object));
  for (const ref of objects.keys()) lastNumber = Math.max(lastNumber, ref.objectNumber);
  const encryptRef = PDFRef.of(lastNumber + 1, 0);
  objects.set(encryptRef, encryption.encryptDict(context));
  const pdfVersion = Number(version) >= 1.7 ? version : '1.7';
  return writePdfFile(context, pdfVersion, objects, { Root, Info, ID: documentId(ID, context), Encrypt: encryptRef });
}

/** Any unencrypted PDF, rewritten with AES-256 (R6) protection. An encrypted input is refused. */
export function encryptPdf(bytes: Uint8Array, options: Aes256EncryptionOptions): Uint8Array {
  return guarded(() => {
    const scanned = scanPdf(bytes);
    const base: BaseObjects = { unchanged: new Map(), encryptable: plainObjects(scanned) };
    return writeEncrypted({ context: scanned.context, version: scanned.version, base, updates: new Map(), trailer: scanned.trailer }, options);
  });
}

export interface TemplateEncryptor {
  /**
   * encryptPdf of the template followed by `update` (the bytes appended to it: an incremental
   * update), without parsing the template again.
   */
  encrypt(update: Uint8Array, options: Aes256EncryptionOptions): Uint8Array;
}

/** Parses the shared start of many documents once, for encrypting each of them fast. */
export function createTemplateEncryptor(template: Uint8Array): TemplateEncryptor {
  const scanned = guarded(() => scanPdf(template));
  const base = guarded(() => splitBase(plainObjects(scanned), scanned.trailer.Root));
  return {
    encrypt(update, options) {
      return guarded(() => {
        const appended = scanPdf(update, false);
        const trailer: TrailerEntries = { ...scanned.trailer, ...appended.trailer };
        return writeEncrypted({ context: scanned.context, version: scanned.version, base, updates: plainObjects(appended), trailer }, options);
      });
    },
  };
}
