/** Small byte helpers shared by the key derivations and the ciphers. */

/** Compares in time independent of where the first difference is (password checks). */
export function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a[i] ^ b[i];
  return diff === 0;
}

/** A 32-bit integer as 4 little-endian bytes (how /P enters the key derivation). */
export function int32LE(value: number): Uint8Array {
  return new Uint8Array([value & 255, (value >>> 8) & 255, (value >>> 16) & 255, (value >>> 24) & 255]);
}

const HEX_VALUE = new Int8Array(256).fill(-1);
for (let i = 0; i < 10; i++) HEX_VALUE[48 + i] = i;
for (let i = 0; i < 6; i++) {
  HEX_VALUE[65 + i] = 10 + i;
  HEX_VALUE[97 + i] = 10 + i;
}

/** Decodes the digits of a PDF hex string; whitespace and stray characters are skipped, an odd last digit is padded with 0. */
export function hexToBytes(hex: string): Uint8Array {
  const out = new Uint8Array((hex.length + 1) >> 1);
  let length = 0;
  let high = -1;
  for (let i = 0; i < hex.length; i++) {
    const value = HEX_VALUE[hex.charCodeAt(i) & 255];
    if (value < 0 || hex.charCodeAt(i) > 255) continue;
    if (high < 0) high = value;
    else {
      out[length++] = (high << 4) | value;
      high = -1;
    }
  }
  if (high >= 0) out[length++] = high << 4;
  return out.subarray(0, length);
}

const HEX_DIGITS = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

export function bytesToHex(bytes: Uint8Array): string {
  let hex = '';
  for (let i = 0; i < bytes.length; i++) hex += HEX_DIGITS[bytes[i]];
  return hex;
}
