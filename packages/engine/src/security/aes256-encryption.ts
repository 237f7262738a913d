/**
 * Output encryption with AES-256 (V 5, R 6: the strongest standard method) for writers that
 * serialise pdf-lib objects themselves. A fresh random file key per document; the slow part
 * (hashing the passwords, algorithm 2.B) is done once per set of passwords and reused.
 *
 * Password choices: the user (read) password may be empty, so the file opens without a prompt
 * while changing it needs the owner (modify) password. An empty owner password means "no modify
 * password": the owner password is then the user password, so whoever can open the file may do
 * everything, and the default permissions allow everything. Both empty is not a protection and
 * is refused.
 */
import { PDFArray, PDFDict, PDFHexString, PDFNumber, PDFRawStream, PDFStream } from 'pdf-lib';
import type { PDFContext, PDFObject } from 'pdf-lib';
import { randomBytes } from '@noble/ciphers/utils.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { SheafError } from '@sheaf/shared/errors';
import { makePasswordEntry, permsEntry, wrapFileKey, type PasswordEntry } from './aes256-key.ts';
import { bytesToHex } from './bytes.ts';
import { aesEncrypt } from './ciphers.ts';
import { aes256PasswordBytes } from './passwords.ts';
import { holdsEncryptable, isClearEntry, isPdfString } from './pdf-objects.ts';
import { stringBytes } from './pdf-string.ts';
import { ALL_PERMISSIONS, READ_ONLY_PERMISSIONS, permissionBits, type PdfPermissions } from './permissions.ts';

export interface Aes256EncryptionOptions {
  /** Needed to open the document; '' opens without a password. */
  userPassword: string;
  /** Needed to change permissions and edit; '' means the user password is used. */
  ownerPassword: string;
  /** Defaults: everything without a modify password, READ_ONLY_PERMISSIONS with one. */
  permissions?: Partial<PdfPermissions>;
}

export interface PdfEncryption {
  /** The /Encrypt dictionary (register it as an indirect object and name it in the trailer). */
  encryptDict(context: PDFContext): PDFDict;
  /**
   * The object with every string and stream content encrypted: dicts, arrays and streams are
   * copied, never changed in place; an object holding nothing to encrypt comes back as it is.
   * Not for the /Encrypt dictionary, cross-reference streams or object streams.
   */
  encryptObject(object: PDFObject): PDFObject;
  /** AES-256-CBC with a random IV in front and PKCS#7 padding: a string's or stream's bytes. */
  encryptBytes(data: Uint8Array): Uint8Array;
}

export interface PreparedAes256Encryption {
  /** A PdfEncryption with a fresh random file key; cheap, call it once per document. */
  create(): PdfEncryption;
}

const IV_POOL_SIZE = 4096;

/** Hands out random IVs from a pooled buffer: one getRandomValues call per 256 IVs, not per string. */
class IvSource {
  private pool = randomBytes(IV_POOL_SIZE);
  private used = 0;

  next(): Uint8Array {
    if (this.used === IV_POOL_SIZE) {
      this.pool = randomBytes(IV_POOL_SIZE);
      this.used = 0;
    }
    this.used += 16;
    return this.pool.subarray(this.used - 16, this.used);
  }
}

class Aes256Encryption implements PdfEncryption {
  private readonly ivs = new IvSource();

  constructor(
    private readonly fileKey: Uint8Array,
    private readonly entries: Record<'O' | 'U' | 'OE' | 'UE' | 'Perms', Uint8Array>,
    private readonly permissions: number,
  ) {}

  encryptDict(context: PDFContext): PDFDict {
    const hex = (bytes: Uint8Array) => PDFHexString.of(bytesToHex(bytes));
    return context.obj({
      Filter: 'Standard',
      V: 5,
      R: 6,
      Length: 256,
      CF: { StdCF: { AuthEvent: 'DocOpen', CFM: 'AESV3', Length: 32 } },
      StmF: 'StdCF',
      StrF: 'StdCF',
      O: hex(this.entries.O),
      U: hex(this.entries.U),
      OE: hex(this.entries.OE),
      UE: hex(this.entries.UE),
      Perms: hex(this.entries.Perms),
      P: PDFNumber.of(this.permissions),
    });
  }

