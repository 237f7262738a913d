/**
 * Glyph pruning for TrueType programs embedded whole as CIDFontType2 with /CIDToGIDMap /Identity.
 * The page content addresses glyphs by glyph id, so ids never change: unused outlines become empty
 * and the glyphs after the highest kept one are cut off. Pure: bytes in, bytes out.
 */

/** The tables a PDF reader needs for a CIDFontType2 (what fontkit's subsetter writes), in tag order. */
const WRITTEN_TAGS = ['cvt ', 'fpgm', 'glyf', 'head', 'hhea', 'hmtx', 'loca', 'maxp', 'prep'] as const;
const REQUIRED_TAGS = ['glyf', 'head', 'hhea', 'hmtx', 'loca', 'maxp'] as const;

const SFNT_TRUETYPE = 0x00010000;
const SFNT_APPLE_TRUE = 0x74727565; // 'true'
const HEAD_MAGIC = 0x5f0f3cf5;
const CHECKSUM_MAGIC = 0xb1b0afba;

// Composite glyph component flags.
const ARG_1_AND_2_ARE_WORDS = 0x0001;
const WE_HAVE_A_SCALE = 0x0008;
const MORE_COMPONENTS = 0x0020;
const WE_HAVE_AN_X_AND_Y_SCALE = 0x0040;
const WE_HAVE_A_TWO_BY_TWO = 0x0080;

interface TableSlice {
  offset: number;
  length: number;
}

/** Thrown inside the parser for anything it cannot prune safely; turned into `undefined` at the top. */
class UnprunableFont extends Error {}

function fail(): never {
  throw new UnprunableFont();
}

/**
 * A copy of the TrueType font program `font` (an sfnt with glyf/loca outlines, as embedded in a PDF
 * FontFile2 stream) that keeps only the outlines of `keep` (glyph ids; 0 is always kept, and the
 * components of kept composite glyphs are kept too) under their original glyph ids. Ids outside the
 * font are ignored. Glyphs after the highest kept id are cut off (maxp.numGlyphs, loca and hmtx
 * shortened, hhea.numberOfHMetrics adjusted); the advance widths of the remaining glyphs are kept.
 * Only head, hhea, maxp, hmtx, loca, glyf, cvt , fpgm and prep are written (the last three if present):
 * a PDF reader needs no cmap, name, OS/2 or post for a CIDFontType2, and fontkit's subsetter (which
 * pdf-lib embeds) writes the same set. loca is written in the long format, glyphs 4-byte aligned.
 * Returns undefined when the font is not something it can prune safely (a collection, CFF outlines,
 * missing or inconsistent tables, offsets out of range): the caller then keeps the font as it is.
 */
export function pruneTrueTypeGlyphs(font: Uint8Array, keep: Iterable<number>): Uint8Array | undefined {
  try {
    return prune(font, keep);
  } catch (error) {
    // RangeError: a DataView read past the end that the checks below did not foresee.
    if (error instanceof UnprunableFont || error instanceof RangeError) return undefined;
    throw error;
  }
}

