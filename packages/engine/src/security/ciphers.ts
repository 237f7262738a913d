/** The data ciphers of PDF encryption: RC4 and AES-CBC with the IV in front and PKCS#7 padding. */
import { cbc } from '@noble/ciphers/aes.js';
import { rc4 } from './rc4.ts';
import { cryptoPrimitives } from './primitives.ts';

/** How strings or streams are encrypted: per crypt filter (V4) or for the whole file. */
export type CipherName = 'none' | 'RC4' | 'AES-128' | 'AES-256';

const BLOCK = 16;

/**
 * AES-CBC decryption as readers do it: a too-short input is empty, a ragged tail is dropped and
 * padding that is not valid PKCS#7 is kept rather than failing the whole document.
 */
function aesDecrypt(key: Uint8Array, data: Uint8Array): Uint8Array {
  const blocks = Math.floor((data.length - BLOCK) / BLOCK);
  if (blocks <= 0) return new Uint8Array(0);
  const plain = cbc(key, data.subarray(0, BLOCK), { disablePadding: true }).decrypt(data.subarray(BLOCK, BLOCK + blocks * BLOCK));
  const pad = plain[plain.length - 1];
  if (pad < 1 || pad > BLOCK) return plain;
  for (let i = plain.length - pad; i < plain.length; i++) if (plain[i] !== pad) return plain;
  return plain.subarray(0, plain.length - pad);
}

export function decryptData(cipher: CipherName, key: Uint8Array, data: Uint8Array): Uint8Array {
  if (cipher === 'none') return data;
  return cipher === 'RC4' ? rc4(key, data) : aesDecrypt(key, data);
}

/** AES-CBC with PKCS#7 padding, written after `iv` in one buffer (the layout PDF stores). */
export function aesEncrypt(key: Uint8Array, iv: Uint8Array, data: Uint8Array): Uint8Array {
  const padding = BLOCK - (data.length % BLOCK);
  const padded = new Uint8Array(data.length + padding);
  padded.set(data);
  padded.fill(padding, data.length);
  const encrypted = cryptoPrimitives().aesCbcEncryptRaw(key, iv.subarray(0, BLOCK), padded);
  const out = new Uint8Array(BLOCK + encrypted.length);
  out.set(iv.subarray(0, BLOCK));
  out.set(encrypted, BLOCK);
  return out;
}
