/**
 * Elements a batch document copies once per row and whose ids or names must stay unique in it
 * (bookmarks, footnote and endnote references, drawing ids, section properties with their header
 * references). Found once per merge in the template's segments and replaced by markers; a row's
 * filled XML then only has its markers swapped for that row's text.
 */
import type { Segment } from './compile.ts';
import { rowStartSection } from './batch-xml.ts';

/** What a row's copy of an element depends on. */
export interface RowContext {
  /** Index of the row (its group) in the batch. */
  row: number;
  /** Section properties written so far in the row: the first starts the row. */
  sections: number;
  /** The relationship id this row uses for the template's relationship `id` (its own header copy). */
  relId(id: string): string;
}

/** How one marked element is written for a row. */
export type Slot = (context: RowContext) => string;

/** Largest ids of the template plus one: row k adds k times this to each id. */
export interface IdSpans {
  bookmark: number;
  drawing: number;
  note: number;
}

/** Separates markers from XML: a character XML does not allow, removed from values by escapeXml. */
const MARK = '\u0001';
const ELEMENT = /<w:sectPr\b[^>]*>|<w:bookmark(?:Start|End)\b[^>]*>|<w:(?:footnote|endnote)Reference\b[^>]*>|<wp:docPr\b[^>]*>|<w:hyperlink\b[^>]*\bw:anchor=[^>]*>/g;
const ID = /\bw:id="(-?\d+)"/;
const DRAWING_ID = /(\sid=")(\d+)"/;
/** Word's longest bookmark name. */
const MAX_BOOKMARK_NAME = 40;

export function idSpans(segments: readonly Segment[][]): IdSpans {
  const spans: IdSpans = { bookmark: 1, drawing: 1, note: 1 };
  const visit = (list: readonly Segment[]) => {
    for (const segment of list) {
      if (typeof segment !== 'string') {
        if (segment.kind === 'if') {
          visit(segment.then);
          visit(segment.otherwise);
        } else if (segment.kind === 'each') visit(segment.body);
        continue;
      }
      for (const [tag] of segment.matchAll(/<w:bookmarkStart\b[^>]*>|<wp:docPr\b[^>]*>|<w:(?:footnote|endnote)Reference\b[^>]*>/g)) {
        const id = Number((tag.startsWith('<wp:') ? DRAWING_ID.exec(tag)?.[2] : ID.exec(tag)?.[1]) ?? 0);
        const kind = tag.startsWith('<wp:') ? 'drawing' : tag.startsWith('<w:bookmark') ? 'bookmark' : 'note';
        spans[kind] = Math.max(spans[kind], id + 1);
      }
    }
  };
  segments.forEach(visit);
  return spans;
}

/** A row's name for a template bookmark (and the internal links to it): the first row keeps the names. */
export function rowBookmarkCopyName(name: string, row: number): string {
  if (row === 0) return name;
  const suffix = `_${row}`;
  return name.length + suffix.length <= MAX_BOOKMARK_NAME || name.includes('&') ? name + suffix : name.slice(0, MAX_BOOKMARK_NAME - suffix.length) + suffix;
}

/** The slot writing a w:sectPr for a row: the row's first one starts a new page numbered from 1. */
export function sectionSlot(sectPr: string): Slot {
  const start = rowStartSection(sectPr);
  const refersToParts = /r:id="/.test(sectPr);
  return (context) => {
    const xml = context.sections++ === 0 ? start : sectPr;
    return refersToParts ? xml.replace(/(<w:(?:header|footer)Reference\b[^>]*\br:id=")([^"]+)"/g, (_, head: string, id: string) => `${head}${context.relId(id)}"`) : xml;
  };
}

function elementSlot(tag: string, spans: IdSpans): Slot {
  if (tag.startsWith('<wp:docPr')) return ({ row }) => (row === 0 ? tag : tag.replace(DRAWING_ID, (_, head: string, id: string) => `${head}${Number(id) + row * spans.drawing}"`));
  if (tag.startsWith('<w:hyperlink')) return ({ row }) => tag.replace(/(\bw:anchor=")([^"]*)"/, (_, head: string, name: string) => `${head}${rowBookmarkCopyName(name, row)}"`);
  const span = tag.startsWith('<w:bookmark') ? spans.bookmark : spans.note;
  return ({ row }) => {
    if (row === 0) return tag;
    const renumbered = tag.replace(ID, (_, id: string) => `w:id="${Number(id) + row * span}"`);
    return renumbered.replace(/(\bw:name=")([^"]*)"/, (_, head: string, name: string) => `${head}${rowBookmarkCopyName(name, row)}"`);
  };
}

/** The end of the w:sectPr element opened at `at` (past a tracked change's own w:sectPr). */
function sectionEnd(xml: string, at: number, tagEnd: number): number {
  if (xml[tagEnd - 2] === '/') return tagEnd;
  const change = xml.indexOf('<w:sectPrChange', tagEnd);
  const close = xml.indexOf('</w:sectPr>', tagEnd);
  const from = change >= 0 && change < close ? xml.indexOf('</w:sectPrChange>', change) : at;
  return xml.indexOf('</w:sectPr>', from) + '</w:sectPr>'.length;
}

/** The segments with every element of ELEMENT replaced by a marker; `slots` receives how to write each. */
export function markRowElements(segments: readonly Segment[], slots: Slot[], spans: IdSpans): Segment[] {
  return segments.map((segment): Segment => {
    if (typeof segment !== 'string') {
      if (segment.kind === 'if') return { ...segment, then: markRowElements(segment.then, slots, spans), otherwise: markRowElements(segment.otherwise, slots, spans) };
      if (segment.kind === 'each') return { ...segment, body: markRowElements(segment.body, slots, spans) };
      return segment;
    }
    const xml = segment.includes(MARK) ? segment.replaceAll(MARK, '') : segment;
    let out = '';
    let from = 0;
    ELEMENT.lastIndex = 0;
    for (let match = ELEMENT.exec(xml); match; match = ELEMENT.exec(xml)) {
      const tagEnd = match.index + match[0].length;
      const end = match[0].startsWith('<w:sectPr') ? sectionEnd(xml, match.index, tagEnd) : tagEnd;
      const element = xml.slice(match.index, end);
      slots.push(element.startsWith('<w:sectPr') ? sectionSlot(element) : elementSlot(element, spans));
      out += `${xml.slice(from, match.index)}${MARK}${slots.length - 1}${MARK}`;
      from = end;
      ELEMENT.lastIndex = end;
    }
    return from === 0 ? xml : out + xml.slice(from);
  });
}

/** A row's filled XML with its markers written for the row. */
export function renderMarked(xml: string, slots: readonly Slot[], context: RowContext): string {
  if (!xml.includes(MARK)) return xml;
  const pieces = xml.split(MARK);
  for (let index = 1; index < pieces.length; index += 2) pieces[index] = slots[Number(pieces[index])]!(context);
  return pieces.join('');
}