function prune(font: Uint8Array, keep: Iterable<number>): Uint8Array {
  const view = new DataView(font.buffer, font.byteOffset, font.byteLength);
  const tables = readTableDirectory(view);
  const table = (tag: string): TableSlice => tables.get(tag) ?? fail();
  for (const tag of REQUIRED_TAGS) table(tag);

  const head = table('head');
  if (head.length < 54 || view.getUint32(head.offset + 12) !== HEAD_MAGIC) fail();
  const longLoca = view.getInt16(head.offset + 50);
  if (longLoca !== 0 && longLoca !== 1) fail();
  const maxp = table('maxp');
  if (maxp.length < 6) fail();
  const numGlyphs = view.getUint16(maxp.offset + 4);
  const hhea = table('hhea');
  if (hhea.length < 36) fail();
  const numberOfHMetrics = view.getUint16(hhea.offset + 34);
  if (numGlyphs === 0 || numberOfHMetrics === 0 || numberOfHMetrics > numGlyphs) fail();
  const hmtx = table('hmtx');
  if (hmtx.length < 4 * numberOfHMetrics + 2 * (numGlyphs - numberOfHMetrics)) fail();
  const loca = table('loca');
  if (loca.length < (numGlyphs + 1) * (longLoca ? 4 : 2)) fail();
  const glyf = table('glyf');

  /** Where glyph `id`'s data lies in the font, validated against glyf. */
  const glyphStart = (id: number): number =>
    longLoca ? view.getUint32(loca.offset + 4 * id) : 2 * view.getUint16(loca.offset + 2 * id);
  const glyphRange = (id: number): TableSlice => {
    const start = glyphStart(id);
    const end = glyphStart(id + 1);
    if (end < start || end > glyf.length) fail();
    return { offset: glyf.offset + start, length: end - start };
  };

  const kept = keptGlyphs(view, keep, numGlyphs, glyphRange);
  let newNumGlyphs = 0;
  for (let id = numGlyphs - 1; id >= 0; id--) {
    if (kept[id]) {
      newNumGlyphs = id + 1;
      break;
    }
  }
  const newHMetrics = Math.min(numberOfHMetrics, newNumGlyphs);

  // Sizes first, so the whole font is written into one buffer.
  let glyfLength = 0;
  for (let id = 0; id < newNumGlyphs; id++) if (kept[id]) glyfLength += align4(glyphRange(id).length);
  const lengths = new Map<string, number>([
    ['glyf', glyfLength],
    ['head', head.length],
    ['hhea', hhea.length],
    // hmtx holds the long metrics then the bare lsbs, so the cut-off font's table is a prefix of it.
    ['hmtx', 4 * newHMetrics + 2 * (newNumGlyphs - newHMetrics)],
    ['loca', 4 * (newNumGlyphs + 1)],
    ['maxp', maxp.length],
  ]);
  for (const tag of ['cvt ', 'fpgm', 'prep']) {
    const slice = tables.get(tag);
    if (slice) lengths.set(tag, slice.length);
  }
  const tags = WRITTEN_TAGS.filter((tag) => lengths.has(tag));
  const directoryLength = 12 + 16 * tags.length;
  let total = directoryLength;
  const offsets = new Map<string, number>();
  for (const tag of tags) {
    offsets.set(tag, total);
    total += align4(lengths.get(tag)!);
  }

  const out = new Uint8Array(total);
  const outView = new DataView(out.buffer);
  const at = (tag: string): number => offsets.get(tag)!;
  const copyTable = (tag: string, length = lengths.get(tag)!): void => {
    const source = table(tag);
    out.set(font.subarray(source.offset, source.offset + length), at(tag));
  };

  let glyfAt = at('glyf');
  const locaAt = at('loca');
  for (let id = 0; id < newNumGlyphs; id++) {
    outView.setUint32(locaAt + 4 * id, glyfAt - at('glyf'));
    if (!kept[id]) continue;
    const range = glyphRange(id);
    out.set(font.subarray(range.offset, range.offset + range.length), glyfAt);
    glyfAt += align4(range.length);
  }
  outView.setUint32(locaAt + 4 * newNumGlyphs, glyfAt - at('glyf'));

  for (const tag of ['cvt ', 'fpgm', 'prep', 'head', 'hhea', 'hmtx', 'maxp']) if (lengths.has(tag)) copyTable(tag);
  outView.setUint32(at('head') + 8, 0); // checkSumAdjustment, set once the whole font is summed
  outView.setInt16(at('head') + 50, 1); // indexToLocFormat: long
  outView.setUint16(at('hhea') + 34, newHMetrics);
  outView.setUint16(at('maxp') + 4, newNumGlyphs);

  writeDirectory(outView, tags, offsets, lengths);
  outView.setUint32(at('head') + 8, (CHECKSUM_MAGIC - checksum(outView, 0, total)) >>> 0);
  return out;
}

