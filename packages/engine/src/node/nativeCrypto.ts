/** Node's native hashes and AES for the security handler (several times faster than pure JS). */
import { createCipheriv, createHash } from 'node:crypto';
import { useCryptoPrimitives, type CryptoPrimitives } from '../security/index.ts';

const hash = (algorithm: string) => (data: Uint8Array) => new Uint8Array(createHash(algorithm).update(data).digest());

export const nativeCryptoPrimitives: CryptoPrimitives = {
  sha256: hash('sha256'),
  sha384: hash('sha384'),
  sha512: hash('sha512'),
  aesCbcEncryptRaw(key, iv, data) {
    const cipher = createCipheriv(key.length === 32 ? 'aes-256-cbc' : 'aes-128-cbc', key, iv);
    cipher.setAutoPadding(false);
    const head = cipher.update(data);
    const tail = cipher.final();
    if (tail.length === 0) return new Uint8Array(head.buffer, head.byteOffset, head.length);
    return new Uint8Array(Buffer.concat([head, tail]));
  },
};

/** Installs the native primitives for this thread (each worker thread calls it too). */
export function useNativeCrypto(): void {
  useCryptoPrimitives(nativeCryptoPrimitives);
}
