/**
 * A font whose shaping takes minutes: its GSUB table is a chain of contextual lookups, each
 * applying the next one twice, so laying out one glyph takes 2^depth lookups. The table directory and
 * every table but GSUB are a real font's, so only a full parse (fontkit's layout) meets the trap.
 */

/**
 * The lookup chain's length: 2^28 lookups per glyph take minutes, far past the 10 s deadline, yet end,
 * so a parse put back on the event loop fails the test rather than hanging it.
 */
const DEPTH = 28;

class Writer {
  private readonly bytes: number[] = [];
  get length(): number {
    return this.bytes.length;
  }
  u16(...values: number[]): this {
    for (const value of values) this.bytes.push((value >> 8) & 0xff, value & 0xff);
    return this;
  }
  tag(text: string): this {
    for (const char of text) this.bytes.push(char.charCodeAt(0));
    return this;
  }
  append(other: Writer): this {
    this.bytes.push(...other.bytes);
    return this;
  }
  toBytes(): Uint8Array {
    return Uint8Array.from(this.bytes);
  }
}

/** Lookup `index` (type 5, context format 3, every glyph covered) applies lookup index+1 twice; the last applies none. */
function contextLookup(index: number): Writer {
  const calls = index < DEPTH - 1 ? 2 : 0;
  const subtableOffset = 8; // after the lookup's header and its one offset
  const coverageOffset = 6 + 2 + calls * 4; // after the subtable's header, coverage offset and records
  const subtable = new Writer().u16(3, 1, calls, coverageOffset);
  for (let call = 0; call < calls; call++) subtable.u16(0, index + 1);
  subtable.u16(2, 1, 0, 0xffff, 0); // coverage format 2: one range over every glyph id
  return new Writer().u16(5, 0, 1, subtableOffset).append(subtable);
}

function hostileGsub(): Uint8Array {
  // Scripts DFLT and latn share one script table whose default language turns on feature 0 ('liga').
  const scriptList = new Writer().u16(2).tag('DFLT').u16(14).tag('latn').u16(14);
  scriptList.u16(4, 0).u16(0, 0xffff, 1, 0); // script: default LangSys at 4, no others; LangSys
  const featureList = new Writer().u16(1).tag('liga').u16(8).u16(0, 1, 0);
  const lookups = Array.from({ length: DEPTH }, (_, index) => contextLookup(index));
  const lookupList = new Writer().u16(DEPTH);
  let offset = 2 + DEPTH * 2;
  for (const lookup of lookups) {
    lookupList.u16(offset);
    offset += lookup.length;
  }
  for (const lookup of lookups) lookupList.append(lookup);
  const header = 10;
  return new Writer()
    .u16(1, 0, header, header + scriptList.length, header + scriptList.length + featureList.length)
    .append(scriptList)
    .append(featureList)
    .append(lookupList)
    .toBytes();
}

/** `font` (a TrueType font with a GSUB table) with that table replaced by the endless one, appended at the end. */
export function withEndlessShaping(font: Uint8Array): Uint8Array {
  const gsub = hostileGsub();
  const start = Math.ceil(font.length / 4) * 4;
  const out = new Uint8Array(start + gsub.length);
  out.set(font);
  out.set(gsub, start);
  const view = new DataView(out.buffer);
  const count = view.getUint16(4);
  for (let index = 0; index < count; index++) {
    const record = 12 + index * 16;
    if (String.fromCharCode(...out.subarray(record, record + 4)) !== 'GSUB') continue;
    view.setUint32(record + 8, start);
    view.setUint32(record + 12, gsub.length);
    return out;
  }
  throw new Error('the font has no GSUB table to replace');
}
