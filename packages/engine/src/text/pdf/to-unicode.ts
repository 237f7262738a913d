/** The ToUnicode CMap of a subset font: glyph id -> the text it stands for (ligatures: several characters). */
import { hex4 } from '../pdf-syntax.ts';

const HEADER = `/CIDInit /ProcSet findresource begin
12 dict begin
begincmap
/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def
/CMapName /Adobe-Identity-UCS def
/CMapType 2 def
1 begincodespacerange
<0000> <FFFF>
endcodespacerange
`;
const FOOTER = `endcmap
CMapName currentdict /CMap defineresource pop
end
end
`;
/** The CMap format allows at most 100 mappings per bfchar block. */
const BLOCK = 100;

/** `unicode[gid]` is the glyph's text ('' = none, e.g. .notdef). */
export function toUnicodeCMap(unicode: readonly string[]): string {
  const entries: string[] = [];
  for (let gid = 0; gid < unicode.length; gid++) {
    const text = unicode[gid]!;
    if (text === '') continue;
    let utf16 = '';
    for (let i = 0; i < text.length; i++) utf16 += hex4(text.charCodeAt(i));
    entries.push(`<${hex4(gid)}> <${utf16}>`);
  }
  let body = '';
  for (let i = 0; i < entries.length; i += BLOCK) {
    const block = entries.slice(i, i + BLOCK);
    body += `${block.length} beginbfchar\n${block.join('\n')}\nendbfchar\n`;
  }
  return HEADER + body + FOOTER;
}
