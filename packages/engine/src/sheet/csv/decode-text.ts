/**
 * Turns a text file's bytes into a string: UTF-8 (with or without BOM), UTF-16 (BOM, or the telltale
 * zero bytes of ASCII text without one), else Windows-1252, what Excel writes as "CSV" on Western
 * systems. Returns null for bytes that are not text at all (binary files, random bytes).
 */

/** Share of control characters beyond which bytes are not text. */
const MAX_CONTROL_SHARE = 0.005;
const SAMPLE = 65_536;

export function decodeText(bytes: Uint8Array): string | null {
  const encoding = detectEncoding(bytes);
  const body = bytes.subarray(encoding.bomLength);
  let text: string;
  if (encoding.name === 'utf-8') {
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(body);
    } catch {
      text = new TextDecoder('windows-1252').decode(body);
    }
  } else {
    text = new TextDecoder(encoding.name).decode(body);
  }
  return looksLikeText(text) ? text : null;
}

function detectEncoding(bytes: Uint8Array): { name: 'utf-8' | 'utf-16le' | 'utf-16be'; bomLength: number } {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return { name: 'utf-8', bomLength: 3 };
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return { name: 'utf-16le', bomLength: 2 };
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return { name: 'utf-16be', bomLength: 2 };
  // ASCII text in UTF-16 without a BOM: every other byte is zero.
  const pairs = Math.min(bytes.length, 4096) >> 1;
  let evenZeros = 0;
  let oddZeros = 0;
  for (let pair = 0; pair < pairs; pair++) {
    if (bytes[2 * pair] === 0) evenZeros++;
    if (bytes[2 * pair + 1] === 0) oddZeros++;
  }
  if (pairs >= 2 && oddZeros > pairs * 0.4 && evenZeros < pairs * 0.05) return { name: 'utf-16le', bomLength: 0 };
  if (pairs >= 2 && evenZeros > pairs * 0.4 && oddZeros < pairs * 0.05) return { name: 'utf-16be', bomLength: 0 };
  return { name: 'utf-8', bomLength: 0 };
}

function looksLikeText(text: string): boolean {
  const sample = Math.min(text.length, SAMPLE);
  let controls = 0;
  for (let at = 0; at < sample; at++) {
    const code = text.charCodeAt(at);
    if (code === 0) return false;
    const isControl =
      (code < 0x20 && code !== 0x09 && code !== 0x0a && code !== 0x0d && code !== 0x0c && code !== 0x1a) || code === 0x7f || code === 0xfffd;
    if (isControl) controls++;
  }
  return controls <= sample * MAX_CONTROL_SHARE;
}