  encryptBytes(data: Uint8Array): Uint8Array {
    return aesEncrypt(this.fileKey, this.ivs.next(), data);
  }

  encryptObject(object: PDFObject): PDFObject {
    if (isPdfString(object)) return PDFHexString.of(bytesToHex(this.encryptBytes(stringBytes(object))));
    if (object instanceof PDFStream) {
      // Always a new dict: writing a stream updates its /Length, which must not touch the source.
      const dict = this.encryptContainer(object.dict);
      return PDFRawStream.of(dict === object.dict ? dict.clone() : dict, this.encryptBytes(object.getContents()));
    }
    if (object instanceof PDFDict || object instanceof PDFArray) return this.encryptContainer(object);
    return object;
  }

  private encryptContainer<T extends PDFDict | PDFArray>(container: T): T {
    if (!holdsEncryptable(container)) return container;
    const copy = container.clone() as T;
    if (copy instanceof PDFDict) {
      for (const [key, value] of copy.entries()) if (!isClearEntry(copy, key)) copy.set(key, this.encryptObject(value));
    } else {
      for (let i = 0; i < copy.size(); i++) copy.set(i, this.encryptObject(copy.get(i)));
    }
    return copy;
  }
}

/** Hashes the passwords once; `create()` then makes per-document encryptions with fresh keys. */
export function prepareAes256Encryption(options: Aes256EncryptionOptions): PreparedAes256Encryption {
  const { userPassword } = options;
  const ownerPassword = options.ownerPassword || userPassword;
  if (!ownerPassword) throw new SheafError('generic/invalid-input', { detail: 'a read or a modify password is needed to protect a PDF' });
  const defaults = options.ownerPassword ? READ_ONLY_PERMISSIONS : ALL_PERMISSIONS;
  const permissions = permissionBits({ ...defaults, ...options.permissions });
  const user: PasswordEntry = makePasswordEntry(aes256PasswordBytes(userPassword), randomBytes(16), new Uint8Array(0));
  const owner: PasswordEntry = makePasswordEntry(aes256PasswordBytes(ownerPassword), randomBytes(16), user.entry);
  return {
    create(): PdfEncryption {
      const fileKey = randomBytes(32);
      return new Aes256Encryption(
        fileKey,
        {
          U: user.entry,
          UE: wrapFileKey(user.wrappingKey, fileKey),
          O: owner.entry,
          OE: wrapFileKey(owner.wrappingKey, fileKey),
          Perms: permsEntry(fileKey, permissions, true, randomBytes(4)),
        },
        permissions,
      );
    },
  };
}

/**
 * Preparations by password set, so a merge that protects every row with the same passwords hashes
 * them once instead of per row (4 runs of algorithm 2.B, about 40 ms). Keyed by a SHA-256 of the
 * options so no password is kept in clear; bounded, oldest dropped first. Reusing the salts only
 * shows that two documents share their passwords; every document still gets its own file key.
 */
const PREPARED_CACHE_SIZE = 16;
const preparedCache = new Map<string, PreparedAes256Encryption>();
const cacheEncoder = new TextEncoder();

function cachedPreparation(options: Aes256EncryptionOptions): PreparedAes256Encryption {
  const { userPassword, ownerPassword, permissions } = options;
  const key = bytesToHex(sha256(cacheEncoder.encode(JSON.stringify([userPassword, ownerPassword, permissions ?? null]))));
  let prepared = preparedCache.get(key);
  if (!prepared) {
    prepared = prepareAes256Encryption(options);
    if (preparedCache.size >= PREPARED_CACHE_SIZE) preparedCache.delete(preparedCache.keys().next().value as string);
    preparedCache.set(key, prepared);
  }
  return prepared;
}

/** One document's AES-256 encryption with a fresh random file key. */
export function createAes256Encryption(options: Aes256EncryptionOptions): PdfEncryption {
  return cachedPreparation(options).create();
}
