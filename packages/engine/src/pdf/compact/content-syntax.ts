/**
 * The lexical side of PDF content streams (ISO 32000 7.2-7.3, Table A.1), for shown-text.ts: byte
 * classes, the operators a stream may use packed into numbers, literal-string escapes and numbers.
 */
// Byte classes of ISO 32000 7.2.2: white space, delimiters, and the rest ("regular").
export const REGULAR = 0;
export const WHITE = 1;
export const DELIMITER = 2;
export const BYTE_CLASS = new Uint8Array(256);
for (const byte of [0x00, 0x09, 0x0a, 0x0c, 0x0d, 0x20]) BYTE_CLASS[byte] = WHITE;
for (const char of '()<>[]{}/%') BYTE_CLASS[char.charCodeAt(0)] = DELIMITER;

export const HEX_VALUE = new Int8Array(256).fill(-1);
for (let digit = 0; digit < 16; digit++) {
  HEX_VALUE['0123456789abcdef'.charCodeAt(digit)] = digit;
  HEX_VALUE['0123456789ABCDEF'.charCodeAt(digit)] = digit;
}

export const LF = 0x0a;
export const CR = 0x0d;
export const BACKSLASH = 0x5c;
export const OPEN_PAREN = 0x28;
export const CLOSE_PAREN = 0x29;
export const LESS = 0x3c;
export const GREATER = 0x3e;

/** An operator (at most 3 bytes) packed into a number, so dispatch needs no string per token. */
export function operatorCode(bytes: ArrayLike<number>, start: number, length: number): number {
  let code = 0;
  for (let i = 0; i < length; i++) code |= bytes[start + i]! << (8 * i);
  return code;
}
const codeOf = (operator: string) => operatorCode(Uint8Array.from(operator, (char) => char.charCodeAt(0)), 0, operator.length);

/** Every operator of ISO 32000 Table A.1 (plus the obsolete PS). Any other keyword stops the scan:
 * readers split run-together operators ("TjET") differently, so an unknown word may hide a Tj. */
const OPERATOR_NAMES = [
  'b', 'B', 'b*', 'B*', 'BDC', 'BI', 'BMC', 'BT', 'BX', 'c', 'cm', 'CS', 'cs', 'd', 'd0', 'd1', 'Do',
  'DP', 'EI', 'EMC', 'ET', 'EX', 'f', 'F', 'f*', 'G', 'g', 'gs', 'h', 'i', 'ID', 'j', 'J', 'K', 'k',
  'l', 'm', 'M', 'MP', 'n', 'PS', 'q', 'Q', 're', 'RG', 'rg', 'ri', 's', 'S', 'SC', 'sc', 'SCN', 'scn',
  'sh', 'T*', 'Tc', 'Td', 'TD', 'Tf', 'Tj', 'TJ', 'TL', 'Tm', 'Tr', 'Ts', 'Tw', 'Tz', 'v', 'w', 'W',
  'W*', 'y', "'", '"',
];
export const OPERATORS = new Set(OPERATOR_NAMES.map(codeOf));
export const LONGEST_OPERATOR = 3;
export const OP = {
  q: codeOf('q'), Q: codeOf('Q'), Tf: codeOf('Tf'), Tj: codeOf('Tj'), TJ: codeOf('TJ'), quote: codeOf("'"),
  doubleQuote: codeOf('"'), Do: codeOf('Do'), gs: codeOf('gs'), BI: codeOf('BI'), ID: codeOf('ID'), EI: codeOf('EI'),
};
/** The spec's limit is 127 bytes; far longer is garbage (and would overflow String.fromCharCode's argument list). */
export const LONGEST_NAME = 4096;

/** Decodes the escapes of a literal string's body data[start, end); data[end] is its closing ')'. */
export function decodeLiteral(data: Uint8Array, start: number, end: number): Uint8Array {
  const out = new Uint8Array(end - start);
  let length = 0;
  let at = start;
  while (at < end) {
    const byte = data[at++]!;
    if (byte === CR) {
      out[length++] = LF;
      if (data[at] === LF) at++;
      continue;
    }
    if (byte !== BACKSLASH) {
      out[length++] = byte;
      continue;
    }
    const escape = data[at++]!;
    switch (escape) {
      case 0x6e: out[length++] = LF; break; // \n
      case 0x72: out[length++] = CR; break; // \r
      case 0x74: out[length++] = 0x09; break; // \t
      case 0x62: out[length++] = 0x08; break; // \b
      case 0x66: out[length++] = 0x0c; break; // \f
      case LF: break; // backslash at end of line: the line continues
      case CR:
        if (data[at] === LF) at++;
        break;
      default:
        if (escape >= 0x30 && escape <= 0x37) {
          // Up to three octal digits; overflow past a byte is ignored. data[end] is ')', so this stops in the body.
          let value = escape - 0x30;
          for (let digits = 1; digits < 3 && data[at]! >= 0x30 && data[at]! <= 0x37; digits++) value = value * 8 + data[at++]! - 0x30;
          out[length++] = value & 0xff;
        } else {
          out[length++] = escape; // \( \) \\ and any other byte: the backslash is dropped
        }
    }
  }
  return out.subarray(0, length);
}

export function isKeyword(data: Uint8Array, start: number, end: number, keyword: string): boolean {
  if (end - start !== keyword.length) return false;
  for (let i = 0; i < keyword.length; i++) if (data[start + i] !== keyword.charCodeAt(i)) return false;
  return true;
}

/** ISO 32000 7.3.3 numbers ([+-] digits [. digits]), plus the exponent some producers write and readers accept. */
export function isNumber(data: Uint8Array, start: number, end: number): boolean {
  let at = start;
  if (data[at] === 0x2b || data[at] === 0x2d) at++;
  let digits = 0;
  let dots = 0;
  for (; at < end; at++) {
    const byte = data[at]!;
    if (byte >= 0x30 && byte <= 0x39) digits++;
    else if (byte === 0x2e && dots++ === 0) continue;
    else break;
  }
  if (digits === 0) return false;
  if (at < end && (data[at] === 0x45 || data[at] === 0x65)) {
    at++;
    if (data[at] === 0x2b || data[at] === 0x2d) at++;
    const exponentStart = at;
    while (at < end && data[at]! >= 0x30 && data[at]! <= 0x39) at++;
    if (at === exponentStart) return false;
  }
  return at === end;
}
