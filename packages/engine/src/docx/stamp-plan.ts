/**
 * Stamp batches for PDF output (docs/word-templates.md#stamped-batches): LibreOffice prints a page
 * of a letter in 7-10 ms of CPU whatever the batch, so printing each row's whole letter is most of a
 * merge's time. A stamp batch prints the letter once, for the batch's first document, and after it
 * only the template's variable blocks (the top-level paragraphs and tables of the body, header and
 * footer that hold a field) for every document, between sentinel paragraphs; pdf/stamp/ swaps each
 * block's drawing into the reference. Planned once per merge; templates whose fields could move
 * anything else (page counts, lists, notes, pictures, text boxes, conditional or repeated parts,
 * several sections or columns) are not stamped.
 */
import type { SheetData } from '../sheet/types.ts';
import type { StampLayout, StampZone } from '../pdf/stamp/stamp-pdf.ts';
import { partText, type BatchPart } from './batch-parts.ts';
import { fillSegments, type Segment } from './compile.ts';
import { tokenize } from './xml.ts';

/**
 * A sentinel paragraph: 1 pt high, coloured SENTINEL_RGB (#123456) so the PDF side finds it. One
 * opens each group's blocks and one follows each block; all but the group's last keep with the next
 * paragraph, and so do the blocks' own paragraphs, so a group is never split over two pages.
 */
const sentinel = (keepNext: boolean) =>
  `<w:p><w:pPr>${keepNext ? '<w:keepNext/>' : ''}<w:spacing w:before="0" w:after="0" w:line="20" w:lineRule="exact"/><w:ind w:left="0" w:right="0" w:firstLine="0"/><w:jc w:val="left"/></w:pPr><w:r><w:rPr><w:color w:val="123456"/><w:sz w:val="2"/><w:szCs w:val="2"/></w:rPr><w:t>.</w:t></w:r></w:p>`;
const SENTINEL = sentinel(true);
const LAST_SENTINEL = sentinel(false);

/** Page height of the pages of blocks, 88 inches (LibreOffice takes it; the pages never reach a user): more groups a page, fewer page breaks. */
const TALL_PAGE_TWIPS = 31680 * 4;
/** More variable blocks than this and the letter is mostly variable: print it whole. */
const MAX_BLOCKS = 24;

/** XML a stamped block may not hold: things that number, float, link or depend on the page they print on. */
const UNSTAMPABLE = /<w:(drawing|pict|object|txbxContent|footnoteReference|endnoteReference|commentReference|hyperlink|fldSimple|instrText|fldChar|numPr|sectPr|framePr|tblpPr|ruby)\b|<mc:AlternateContent\b|<v:|<m:oMath/;
/** Floating things text flows around, anywhere in the body, a header or a footer: a block's lines may depend on where they sit. */
const WRAPPING_FLOAT = /<wp:wrap(Square|Tight|Through|TopAndBottom)\b|<w:framePr\b|<w:tblpPr\b|<w10:wrap\b[^>]*\btype="(square|tight|through|topAndBottom)"/;
/** Section settings under which blocks would not print the same in a body of their own. */
const UNSTAMPABLE_SECTION = /<w:(titlePg|lnNumType)\b|<w:textDirection\b(?![^>]*w:val="lrTb")|<w:bidi\b(?![^>]*w:val="(0|false)")|<w:cols\b[^>]*\bw:num="([2-9]|\d\d)"|<w:(header|footer)Reference\b[^>]*\bw:type="(first|even)"/;

export interface StampPlan {
  layout: StampLayout;
  /** The blocks of the group `rows` (its first row fills them) between sentinels: layout.zones.length + 1 of them. */
  blocks(sheet: SheetData, rows: readonly number[]): string;
  /** The final w:sectPr for the pages of blocks: the template's, on tall pages. */
  section(templateSection: string): string;
}

interface Block {
  zone: StampZone;
  segments: Segment[];
}

/**
 * The plan, or undefined when the template cannot be stamped. `parts` are the compiled parts,
 * `mainName` the main document's; `settings` the text of word/settings.xml ("" if none).
 */
