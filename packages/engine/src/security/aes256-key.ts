/**
 * Key handling of the standard security handler with AES-256 (V5): revision 6 of ISO 32000-2
 * (algorithms 2.A, 2.B, 8, 9, 10, 11, 12) and Adobe's earlier revision 5, which hashes with a single
 * SHA-256. The file key is random and stored wrapped by hashes of each password (/UE, /OE).
 */
import { cbc, ecb } from '@noble/ciphers/aes.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesEqual, int32LE } from './bytes.ts';
import { concatBytes } from '../pdf/bytes.ts';
import { cryptoPrimitives } from './primitives.ts';

export type Aes256Revision = 5 | 6;

const ZERO_IV = new Uint8Array(16);
const EMPTY = new Uint8Array(0);

/** Algorithm 2.B: the hash of revision 6, at least 64 rounds of AES-128-CBC and SHA-2. */
export function hashR6(password: Uint8Array, salt: Uint8Array, userEntry: Uint8Array): Uint8Array {
  const { sha256, sha384, sha512, aesCbcEncryptRaw } = cryptoPrimitives();
  let k = sha256(concatBytes([password, salt, userEntry]));
  let e: Uint8Array = EMPTY;
  for (let round = 0; round < 64 || e[e.length - 1] > round - 32; round++) {
    const blockLength = password.length + k.length + userEntry.length;
    const k1 = new Uint8Array(blockLength * 64);
    k1.set(password);
    k1.set(k, password.length);
    k1.set(userEntry, password.length + k.length);
    for (let copy = 1; copy < 64; copy++) k1.copyWithin(copy * blockLength, 0, blockLength);
    e = aesCbcEncryptRaw(k.subarray(0, 16), k.subarray(16, 32), k1);
    // The first 16 bytes as a big-endian number mod 3 equals their sum mod 3, since 256 = 1 (mod 3).
    let sum = 0;
    for (let i = 0; i < 16; i++) sum += e[i];
    const remainder = sum % 3;
    k = remainder === 0 ? sha256(e) : remainder === 1 ? sha384(e) : sha512(e);
  }
  return k.subarray(0, 32);
}

export function passwordHash(revision: Aes256Revision, password: Uint8Array, salt: Uint8Array, userEntry: Uint8Array): Uint8Array {
  return revision === 6 ? hashR6(password, salt, userEntry) : sha256(concatBytes([password, salt, userEntry]));
}

export interface Aes256KeyParams {
  revision: Aes256Revision;
  /** 48 bytes: hash, validation salt, key salt. */
  owner: Uint8Array;
  user: Uint8Array;
  /** 32 bytes each: the file key wrapped by the owner / user password hash. */
  ownerKey: Uint8Array;
  userKey: Uint8Array;
}

function unwrapFileKey(wrappingKey: Uint8Array, wrapped: Uint8Array): Uint8Array {
  return cbc(wrappingKey, ZERO_IV, { disablePadding: true }).decrypt(wrapped.subarray(0, 32));
}

/** Algorithm 2.A for the user password: the file key, or null when the password does not match. */
export function authenticateAes256User(params: Aes256KeyParams, password: Uint8Array): Uint8Array | null {
  const { revision, user } = params;
  const hash = passwordHash(revision, password, user.subarray(32, 40), EMPTY);
  if (!bytesEqual(hash, user.subarray(0, 32))) return null;
  return unwrapFileKey(passwordHash(revision, password, user.subarray(40, 48), EMPTY), params.userKey);
}

/** Algorithm 2.A for the owner password (its hashes also cover the 48-byte /U entry). */
export function authenticateAes256Owner(params: Aes256KeyParams, password: Uint8Array): Uint8Array | null {
  const { revision, owner } = params;
  const user = params.user.subarray(0, 48);
  const hash = passwordHash(revision, password, owner.subarray(32, 40), user);
  if (!bytesEqual(hash, owner.subarray(0, 32))) return null;
  return unwrapFileKey(passwordHash(revision, password, owner.subarray(40, 48), user), params.ownerKey);
}

/** One password's entry (/U or /O) plus the key that wraps the file key for it (/UE or /OE). */
export interface PasswordEntry {
  entry: Uint8Array;
  wrappingKey: Uint8Array;
}

/**
 * Algorithms 8 and 9, the slow part: hashes a password with fresh salts. Independent of the file
 * key, so a merge that reuses the same passwords computes this once and wraps each row's fresh file
 * key with `wrapFileKey`, which costs one AES block pair.
 */
export function makePasswordEntry(password: Uint8Array, salts: Uint8Array, userEntry: Uint8Array): PasswordEntry {
  const validationSalt = salts.subarray(0, 8);
  const keySalt = salts.subarray(8, 16);
  return {
    entry: concatBytes([hashR6(password, validationSalt, userEntry), validationSalt, keySalt]),
    wrappingKey: hashR6(password, keySalt, userEntry),
  };
}

export function wrapFileKey(wrappingKey: Uint8Array, fileKey: Uint8Array): Uint8Array {
  return cbc(wrappingKey, ZERO_IV, { disablePadding: true }).encrypt(fileKey);
}

/** Algorithm 10: the /Perms entry, /P sealed under the file key so tampering with /P shows. */
export function permsEntry(fileKey: Uint8Array, permissions: number, encryptMetadata: boolean, random4: Uint8Array): Uint8Array {
  const block = concatBytes([int32LE(permissions), new Uint8Array([0xff, 0xff, 0xff, 0xff, encryptMetadata ? 0x54 : 0x46, 0x61, 0x64, 0x62]), random4.subarray(0, 4)]);
  return ecb(fileKey, { disablePadding: true }).encrypt(block);
}
