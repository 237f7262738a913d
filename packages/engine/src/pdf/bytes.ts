/** Byte helpers for writing PDF syntax without going through strings per byte. */
const encoder = new TextEncoder();

/** PDF syntax we write is ASCII; TextEncoder is exact for it and fast. */
export function ascii(text: string): Uint8Array {
  return encoder.encode(text);
}

export function latin1(bytes: Uint8Array, start = 0, end = bytes.length): string {
  let out = '';
  for (let i = start; i < end; i += 8192) {
    out += String.fromCharCode.apply(null, bytes.subarray(i, Math.min(end, i + 8192)) as unknown as number[]);
  }
  return out;
}

export function concatBytes(parts: readonly Uint8Array[]): Uint8Array {
  let length = 0;
  for (const part of parts) length += part.length;
  const out = new Uint8Array(length);
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

export function totalLength(parts: readonly Uint8Array[]): number {
  let length = 0;
  for (const part of parts) length += part.length;
  return length;
}

function matchesAt(bytes: Uint8Array, at: number, needle: string): boolean {
  for (let j = 0; j < needle.length; j++) if (bytes[at + j] !== needle.charCodeAt(j)) return false;
  return true;
}

/** Last index of an ASCII needle in bytes, searching backwards from `from`. */
export function lastIndexOf(bytes: Uint8Array, needle: string, from = bytes.length - 1): number {
  for (let i = Math.min(from, bytes.length - needle.length); i >= 0; i--) if (matchesAt(bytes, i, needle)) return i;
  return -1;
}

/** First index of an ASCII needle in bytes[from, to). */
export function indexOf(bytes: Uint8Array, needle: string, from = 0, to = bytes.length): number {
  const first = needle.charCodeAt(0);
  const last = Math.min(to, bytes.length) - needle.length;
  for (let i = from; i <= last; i++) if (bytes[i] === first && matchesAt(bytes, i, needle)) return i;
  return -1;
}

/** Formats a number the way PDF syntax wants it: no exponent, at most 4 decimals, no trailing zeros. */
export function pdfNumber(value: number): string {
  if (Number.isInteger(value)) return String(value);
  const fixed = value.toFixed(4);
  let end = fixed.length;
  while (fixed.charCodeAt(end - 1) === 48) end--;
  if (fixed.charCodeAt(end - 1) === 46) end--;
  const text = fixed.slice(0, end);
  return text === '-0' ? '0' : text;
}
