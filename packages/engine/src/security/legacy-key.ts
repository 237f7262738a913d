/**
 * Key derivation of the standard security handler, revisions 2 to 4 (RC4 40-128 bit and AESV2):
 * ISO 32000-1 7.6.3.3, algorithms 1 to 7.
 */
import { md5 } from '@noble/hashes/legacy.js';
import { bytesEqual, int32LE } from './bytes.ts';
import { concatBytes } from '../pdf/bytes.ts';
import { rc4 } from './rc4.ts';

const PASSWORD_PADDING = new Uint8Array([
  0x28, 0xbf, 0x4e, 0x5e, 0x4e, 0x75, 0x8a, 0x41, 0x64, 0x00, 0x4e, 0x56, 0xff, 0xfa, 0x01, 0x08,
  0x2e, 0x2e, 0x00, 0xb6, 0xd0, 0x68, 0x3e, 0x80, 0x2f, 0x0c, 0xa9, 0xfe, 0x64, 0x53, 0x69, 0x7a,
]);
const NO_METADATA_MARK = new Uint8Array([0xff, 0xff, 0xff, 0xff]);
const AES_SALT = new Uint8Array([0x73, 0x41, 0x6c, 0x54]); // "sAlT"

export interface LegacyKeyParams {
  revision: 2 | 3 | 4;
  /** File key length in bytes (5 to 16). */
  keyLength: number;
  owner: Uint8Array;
  user: Uint8Array;
  permissions: number;
  /** First element of the trailer /ID (empty when the file has none). */
  documentId: Uint8Array;
  encryptMetadata: boolean;
}

function padPassword(password: Uint8Array): Uint8Array {
  const padded = new Uint8Array(32);
  const length = Math.min(password.length, 32);
  padded.set(password.subarray(0, length));
  padded.set(PASSWORD_PADDING.subarray(0, 32 - length), length);
  return padded;
}

/** Algorithm 2: the file key a (padded) user password gives. */
function fileKeyFor(params: LegacyKeyParams, paddedPassword: Uint8Array): Uint8Array {
  const parts = [paddedPassword, params.owner.subarray(0, 32), int32LE(params.permissions), params.documentId];
  if (params.revision >= 4 && !params.encryptMetadata) parts.push(NO_METADATA_MARK);
  let hash = md5(concatBytes(parts));
  if (params.revision >= 3) {
    for (let i = 0; i < 50; i++) hash = md5(hash.subarray(0, params.keyLength));
  }
  return hash.subarray(0, params.keyLength);
}

/** RC4 applied 20 times with the key XORed by the round number (revision 3 and later). */
function rc4Rounds(key: Uint8Array, data: Uint8Array, descending: boolean): Uint8Array {
  const roundKey = new Uint8Array(key.length);
  let out = data;
  for (let step = 0; step < 20; step++) {
    const round = descending ? 19 - step : step;
    for (let i = 0; i < key.length; i++) roundKey[i] = key[i] ^ round;
    out = rc4(roundKey, out);
  }
  return out;
}

/** Algorithms 4 and 5: does this key reproduce the /U entry? */
function userEntryMatches(params: LegacyKeyParams, fileKey: Uint8Array): boolean {
  if (params.revision === 2) return bytesEqual(rc4(fileKey, PASSWORD_PADDING), params.user.subarray(0, 32));
  const expected = rc4Rounds(fileKey, md5(concatBytes([PASSWORD_PADDING, params.documentId])), false);
  return bytesEqual(expected, params.user.subarray(0, 16));
}

/** Algorithm 6: the file key if `password` is the user password, else null. */
export function authenticateLegacyUser(params: LegacyKeyParams, password: Uint8Array): Uint8Array | null {
  const fileKey = fileKeyFor(params, padPassword(password));
  return userEntryMatches(params, fileKey) ? fileKey : null;
}

/** Algorithm 7: recovers the user password from /O with the owner password, then checks it. */
export function authenticateLegacyOwner(params: LegacyKeyParams, password: Uint8Array): Uint8Array | null {
  let hash = md5(padPassword(password));
  if (params.revision >= 3) {
    for (let i = 0; i < 50; i++) hash = md5(hash);
  }
  const key = hash.subarray(0, params.keyLength);
  const owner = params.owner.subarray(0, 32);
  const userPassword = params.revision === 2 ? rc4(key, owner) : rc4Rounds(key, owner, true);
  return authenticateLegacyUser(params, userPassword);
}

/** Algorithm 1: the key of one indirect object. */
export function legacyObjectKey(fileKey: Uint8Array, objectNumber: number, generation: number, aes: boolean): Uint8Array {
  const input = new Uint8Array(fileKey.length + 5 + (aes ? 4 : 0));
  input.set(fileKey);
  let offset = fileKey.length;
  input[offset++] = objectNumber & 255;
  input[offset++] = (objectNumber >>> 8) & 255;
  input[offset++] = (objectNumber >>> 16) & 255;
  input[offset++] = generation & 255;
  input[offset++] = (generation >>> 8) & 255;
  if (aes) input.set(AES_SALT, offset);
  return md5(input).subarray(0, Math.min(fileKey.length + 5, 16));
}
