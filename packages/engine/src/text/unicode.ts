/**
 * Character classes the layout needs, as one flag table over the BMP built once per process, so the
 * hot loops pay one typed-array read per character.
 */

/** Needs the complex path: right-to-left, shaping, a control or invisible format character, or a surrogate. */
export const COMPLEX = 1;
/** A space a line may break after. */
export const BREAK_SPACE = 2;
/** Ideographic (CJK): a line may break before and after it. */
const IDEOGRAPHIC = 4;
/** CJK closing punctuation: never starts a line. */
const NO_BREAK_BEFORE = 8;
/** CJK opening punctuation: never ends a line. */
const NO_BREAK_AFTER = 16;
/** Right-to-left (or an explicit right-to-left control): the paragraph needs bidi reordering. */
export const RTL = 32;
/** Needs OpenType shaping (joining scripts, combining marks, Indic and South-East Asian scripts). */
export const SHAPING = 64;
/** Drawn as nothing: controls, bidi controls, zero-width and soft-hyphen characters. */
export const IGNORABLE = 128;

const RTL_RANGES: readonly (readonly [number, number])[] = [
  [0x0590, 0x08ff], [0xfb1d, 0xfdff], [0xfe70, 0xfeff], [0x200f, 0x200f], [0x202b, 0x202b], [0x202e, 0x202e],
  [0x2067, 0x2067],
];
const SHAPING_RANGES: readonly (readonly [number, number])[] = [
  [0x0300, 0x036f], [0x0483, 0x0489], [0x0591, 0x05c7], [0x0600, 0x08ff], [0x0900, 0x0dff], [0x0e00, 0x0fff],
  [0x1000, 0x109f], [0x1780, 0x17ff], [0x1ab0, 0x1aff], [0x1dc0, 0x1dff], [0x200c, 0x200d], [0x20d0, 0x20ff],
  [0xfb50, 0xfdff], [0xfe20, 0xfe2f], [0xfe70, 0xfefe],
];
const IDEOGRAPHIC_RANGES: readonly (readonly [number, number])[] = [
  [0x2e80, 0x2fff], [0x3040, 0x30ff], [0x3100, 0x31ff], [0x3400, 0x4dbf], [0x4e00, 0x9fff], [0xac00, 0xd7af],
  [0xf900, 0xfaff],
];
const IGNORABLE_RANGES: readonly (readonly [number, number])[] = [
  [0x0000, 0x0008], [0x000b, 0x001f], [0x007f, 0x009f], [0x00ad, 0x00ad], [0x200b, 0x200b], [0x200e, 0x200f],
  [0x202a, 0x202e], [0x2060, 0x2064], [0x2066, 0x2069], [0xfeff, 0xfeff],
];
const CLOSING_PUNCTUATION = '、。，．：；！？）」』〉》】〕〗〙〛ー・ぁぃぅぇぉっゃゅょァィゥェォッャュョ％';
const OPENING_PUNCTUATION = '（「『〈《【〔〖〘〚＄';

let table: Uint8Array | undefined;

function build(): Uint8Array {
  const flags = new Uint8Array(0x10000);
  const mark = (ranges: readonly (readonly [number, number])[], flag: number) => {
    for (const [from, to] of ranges) for (let c = from; c <= to; c++) flags[c]! |= flag;
  };
  mark(RTL_RANGES, RTL | COMPLEX);
  mark(SHAPING_RANGES, SHAPING | COMPLEX);
  mark(IGNORABLE_RANGES, IGNORABLE | COMPLEX);
  mark([[0xd800, 0xdfff], [0x0009, 0x000a], [0x000d, 0x000d]], COMPLEX);
  flags[0x0a] = 0; // a newline is a paragraph break on both paths
  mark(IDEOGRAPHIC_RANGES, IDEOGRAPHIC);
  mark([[0x0009, 0x0009], [0x0020, 0x0020], [0x1680, 0x1680], [0x2000, 0x2006], [0x2008, 0x200a], [0x205f, 0x205f], [0x3000, 0x3000]], BREAK_SPACE);
  for (const ch of CLOSING_PUNCTUATION) flags[ch.charCodeAt(0)]! |= NO_BREAK_BEFORE;
  for (const ch of OPENING_PUNCTUATION) flags[ch.charCodeAt(0)]! |= NO_BREAK_AFTER;
  return flags;
}

/** The BMP flag table (built on first use). */
export function charFlags(): Uint8Array {
  return (table ??= build());
}

/** Flags of any code point: astral ideographs break like CJK, astral RTL scripts need bidi. */
export function codePointFlags(cp: number): number {
  if (cp < 0x10000) return charFlags()[cp]!;
  if (cp >= 0x20000 && cp <= 0x3ffff) return IDEOGRAPHIC;
  if ((cp >= 0x10800 && cp <= 0x10fff) || (cp >= 0x1e800 && cp <= 0x1efff)) return RTL | SHAPING;
  return 0;
}

/** May a line break between two characters (neither a space)? Spaces are handled by the breakers. */
export function breaksBetween(before: number, after: number): boolean {
  if (((before | after) & IDEOGRAPHIC) === 0) return false;
  return (after & NO_BREAK_BEFORE) === 0 && (before & NO_BREAK_AFTER) === 0;
}
