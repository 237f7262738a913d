/**
 * CRC-32 (IEEE 802.3, the polynomial of ZIP, PNG and zlib), slice-by-16: sixteen 256-entry tables let
 * the loop consume 16 bytes per step. crc32Combine joins the CRCs of two adjacent byte runs without
 * reading them again (zlib's crc32_combine), so a merge can reuse the CRC of the template prefix that
 * every document shares.
 */
const POLY = 0xedb88320;
const SLICES = 16;

const TABLES: Uint32Array = (() => {
  const tables = new Uint32Array(256 * SLICES);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ POLY : c >>> 1;
    tables[n] = c;
  }
  for (let n = 0; n < 256; n++) {
    let c = tables[n];
    for (let slice = 1; slice < SLICES; slice++) {
      c = tables[c & 0xff] ^ (c >>> 8);
      tables[slice * 256 + n] = c;
    }
  }
  return tables;
})();

/** CRC-32 of `data`; pass a previous result as `seed` to continue over the next chunk. */
export function crc32(data: Uint8Array, seed = 0): number {
  const t = TABLES;
  let crc = ~seed;
  let i = 0;
  const length = data.length;
  const fastEnd = length - (length % SLICES);
  while (i < fastEnd) {
    const a = crc ^ (data[i] | (data[i + 1] << 8) | (data[i + 2] << 16) | (data[i + 3] << 24));
    crc =
      t[3840 + (a & 0xff)] ^
      t[3584 + ((a >>> 8) & 0xff)] ^
      t[3328 + ((a >>> 16) & 0xff)] ^
      t[3072 + (a >>> 24)] ^
      t[2816 + data[i + 4]] ^
      t[2560 + data[i + 5]] ^
      t[2304 + data[i + 6]] ^
      t[2048 + data[i + 7]] ^
      t[1792 + data[i + 8]] ^
      t[1536 + data[i + 9]] ^
      t[1280 + data[i + 10]] ^
      t[1024 + data[i + 11]] ^
      t[768 + data[i + 12]] ^
      t[512 + data[i + 13]] ^
      t[256 + data[i + 14]] ^
      t[data[i + 15]];
    i += SLICES;
  }
  while (i < length) crc = t[(crc ^ data[i++]) & 0xff] ^ (crc >>> 8);
  return ~crc >>> 0;
}

/** a * b modulo the CRC polynomial, in the reflected bit order of the CRC (zlib's multmodp). */
function multiplyModPoly(a: number, b: number): number {
  let product = 0;
  for (let bit = 0x80000000; bit !== 0; bit >>>= 1) {
    if (a & bit) {
      product ^= b;
      if ((a & (bit - 1)) === 0) break;
    }
    b = b & 1 ? (b >>> 1) ^ POLY : b >>> 1;
  }
  return product >>> 0;
}

/** X2N[k] = x^(2^k) modulo the polynomial. */
const X2N: Uint32Array = (() => {
  const table = new Uint32Array(32);
  let p = 0x40000000; // x^1
  table[0] = p;
  for (let k = 1; k < 32; k++) table[k] = p = multiplyModPoly(p, p);
  return table;
})();

/** x^(8 * byteLength) modulo the polynomial: the operator that shifts a CRC past `byteLength` zero bytes. */
function shiftOperator(byteLength: number): number {
  let p = 0x80000000; // x^0
  let k = 3; // 2^3 bits per byte
  let n = byteLength;
  while (n > 0) {
    if (n % 2 === 1) p = multiplyModPoly(X2N[k & 31], p);
    n = Math.floor(n / 2);
    k++;
  }
  return p;
}

/** CRC-32 of A followed by B, from crc32(A), crc32(B) and B's length in bytes. */
export function crc32Combine(crcA: number, crcB: number, lengthB: number): number {
  return (multiplyModPoly(shiftOperator(lengthB), crcA >>> 0) ^ crcB) >>> 0;
}
