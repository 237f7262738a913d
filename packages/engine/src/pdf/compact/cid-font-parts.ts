/**
 * The parts of a CID font dictionary that list every glyph, cut to the glyphs kept: the /W widths
 * array and the /ToUnicode CMap. A code outside `keep` is never shown, so its entries are dead bytes.
 */
import { PDFArray, PDFNumber, type PDFContext } from 'pdf-lib';

/** /W with entries for the kept CIDs only, as `c [w1 w2 ...]` runs; undefined when /W cannot be read. */
export function keptWidths(context: PDFContext, widths: PDFArray, keep: ReadonlySet<number>): PDFArray | undefined {
  const width = new Map<number, number>();
  const items = widths.asArray().map((item) => context.lookup(item));
  for (let i = 0; i < items.length; ) {
    const first = items[i];
    const next = items[i + 1];
    if (!(first instanceof PDFNumber)) return undefined;
    if (next instanceof PDFArray) {
      next.asArray().forEach((w, k) => {
        const value = context.lookup(w);
        if (value instanceof PDFNumber && keep.has(first.asNumber() + k)) width.set(first.asNumber() + k, value.asNumber());
      });
      i += 2;
    } else {
      const last = items[i + 1];
      const w = items[i + 2];
      if (!(last instanceof PDFNumber) || !(w instanceof PDFNumber)) return undefined;
      for (const cid of keep) if (cid >= first.asNumber() && cid <= last.asNumber()) width.set(cid, w.asNumber());
      i += 3;
    }
  }
  const cids = [...width.keys()].sort((a, b) => a - b);
  const out: Array<number | number[]> = [];
  for (let i = 0; i < cids.length; ) {
    let j = i + 1;
    while (j < cids.length && cids[j] === cids[j - 1]! + 1) j++;
    out.push(cids[i]!, cids.slice(i, j).map((cid) => width.get(cid)!));
    i = j;
  }
  return context.obj(out);
}

const HEX_TOKEN = /<([0-9A-Fa-f\s]*)>/g;

/**
 * A ToUnicode CMap with the kept 2-byte codes only (ranges written out as single codes); undefined
 * when the CMap is not the plain bfchar/bfrange kind this can read, so the caller keeps it whole.
 */
export function keptToUnicode(cmap: string, keep: ReadonlySet<number>): string | undefined {
  const mapped = new Map<number, string>();
  const sections = /begin(bfchar|bfrange)([\s\S]*?)end\1/g;
  let section: RegExpExecArray | null;
  let any = false;
  while ((section = sections.exec(cmap))) {
    any = true;
    if (section[1] === 'bfchar') {
      const hex = [...section[2]!.matchAll(HEX_TOKEN)].map((m) => m[1]!.replace(/\s/g, ''));
      if (hex.length % 2) return undefined;
      for (let i = 0; i < hex.length; i += 2) {
        const code = parseInt(hex[i]!, 16);
        if (hex[i]!.length !== 4) return undefined;
        if (keep.has(code)) mapped.set(code, hex[i + 1]!);
      }
    } else {
      const ranges = /<([0-9A-Fa-f]{4})>\s*<([0-9A-Fa-f]{4})>\s*(<[0-9A-Fa-f\s]*>|\[[^\]]*\])/g;
      const body = section[2]!.trim();
      let consumed = 0;
      let range: RegExpExecArray | null;
      while ((range = ranges.exec(body))) {
        if (body.slice(consumed, range.index).trim()) return undefined;
        consumed = range.index + range[0].length;
        const low = parseInt(range[1]!, 16);
        const high = parseInt(range[2]!, 16);
        const target = range[3]!;
        if (target.startsWith('[')) {
          const list = [...target.matchAll(HEX_TOKEN)].map((m) => m[1]!.replace(/\s/g, ''));
          for (let code = low; code <= high; code++) if (keep.has(code) && list[code - low]) mapped.set(code, list[code - low]!);
        } else {
          const start = target.slice(1, -1).replace(/\s/g, '');
          if (start.length === 0 || start.length % 4) return undefined;
          for (let code = low; code <= high; code++) if (keep.has(code)) mapped.set(code, addToLastUnit(start, code - low));
        }
      }
      if (body.slice(consumed).trim()) return undefined;
    }
  }
  if (!any || !/begincodespacerange\s*<0000>\s*<[Ff]{4}>\s*endcodespacerange/.test(cmap)) return undefined;
  return toUnicodeCMap(mapped);
}

/** The hex of UTF-16 `start` with `offset` added to its last unit (bfrange semantics). */
function addToLastUnit(start: string, offset: number): string {
  const last = parseInt(start.slice(-4), 16) + offset;
  return start.slice(0, -4) + (last & 0xffff).toString(16).padStart(4, '0').toUpperCase();
}

function toUnicodeCMap(mapped: Map<number, string>): string {
  const codes = [...mapped.keys()].sort((a, b) => a - b);
  const blocks: string[] = [];
  // At most 100 entries per bfchar block (the CMap format's limit).
  for (let i = 0; i < codes.length; i += 100) {
    const chunk = codes.slice(i, i + 100);
    blocks.push(`${chunk.length} beginbfchar\n${chunk.map((code) => `<${code.toString(16).padStart(4, '0').toUpperCase()}> <${mapped.get(code)!.toUpperCase()}>`).join('\n')}\nendbfchar`);
  }
  return [
    '/CIDInit /ProcSet findresource begin',
    '12 dict begin',
    'begincmap',
    '/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def',
    '/CMapName /Adobe-Identity-UCS def',
    '/CMapType 2 def',
    '1 begincodespacerange',
    '<0000> <FFFF>',
    'endcodespacerange',
    ...blocks,
    'endcmap',
    'CMapName currentdict /CMap defineresource pop',
    'end',
    'end',
  ].join('\n');
}
