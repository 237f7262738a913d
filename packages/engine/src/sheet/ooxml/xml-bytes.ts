/**
 * Byte-level XML pieces for the streaming scanners: the XML stays UTF-8 bytes and only the values a
 * sheet needs become strings. Entities are the five predefined ones and character references; a DTD
 * (DOCTYPE, ENTITY) is refused outright, so neither external entities nor entity expansion exist here.
 */
import { corrupt } from '../limits.ts';

export const LT = 0x3c; // <
export const GT = 0x3e; // >
export const SLASH = 0x2f; // /
export const BANG = 0x21; // !
export const QUESTION = 0x3f; // ?
export const EQUALS = 0x3d; // =
export const COLON = 0x3a; // :
export const QUOTE = 0x22; // "
export const APOSTROPHE = 0x27; // '
export const AMPERSAND = 0x26; // &

/** Returned by scanning helpers when the element continues past the bytes at hand. */
export const INCOMPLETE = -1;

const utf8 = new TextDecoder('utf-8');

/**
 * Index of `byte` at or after `from`, or -1. A plain loop: XML distances are a few bytes, where
 * TypedArray#indexOf's call overhead costs more than it saves.
 */
export function indexOfByte(buf: Uint8Array, byte: number, from: number): number {
  const end = buf.length;
  for (let at = from; at < end; at++) if (buf[at] === byte) return at;
  return -1;
}

export function isSpace(byte: number): boolean {
  return byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09;
}

/** End (exclusive) of the tag name starting at `at`. */
export function nameEnd(buf: Uint8Array, at: number): number {
  const end = buf.length;
  while (at < end) {
    const byte = buf[at]!;
    if (byte === GT || byte === SLASH || byte === EQUALS || isSpace(byte)) return at;
    at++;
  }
  return at;
}

/** Start of the local part of the name in [start, end): after its prefix and colon, if any. */
export function localStart(buf: Uint8Array, start: number, end: number): number {
  for (let at = end - 1; at >= start; at--) if (buf[at] === COLON) return at + 1;
  return start;
}

/** Whether bytes [start, end) spell `name` (ASCII). */
export function isName(buf: Uint8Array, start: number, end: number, name: string): boolean {
  if (end - start !== name.length) return false;
  for (let index = 0; index < name.length; index++) if (buf[start + index] !== name.charCodeAt(index)) return false;
  return true;
}

/** Index of the '>' closing the tag that starts before `from`, skipping quoted attribute values. */
export function tagEnd(buf: Uint8Array, from: number): number {
  const end = buf.length;
  for (let at = from; at < end; at++) {
    const byte = buf[at]!;
    if (byte === GT) return at;
    if (byte === QUOTE || byte === APOSTROPHE) {
      at = indexOfByte(buf, byte, at + 1);
      if (at < 0) return INCOMPLETE;
    }
  }
  return INCOMPLETE;
}

/**
 * Skips a construct starting with "<!" or "<?" at `lt`: comments, CDATA outside values, processing
 * instructions. A document type declaration is refused. Returns the index after it, or INCOMPLETE.
 */
export function skipSpecial(buf: Uint8Array, lt: number): number {
  if (buf[lt + 1] === QUESTION) return after(buf, lt + 2, '?>');
  if (lt + 9 > buf.length) return INCOMPLETE;
  if (buf[lt + 2] === 0x2d && buf[lt + 3] === 0x2d) return after(buf, lt + 4, '-->');
  if (isName(buf, lt + 2, lt + 9, '[CDATA[')) return after(buf, lt + 9, ']]>');
  throw corrupt('the XML declares a document type (DOCTYPE/ENTITY), which is not allowed');
}

/** Where a text content starting at `from` ends. CDATA content is taken raw (no entities). */
export class TextRange {
  start = 0;
  end = 0;
  raw = false;
}

/**
 * Reads the text content from `from` (just after a start tag) into `range`; returns the index of the
 * '<' of the tag that follows it, or INCOMPLETE.
 */
export function readTextContent(buf: Uint8Array, from: number, range: TextRange): number {
  const lt = indexOfByte(buf, LT, from);
  if (lt < 0 || lt + 1 >= buf.length) return INCOMPLETE;
  range.raw = false;
  range.start = from;
  range.end = lt;
  if (buf[lt + 1] !== BANG) return lt;
  if (lt + 9 > buf.length) return INCOMPLETE;
  if (!isName(buf, lt + 2, lt + 9, '[CDATA[')) return lt;
  const end = after(buf, lt + 9, ']]>');
  if (end < 0) return INCOMPLETE;
  range.raw = true;
  range.start = lt + 9;
  range.end = end - 3;
  const next = indexOfByte(buf, LT, end);
  return next < 0 ? INCOMPLETE : next;
}

/** The text of a range read by readTextContent. */
export function rangeText(buf: Uint8Array, range: TextRange): string {
  return range.raw ? utf8.decode(buf.subarray(range.start, range.end)) : decodeText(buf, range.start, range.end);
}

function after(buf: Uint8Array, from: number, terminator: string): number {
  const first = terminator.charCodeAt(0);
  for (let at = buf.indexOf(first, from); at >= 0; at = buf.indexOf(first, at + 1)) {
    if (at + terminator.length > buf.length) return INCOMPLETE;
    if (isName(buf, at, at + terminator.length, terminator)) return at + terminator.length;
  }
  return INCOMPLETE;
}

