/**
 * A light lexical check of a content stream: strings, hex strings, dictionaries and arrays balanced,
 * inline images closed. Readers stop at the first such error, so a template carrying one would pass
 * it on to every output.
 */
const WHITE = new Set([0x00, 0x09, 0x0a, 0x0c, 0x0d, 0x20]);
const HEX = /[0-9A-Fa-f]/;

/** Returns a description of the first lexical error, or undefined when the content reads cleanly. */
export function contentSyntaxError(data: Uint8Array): string | undefined {
  let depth = 0; // arrays and dictionaries
  for (let i = 0; i < data.length; i++) {
    const byte = data[i]!;
    if (byte === 0x25) {
      while (i < data.length && data[i] !== 0x0a && data[i] !== 0x0d) i++; // % comment
    } else if (byte === 0x28) {
      let nesting = 1;
      for (i++; i < data.length && nesting > 0; i++) {
        if (data[i] === 0x5c) i++;
        else if (data[i] === 0x28) nesting++;
        else if (data[i] === 0x29) nesting--;
      }
      if (nesting > 0) return 'unterminated string';
      i--;
    } else if (byte === 0x3c && data[i + 1] === 0x3c) {
      depth++;
      i++;
    } else if (byte === 0x3e && data[i + 1] === 0x3e) {
      if (--depth < 0) return 'unbalanced >>';
      i++;
    } else if (byte === 0x3c) {
      for (i++; i < data.length && data[i] !== 0x3e; i++) {
        if (!WHITE.has(data[i]!) && !HEX.test(String.fromCharCode(data[i]!))) return 'bad hex string';
      }
      if (i >= data.length) return 'unterminated hex string';
    } else if (byte === 0x5b) depth++;
    else if (byte === 0x5d) {
      if (--depth < 0) return 'unbalanced ]';
    } else if (byte === 0x49 && data[i + 1] === 0x44 && WHITE.has(data[i + 2]!) && (i === 0 || WHITE.has(data[i - 1]!))) {
      // Inline image data: binary up to "EI" between white space.
      let j = i + 3;
      while (j < data.length - 1 && !(data[j] === 0x45 && data[j + 1] === 0x49 && WHITE.has(data[j - 1]!) && (j + 2 >= data.length || WHITE.has(data[j + 2]!)))) j++;
      if (j >= data.length - 1) return 'unterminated inline image';
      i = j + 1;
    }
  }
  return depth === 0 ? undefined : 'unbalanced [ or <<';
}
