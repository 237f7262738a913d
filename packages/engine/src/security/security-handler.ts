/**
 * Reads an /Encrypt dictionary into the facts a user or caller needs (EncryptionInfo) and the
 * parameters the key derivation needs, and opens it with a password.
 */
import { PDFDict, PDFHexString, PDFName, PDFNumber, PDFString, PDFBool } from 'pdf-lib';
import type { PDFObject } from 'pdf-lib';
import { SheafError } from '@sheaf/shared/errors';
import { authenticateAes256Owner, authenticateAes256User, type Aes256KeyParams } from './aes256-key.ts';
import type { CipherName } from './ciphers.ts';
import { authenticateLegacyOwner, authenticateLegacyUser, type LegacyKeyParams } from './legacy-key.ts';
import { aes256PasswordBytes, legacyPasswordBytes } from './passwords.ts';
import { stringBytes } from './pdf-string.ts';

/** What an encrypted PDF uses, as `inspectEncryption` reports it. */
export interface EncryptionInfo {
  /** The security handler, e.g. "Standard" or "Adobe.PubSec". */
  filter: string;
  /** Whether decryptPdf can open it; if not, `unsupportedReason` says why. */
  supported: boolean;
  unsupportedReason?: string;
  /** /V: 1 and 2 RC4, 4 crypt filters, 5 AES-256. */
  version: number;
  /** /R: revision of the standard security handler (2 to 6). */
  revision: number;
  keyBits: number;
  /** Cipher of streams and of strings (they differ only with V4 crypt filters). */
  cipher: CipherName;
  stringCipher: CipherName;
  /** False when the XMP metadata stream is stored in clear (/EncryptMetadata false). */
  encryptMetadata: boolean;
  /** /P: the permission bits granted to the user password. */
  permissions: number;
  /** The empty user password opens it: no password prompt is needed. */
  opensWithoutPassword: boolean;
}

export interface SecurityHandler {
  info: EncryptionInfo;
  /** Cipher per crypt filter name, for streams that name their own filter (/Filter /Crypt). */
  cryptFilters: ReadonlyMap<string, CipherName>;
  embeddedFileCipher: CipherName;
  legacy?: LegacyKeyParams;
  aes256?: Aes256KeyParams;
}

function get(dict: PDFDict, key: string): PDFObject | undefined {
  return dict.lookup(PDFName.of(key));
}

function numberEntry(dict: PDFDict, key: string): number | undefined {
  const value = get(dict, key);
  return value instanceof PDFNumber ? value.asNumber() : undefined;
}

function nameEntry(dict: PDFDict, key: string): string | undefined {
  const value = get(dict, key);
  return value instanceof PDFName ? value.decodeText() : undefined;
}

function bytesEntry(dict: PDFDict, key: string, minLength: number): Uint8Array {
  const value = get(dict, key);
  const bytes = value instanceof PDFString || value instanceof PDFHexString ? stringBytes(value) : undefined;
  if (!bytes || bytes.length < minLength) throw new SheafError('template/corrupt', { detail: `the encryption dictionary has no valid /${key}` });
  return bytes;
}

class Unsupported extends Error {}

const CIPHER_BY_METHOD: Record<string, CipherName> = { None: 'none', V2: 'RC4', AESV2: 'AES-128', AESV3: 'AES-256' };

/** Crypt filters of V4/V5: the /CF entries plus the predefined Identity. */
function readCryptFilters(encrypt: PDFDict): Map<string, CipherName> {
  const filters = new Map<string, CipherName>([['Identity', 'none']]);
  const cf = get(encrypt, 'CF');
  if (!(cf instanceof PDFDict)) return filters;
  for (const [name, value] of cf.entries()) {
    const filter = value instanceof PDFDict ? value : encrypt.context.lookup(value);
    if (!(filter instanceof PDFDict)) continue;
    const method = nameEntry(filter, 'CFM') ?? 'None';
    const cipher = CIPHER_BY_METHOD[method];
    if (!cipher) throw new Unsupported(`crypt filter method ${method}`);
    filters.set(name.decodeText(), cipher);
  }
  return filters;
}

function cipherOf(filters: Map<string, CipherName>, encrypt: PDFDict, key: string, fallback?: CipherName): CipherName {
  const name = nameEntry(encrypt, key);
  if (name === undefined) return fallback ?? 'none';
  const cipher = filters.get(name);
  if (!cipher) throw new Unsupported(`crypt filter ${name} is not defined`);
  return cipher;
}

function keyBitsFor(version: number, encrypt: PDFDict, cipher: CipherName): number {
  if (version === 1) return 40;
  if (version === 5) return 256;
  if (version === 4 && cipher === 'AES-128') return 128;
  const length = numberEntry(encrypt, 'Length');
  if (length !== undefined) return length;
  // A crypt filter's /Length is in bytes by the standard, though some writers put bits.
  if (version === 4) return 128;
  return 40;
}