/** Finds attribute `name` (local name) among the attributes in [from, gt) and puts its value in `range`. */
export function findAttribute(buf: Uint8Array, from: number, gt: number, name: string, range: TextRange): boolean {
  let at = from;
  while (at < gt) {
    while (at < gt && isSpace(buf[at]!)) at++;
    const nameStart = at;
    while (at < gt && buf[at] !== EQUALS && buf[at] !== SLASH && !isSpace(buf[at]!)) at++;
    if (at === nameStart) {
      at++;
      continue;
    }
    const nameStop = at;
    while (at < gt && buf[at] !== QUOTE && buf[at] !== APOSTROPHE) at++;
    if (at >= gt) return false;
    const valueEnd = indexOfByte(buf, buf[at]!, at + 1);
    if (valueEnd < 0 || valueEnd > gt) return false;
    if (isName(buf, localStart(buf, nameStart, nameStop), nameStop, name)) {
      range.start = at + 1;
      range.end = valueEnd;
      range.raw = false;
      return true;
    }
    at = valueEnd + 1;
  }
  return false;
}

/** Bytes that need work after UTF-8 decoding: & (entities), CR (line ends), _ (Excel's _xHHHH_ escapes). */
export const SPECIAL_BYTES = new Uint8Array(256);
SPECIAL_BYTES[AMPERSAND] = 1;
SPECIAL_BYTES[0x0d] = 2;
SPECIAL_BYTES[0x5f] = 4;

/** Text content [start, end) as a string: UTF-8, entities, line ends and Excel's _xHHHH_ escapes decoded. */
export function decodeText(buf: Uint8Array, start: number, end: number): string {
  let special = 0;
  for (let at = start; at < end; at++) special |= SPECIAL_BYTES[buf[at]!]!;
  return decodeMarkedText(buf, start, end, special);
}

/** decodeText when the caller already or-ed SPECIAL_BYTES over the range. */
export function decodeMarkedText(buf: Uint8Array, start: number, end: number, special: number): string {
  let text = utf8.decode(buf.subarray(start, end));
  if (special === 0) return text;
  if (special & 1) text = decodeEntities(text);
  if (special & 2) text = text.replace(/\r\n?/g, '\n');
  if (special & 4) text = text.replace(/_x([0-9A-Fa-f]{4})_/g, (_match, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  return text;
}

const PREDEFINED: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

export function decodeEntities(text: string): string {
  let out = '';
  let from = 0;
  for (let amp = text.indexOf('&'); amp >= 0; amp = text.indexOf('&', from)) {
    const semicolon = text.indexOf(';', amp);
    if (semicolon < 0 || semicolon - amp > 12) throw corrupt('bad XML entity');
    const name = text.slice(amp + 1, semicolon);
    out += text.slice(from, amp) + entityText(name);
    from = semicolon + 1;
  }
  return out + text.slice(from);
}

function entityText(name: string): string {
  const predefined = PREDEFINED[name];
  if (predefined !== undefined) return predefined;
  if (name.charCodeAt(0) === 0x23) {
    const hex = name[1] === 'x' || name[1] === 'X';
    const digits = name.slice(hex ? 2 : 1);
    const code = /^[0-9A-Fa-f]+$/.test(digits) ? parseInt(digits, hex ? 16 : 10) : NaN;
    if (code > 0 && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff)) return String.fromCodePoint(code);
  }
  throw corrupt(`unknown XML entity &${name};`);
}

/** Non-negative decimal integer in [start, end), or -1. */
export function parseIndex(buf: Uint8Array, start: number, end: number): number {
  if (start >= end || end - start > 15) return -1;
  let value = 0;
  for (let at = start; at < end; at++) {
    const digit = buf[at]! - 48;
    if (digit < 0 || digit > 9) return -1;
    value = value * 10 + digit;
  }
  return value;
}

const POWERS_OF_TEN = Array.from({ length: 23 }, (_, power) => 10 ** power);

/**
 * The number written in [start, end), NaN when it is not one. Plain decimals of up to 15 digits are
 * computed exactly from their digits (an exact integer divided by an exact power of ten rounds
 * correctly); anything else (exponents, long digit runs) goes through Number().
 */
export function parseNumber(buf: Uint8Array, start: number, end: number): number {
  let at = start;
  const negative = buf[at] === 0x2d;
  if (negative) at++;
  let mantissa = 0;
  let digits = 0;
  let decimals = -1;
  for (; at < end; at++) {
    const byte = buf[at]!;
    if (byte === 0x2e && decimals < 0) {
      decimals = 0;
      continue;
    }
    const digit = byte - 48;
    if (digit < 0 || digit > 9) return slowNumber(buf, start, end);
    mantissa = mantissa * 10 + digit;
    digits++;
    if (decimals >= 0) decimals++;
  }
  if (digits === 0) return slowNumber(buf, start, end);
  if (digits > 15) return slowNumber(buf, start, end);
  const value = decimals > 0 ? mantissa / POWERS_OF_TEN[decimals]! : mantissa;
  return negative ? -value : value;
}

/** Exponents, long digit runs: only digits, sign, point and exponent may appear; Number() does the rest. */
function slowNumber(buf: Uint8Array, start: number, end: number): number {
  if (start >= end || end - start > 64) return NaN;
  let text = '';
  for (let at = start; at < end; at++) {
    const byte = buf[at]!;
    const allowed = (byte >= 0x30 && byte <= 0x39) || byte === 0x2e || byte === 0x2d || byte === 0x2b || byte === 0x45 || byte === 0x65;
    if (!allowed) return NaN;
    text += String.fromCharCode(byte);
  }
  return Number(text);
}
