/**
 * The hash and cipher primitives of the security handler. Pure JS (noble) by default so the engine
 * runs anywhere; a host with faster native ones (Node's crypto, see src/node/nativeCrypto.ts)
 * installs them once at start. Per-row passwords need an AES-256 R6 key derivation per document,
 * megabytes of AES and SHA-2: native code makes that several times faster.
 */
import { cbc } from '@noble/ciphers/aes.js';
import { sha256, sha384, sha512 } from '@noble/hashes/sha2.js';

export interface CryptoPrimitives {
  sha256(data: Uint8Array): Uint8Array;
  sha384(data: Uint8Array): Uint8Array;
  sha512(data: Uint8Array): Uint8Array;
  /** AES-CBC without padding (data is a whole number of blocks); key of 16 or 32 bytes. */
  aesCbcEncryptRaw(key: Uint8Array, iv: Uint8Array, data: Uint8Array): Uint8Array;
}

export const pureJsPrimitives: CryptoPrimitives = {
  sha256,
  sha384,
  sha512,
  aesCbcEncryptRaw: (key, iv, data) => cbc(key, iv, { disablePadding: true }).encrypt(data),
};

let current: CryptoPrimitives = pureJsPrimitives;

export function cryptoPrimitives(): CryptoPrimitives {
  return current;
}

export function useCryptoPrimitives(primitives: CryptoPrimitives): void {
  current = primitives;
}