/** The sfnt table directory, every table validated to lie inside the font. */
function readTableDirectory(view: DataView): Map<string, TableSlice> {
  if (view.byteLength < 12) fail();
  const version = view.getUint32(0);
  // 'OTTO' (CFF outlines) and 'ttcf' (collections) end here too.
  if (version !== SFNT_TRUETYPE && version !== SFNT_APPLE_TRUE) fail();
  const numTables = view.getUint16(4);
  if (12 + 16 * numTables > view.byteLength) fail();
  const tables = new Map<string, TableSlice>();
  for (let i = 0; i < numTables; i++) {
    const record = 12 + 16 * i;
    const tag = String.fromCharCode(
      view.getUint8(record),
      view.getUint8(record + 1),
      view.getUint8(record + 2),
      view.getUint8(record + 3),
    );
    const offset = view.getUint32(record + 8);
    const length = view.getUint32(record + 12);
    if (tables.has(tag) || offset + length > view.byteLength) fail();
    tables.set(tag, { offset, length });
  }
  return tables;
}

/** Flags per glyph id: the requested glyphs, glyph 0, and every component they use, transitively. */
function keptGlyphs(
  view: DataView,
  keep: Iterable<number>,
  numGlyphs: number,
  glyphRange: (id: number) => TableSlice,
): Uint8Array {
  const kept = new Uint8Array(numGlyphs);
  const pending: number[] = [];
  const mark = (id: number): void => {
    if (kept[id]) return;
    kept[id] = 1;
    pending.push(id);
  };
  mark(0);
  for (const id of keep) if (Number.isInteger(id) && id >= 0 && id < numGlyphs) mark(id);

  for (let id = pending.pop(); id !== undefined; id = pending.pop()) {
    const { offset, length } = glyphRange(id);
    if (length === 0) continue;
    if (length < 10) fail();
    if (view.getInt16(offset) >= 0) continue; // simple glyph: no components
    const end = offset + length;
    let at = offset + 10;
    let flags: number;
    do {
      if (at + 4 > end) fail();
      flags = view.getUint16(at);
      const component = view.getUint16(at + 2);
      if (component >= numGlyphs) fail();
      mark(component);
      at += 4 + (flags & ARG_1_AND_2_ARE_WORDS ? 4 : 2);
      if (flags & WE_HAVE_A_SCALE) at += 2;
      else if (flags & WE_HAVE_AN_X_AND_Y_SCALE) at += 4;
      else if (flags & WE_HAVE_A_TWO_BY_TWO) at += 8;
      if (at > end) fail();
    } while (flags & MORE_COMPONENTS);
  }
  return kept;
}

function writeDirectory(
  view: DataView,
  tags: readonly string[],
  offsets: ReadonlyMap<string, number>,
  lengths: ReadonlyMap<string, number>,
): void {
  let entrySelector = 0;
  while (2 ** (entrySelector + 1) <= tags.length) entrySelector++;
  const searchRange = 16 * 2 ** entrySelector;
  view.setUint32(0, SFNT_TRUETYPE);
  view.setUint16(4, tags.length);
  view.setUint16(6, searchRange);
  view.setUint16(8, entrySelector);
  view.setUint16(10, 16 * tags.length - searchRange);
  tags.forEach((tag, i) => {
    const record = 12 + 16 * i;
    for (let c = 0; c < 4; c++) view.setUint8(record + c, tag.charCodeAt(c));
    const offset = offsets.get(tag)!;
    const length = lengths.get(tag)!;
    // Tables are zero-padded to 4 bytes, so the padded sum is the table's checksum.
    view.setUint32(record + 4, checksum(view, offset, align4(length)));
    view.setUint32(record + 8, offset);
    view.setUint32(record + 12, length);
  });
}

/** The sfnt checksum: the sum of big-endian 32-bit words, modulo 2^32. `length` is a multiple of 4. */
function checksum(view: DataView, offset: number, length: number): number {
  let sum = 0;
  for (let at = offset; at < offset + length; at += 4) sum = (sum + view.getUint32(at)) >>> 0;
  return sum;
}

function align4(length: number): number {
  return length + ((4 - (length % 4)) % 4);
}