function checkRevision(version: number, revision: number, keyBits: number, ciphers: CipherName[]): void {
  const valid =
    ((version === 1 || version === 2) && (revision === 2 || revision === 3)) ||
    (version === 4 && revision === 4) ||
    (version === 5 && (revision === 5 || revision === 6));
  if (!valid) throw new Unsupported(`V ${version} R ${revision}`);
  if (version < 5 && (keyBits < 40 || keyBits > 128 || keyBits % 8 !== 0)) throw new Unsupported(`${keyBits}-bit key`);
  // AESV3 belongs to V 5 (a 256-bit file key), and V 5 knows no other cipher.
  const mismatched = version === 5 ? ciphers.some((cipher) => cipher !== 'none' && cipher !== 'AES-256') : ciphers.includes('AES-256');
  if (mismatched) throw new Unsupported(`crypt filter method ${ciphers.join('/')} with V ${version}`);
}

export function readSecurityHandler(encrypt: PDFDict, documentId: Uint8Array): SecurityHandler {
  const filter = nameEntry(encrypt, 'Filter') ?? '';
  const version = numberEntry(encrypt, 'V') ?? 0;
  const revision = numberEntry(encrypt, 'R') ?? 0;
  const permissions = (numberEntry(encrypt, 'P') ?? 0) | 0;
  const metadataFlag = get(encrypt, 'EncryptMetadata');
  const encryptMetadata = !(metadataFlag instanceof PDFBool) || metadataFlag.asBoolean();
  const info: EncryptionInfo = {
    filter,
    supported: false,
    version,
    revision,
    keyBits: 0,
    cipher: 'none',
    stringCipher: 'none',
    encryptMetadata,
    permissions,
    opensWithoutPassword: false,
  };
  const handler: SecurityHandler = { info, cryptFilters: new Map(), embeddedFileCipher: 'none' };
  try {
    if (filter !== 'Standard') throw new Unsupported(`security handler ${filter || 'without a name'}`);
    const legacyCipher: CipherName = version === 1 || version === 2 ? 'RC4' : 'none';
    const filters = version >= 4 ? readCryptFilters(encrypt) : new Map<string, CipherName>();
    info.cipher = version >= 4 ? cipherOf(filters, encrypt, 'StmF') : legacyCipher;
    info.stringCipher = version >= 4 ? cipherOf(filters, encrypt, 'StrF') : legacyCipher;
    handler.embeddedFileCipher = version >= 4 ? cipherOf(filters, encrypt, 'EFF', info.cipher) : legacyCipher;
    handler.cryptFilters = filters;
    info.keyBits = keyBitsFor(version, encrypt, info.cipher === 'none' ? info.stringCipher : info.cipher);
    checkRevision(version, revision, info.keyBits, [info.cipher, info.stringCipher, handler.embeddedFileCipher]);
  } catch (error) {
    if (!(error instanceof Unsupported)) throw error;
    info.unsupportedReason = error.message;
    return handler;
  }
  if (version === 5) {
    handler.aes256 = {
      revision: revision as 5 | 6,
      owner: bytesEntry(encrypt, 'O', 48),
      user: bytesEntry(encrypt, 'U', 48),
      ownerKey: bytesEntry(encrypt, 'OE', 32),
      userKey: bytesEntry(encrypt, 'UE', 32),
    };
  } else {
    handler.legacy = {
      revision: revision as 2 | 3 | 4,
      keyLength: info.keyBits / 8,
      owner: bytesEntry(encrypt, 'O', 32),
      user: bytesEntry(encrypt, 'U', revision === 2 ? 32 : 16),
      permissions,
      documentId,
      encryptMetadata,
    };
  }
  info.supported = true;
  return handler;
}

function authenticateUser(handler: SecurityHandler, password: string): Uint8Array | null {
  if (handler.aes256) return authenticateAes256User(handler.aes256, aes256PasswordBytes(password));
  return handler.legacy ? authenticateLegacyUser(handler.legacy, legacyPasswordBytes(password)) : null;
}

function authenticateOwner(handler: SecurityHandler, password: string): Uint8Array | null {
  if (handler.aes256) return authenticateAes256Owner(handler.aes256, aes256PasswordBytes(password));
  return handler.legacy ? authenticateLegacyOwner(handler.legacy, legacyPasswordBytes(password)) : null;
}

/** Whether the empty user password opens the file (no password prompt needed). */
export function opensWithoutPassword(handler: SecurityHandler): boolean {
  return authenticateUser(handler, '') !== null;
}

/**
 * The file key, from `password` as user or owner password or from the empty user password; null
 * when none fits. Every way in yields the same key, so the likeliest (and, for revision 6, cheapest:
 * each try costs a 2.B hash or two) goes first.
 */
export function authenticate(handler: SecurityHandler, password: string): Uint8Array | null {
  return authenticateUser(handler, password) ?? authenticateOwner(handler, password) ?? (password === '' ? null : authenticateUser(handler, ''));
}
