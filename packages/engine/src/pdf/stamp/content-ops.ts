/**
 * A content stream as operators with their operands and byte ranges (ISO 32000 7.8.2), for
 * content-items.ts: numbers as numbers, every other operand (names, strings, arrays, dictionaries) as
 * its source text.
 */
import { BYTE_CLASS, DELIMITER, REGULAR, WHITE, isNumber } from '../compact/content-syntax.ts';

export type Operand = number | string;

export interface Op {
  op: string;
  operands: Operand[];
  /** From the first operand to the operator's end. */
  start: number;
  end: number;
}

/** The stream's operators with their operands and byte ranges; undefined when it cannot be read. */
export function readOps(data: Uint8Array): Op[] | undefined {
  const reader = new Reader(data);
  const ops: Op[] = [];
  let operands: Operand[] = [];
  let start = -1;
  for (;;) {
    const token = reader.next();
    if (token === undefined) break;
    if (token.kind === 'bad') return undefined;
    if (token.kind === 'operand') {
      if (operands.length === 0) start = token.start;
      operands.push(token.value);
      continue;
    }
    ops.push({ op: token.op, operands, start: operands.length > 0 ? start : token.start, end: token.end });
    operands = [];
  }
  return operands.length === 0 ? ops : undefined;
}

type Token = { kind: 'operand'; value: Operand; start: number } | { kind: 'op'; op: string; start: number; end: number } | { kind: 'bad' };

/** Tokens of a content stream: numbers, other operands as their source text, operators. */
class Reader {
  private at = 0;

  constructor(private readonly data: Uint8Array) {}

  next(): Token | undefined {
    const { data } = this;
    while (this.at < data.length) {
      const byte = data[this.at]!;
      if (BYTE_CLASS[byte] === WHITE) {
        this.at++;
        continue;
      }
      if (byte === 0x25) {
        while (this.at < data.length && data[this.at] !== 0x0a && data[this.at] !== 0x0d) this.at++;
        continue;
      }
      break;
    }
    if (this.at >= data.length) return undefined;
    const start = this.at;
    const byte = data[start]!;
    if (byte === 0x28) return this.literal(start);
    if (byte === 0x3c) {
      if (data[start + 1] === 0x3c) return this.balanced(start, 0x3c, 0x3e, 2);
      const close = data.indexOf(0x3e, start);
      if (close < 0) return { kind: 'bad' };
      this.at = close + 1;
      return { kind: 'operand', value: this.text(start, this.at), start };
    }
    if (byte === 0x5b) return this.balanced(start, 0x5b, 0x5d, 1);
    if (byte === 0x2f) {
      this.at++;
      while (this.at < data.length && BYTE_CLASS[data[this.at]!] === REGULAR) this.at++;
      return { kind: 'operand', value: this.text(start, this.at), start };
    }
    if (BYTE_CLASS[byte] === DELIMITER) return { kind: 'bad' };
    while (this.at < data.length && BYTE_CLASS[data[this.at]!] === REGULAR) this.at++;
    const word = this.text(start, this.at);
    if (isNumber(data, start, this.at)) return { kind: 'operand', value: Number(word), start };
    if (word === 'true' || word === 'false' || word === 'null') return { kind: 'operand', value: word, start };
    return { kind: 'op', op: word, start, end: this.at };
  }

  /** A literal string (nested parentheses, escapes) as its source text. */
  private literal(start: number): Token {
    const { data } = this;
    let depth = 0;
    let at = start;
    while (at < data.length) {
      const byte = data[at]!;
      if (byte === 0x5c) at += 2;
      else {
        if (byte === 0x28) depth++;
        else if (byte === 0x29 && --depth === 0) {
          this.at = at + 1;
          return { kind: 'operand', value: this.text(start, this.at), start };
        }
        at++;
      }
    }
    return { kind: 'bad' };
  }

  /** An array or dictionary, with the strings inside it, as its source text. */
  private balanced(start: number, open: number, close: number, width: number): Token {
    const { data } = this;
    let depth = 0;
    let at = start;
    while (at < data.length) {
      const byte = data[at]!;
      if (byte === 0x28) {
        this.at = at;
        if (this.literal(at).kind === 'bad') return { kind: 'bad' };
        at = this.at;
        continue;
      }
      if (width === 1 && byte === 0x3c && data[at + 1] !== 0x3c) {
        const end = data.indexOf(0x3e, at);
        if (end < 0) return { kind: 'bad' };
        at = end + 1;
        continue;
      }
      if (byte === open && (width === 1 || data[at + 1] === open)) {
        depth++;
        at += width;
      } else if (byte === close && (width === 1 || data[at + 1] === close)) {
        at += width;
        if (--depth === 0) {
          this.at = at;
          return { kind: 'operand', value: this.text(start, at), start };
        }
      } else at++;
    }
    return { kind: 'bad' };
  }

  private text(start: number, end: number): string {
    let out = '';
    for (let index = start; index < end; index++) out += String.fromCharCode(this.data[index]!);
    return out;
  }
}