export function planStamp(parts: readonly BatchPart[], mainName: string, settings: string): StampPlan | undefined {
  const blocks: Block[] = [];
  let finalSection = '';
  for (const part of parts) {
    const zone: StampZone | undefined = part.name === mainName ? 'body' : /(^|\/)header\d*\.xml$/i.test(part.name) ? 'header' : /(^|\/)footer\d*\.xml$/i.test(part.name) ? 'footer' : undefined;
    if (zone && WRAPPING_FLOAT.test(partText(part))) return undefined;
    if (!part.segments) continue;
    if (!part.segments.every((segment) => typeof segment === 'string' || segment.kind === 'value')) return undefined;
    if (!zone) return undefined;
    const elements = topLevelElements(part.segments, zone === 'body' ? 'w:body' : zone === 'header' ? 'w:hdr' : 'w:ftr');
    if (!elements) return undefined;
    for (const element of elements) {
      const xml = element.filter((segment): segment is string => typeof segment === 'string').join('');
      if (zone === 'body' && xml.startsWith('<w:sectPr')) {
        finalSection = xml;
        continue;
      }
      if (zone === 'body' && xml.includes('<w:sectPr')) return undefined; // a section break: several sections
      if (!element.some((segment) => typeof segment !== 'string')) continue;
      if (UNSTAMPABLE.test(xml)) return undefined;
      blocks.push({ zone, segments: keptTogether(withoutBookmarks(element)) });
    }
  }
  if (blocks.length === 0 || blocks.length > MAX_BLOCKS || !finalSection || UNSTAMPABLE_SECTION.test(finalSection)) return undefined;
  if (/<w:evenAndOddHeaders\b(?![^>]*w:val="(0|false)")/.test(settings)) return undefined;
  // Body blocks first, in document order, then header and footer blocks (pdf/stamp matches them in this order).
  const order: StampZone[] = ['body', 'header', 'footer'];
  blocks.sort((a, b) => order.indexOf(a.zone) - order.indexOf(b.zone));
  return {
    layout: { zones: blocks.map((block) => block.zone) },
    blocks(sheet, rows) {
      const out: string[] = [SENTINEL];
      blocks.forEach((block, index) => {
        fillSegments(block.segments, sheet, rows[0]!, rows, out);
        out.push(index < blocks.length - 1 ? SENTINEL : LAST_SENTINEL);
      });
      return out.join('');
    },
    section: (templateSection) => templateSection.replace(/(<w:pgSz\b[^>]*\bw:h=")\d+"/, `$1${TALL_PAGE_TWIPS}"`),
  };
}

/** The part's top-level elements (children of `root`), each as its segments; undefined when a field sits outside any. */
function topLevelElements(segments: readonly Segment[], root: string): Segment[][] | undefined {
  const elements: Segment[][] = [];
  let depth = 0;
  /** Depth of root's children; -1 before root opens. */
  let childDepth = -1;
  let current: Segment[] | undefined;
  for (const segment of segments) {
    if (typeof segment !== 'string') {
      if (!current) return undefined;
      current.push(segment);
      continue;
    }
    // Neighbouring text is kept as one string, so a paragraph's start tag and properties can be edited together.
    const push = (raw: string) => {
      if (!current) return;
      if (typeof current.at(-1) === 'string') current[current.length - 1] += raw;
      else current.push(raw);
    };
    for (const token of tokenize(segment, root)) {
      if (token.kind === 'open') {
        if (childDepth >= 0 && depth === childDepth) current = [];
        push(token.raw);
        depth++;
        if (childDepth < 0 && token.name === root) childDepth = depth;
      } else if (token.kind === 'close') {
        depth--;
        if (token.name === root) {
          childDepth = -1;
          continue;
        }
        push(token.raw);
        if (current && depth === childDepth) {
          elements.push(current);
          current = undefined;
        }
      } else if (token.kind === 'empty') {
        if (childDepth >= 0 && depth === childDepth) elements.push([token.raw]);
        else push(token.raw);
      } else push(token.raw);
    }
  }
  return elements;
}

/**
 * The block's paragraphs kept whole and with the next one (pagination only: the lines and their
 * spacing stay as they are), so its group does not break over a page.
 */
function keptTogether(segments: readonly Segment[]): Segment[] {
  const keep = '<w:keepNext/><w:keepLines/>';
  return segments.map((segment) => {
    if (typeof segment !== 'string') return segment;
    return segment
      .replace(/<w:keep(Next|Lines)\b[^>]*\/>/g, '')
      .replace(/<w:pPr>(<w:pStyle\b[^>]*\/>)?/g, (properties) => properties + keep)
      .replace(/<w:p(\s[^>]*)?>(?!<w:pPr>)/g, (open) => (open.endsWith('/>') ? open : `${open}<w:pPr>${keep}</w:pPr>`));
  });
}

/** The block without bookmarks: each copy would repeat the template's names. */
function withoutBookmarks(segments: readonly Segment[]): Segment[] {
  return segments.map((segment) => (typeof segment === 'string' ? segment.replace(/<w:bookmark(Start|End)\b[^>]*\/>/g, '') : segment));
}
