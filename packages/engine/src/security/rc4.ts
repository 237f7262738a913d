/**
 * RC4, which the PDF standard security handler uses up to revision 4 (and which no maintained
 * library ships any more). Only ever used to read old templates and to check passwords.
 */
const state = new Uint8Array(256);

export function rc4(key: Uint8Array, data: Uint8Array): Uint8Array {
  const s = state;
  for (let i = 0; i < 256; i++) s[i] = i;
  const keyLength = key.length;
  for (let i = 0, j = 0; i < 256; i++) {
    j = (j + s[i] + key[i % keyLength]) & 255;
    const swap = s[i];
    s[i] = s[j];
    s[j] = swap;
  }
  const out = new Uint8Array(data.length);
  for (let n = 0, i = 0, j = 0; n < data.length; n++) {
    i = (i + 1) & 255;
    j = (j + s[i]) & 255;
    const swap = s[i];
    s[i] = s[j];
    s[j] = swap;
    out[n] = data[n] ^ s[(s[i] + s[j]) & 255];
  }
  return out;
}
