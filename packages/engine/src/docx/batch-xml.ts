/**
 * The XML edits of a batch document (batch.ts) at the bounds of each row's body: a bookmark in its
 * first paragraph, the section end in its last, and section properties that start each row on a new
 * page numbered from 1. Only the row's first and last paragraphs are looked at, never the whole body.
 */
import { tokenize } from './xml.ts';

/** Children of w:sectPr in schema order (Word refuses them out of order). */
const SECTION_ORDER = [
  'headerReference', 'footerReference', 'footnotePr', 'endnotePr', 'type', 'pgSz', 'pgMar', 'paperSrc', 'pgBorders', 'lnNumType',
  'pgNumType', 'cols', 'formProt', 'vAlign', 'noEndnote', 'titlePg', 'textDirection', 'bidi', 'rtlGutter', 'docGrid', 'printerSettings', 'sectPrChange',
];

interface Child {
  name: string;
  /** Offsets of the child's text within the sectPr. */
  start: number;
  end: number;
}

/**
 * The section properties of a row's first section: it starts on a new page (w:type nextPage) and
 * numbers its pages from 1 unless the template says where to start. Page setup stays as it was.
 */
export function rowStartSection(sectPr: string): string {
  let xml = /^<w:sectPr\b[^>]*\/>$/.test(sectPr) ? `${sectPr.slice(0, -2)}></w:sectPr>` : sectPr;
  const typeChild = children(xml).find((child) => child.name === 'type');
  xml = typeChild ? splice(xml, typeChild.start, typeChild.end, '<w:type w:val="nextPage"/>') : insertChild(xml, 'type', '<w:type w:val="nextPage"/>');
  const numbering = children(xml).find((child) => child.name === 'pgNumType');
  if (!numbering) return insertChild(xml, 'pgNumType', '<w:pgNumType w:start="1"/>');
  const tag = xml.slice(numbering.start, numbering.end);
  if (/\sw:start\s*=/.test(tag)) return xml;
  return splice(xml, numbering.start, numbering.start + '<w:pgNumType'.length, '<w:pgNumType w:start="1"');
}

/** Inserts `element` before the first child that the schema puts after `name`. */
function insertChild(xml: string, name: string, element: string): string {
  const rank = SECTION_ORDER.indexOf(name);
  const later = children(xml).find((child) => SECTION_ORDER.indexOf(child.name) > rank);
  const at = later ? later.start : xml.lastIndexOf('</w:sectPr>');
  return splice(xml, at, at, element);
}

/** The direct children of a w:sectPr element (local names, offsets). */
function children(xml: string): Child[] {
  const found: Child[] = [];
  let depth = 0;
  let offset = 0;
  let current: Child | undefined;
  for (const token of tokenize(xml, 'w:sectPr')) {
    const start = offset;
    offset += token.raw.length;
    if (token.kind === 'open') {
      if (depth === 1) current = { name: localName(token.name), start, end: -1 };
      depth++;
    } else if (token.kind === 'close') {
      depth--;
      if (depth === 1 && current) {
        current.end = offset;
        found.push(current);
        current = undefined;
      }
    } else if (token.kind === 'empty' && depth === 1) {
      found.push({ name: localName(token.name), start, end: offset });
    }
  }
  return found;
}

const localName = (name: string) => name.slice(name.indexOf(':') + 1);
const splice = (text: string, start: number, end: number, insert: string) => text.slice(0, start) + insert + text.slice(end);

/** Offset just past a paragraph's open tag and its w:pPr (where range marks such as bookmarks may go), or -1. */
function afterParagraphProperties(xml: string, open: number): number {
  const tagEnd = xml.indexOf('>', open) + 1;
  if (!xml.startsWith('<w:pPr', tagEnd) || !/[\s/>]/.test(xml[tagEnd + 6] ?? '')) return tagEnd;
  const propertiesTagEnd = xml.indexOf('>', tagEnd) + 1;
  if (xml[propertiesTagEnd - 2] === '/') return propertiesTagEnd;
  // A tracked change (w:pPrChange) holds a w:pPr of its own: the outer one ends after it.
  const change = xml.indexOf('<w:pPrChange', propertiesTagEnd);
  const close = xml.indexOf('</w:pPr>', propertiesTagEnd);
  if (change >= 0 && change < close) return xml.indexOf('</w:pPr>', xml.indexOf('</w:pPrChange>', change)) + '</w:pPr>'.length;
  return close + '</w:pPr>'.length;
}

/** Whether `<w:p` at `at` opens a paragraph (not w:pPr, w:proofErr...). */
const isParagraphTag = (xml: string, at: number) => /[\s/>]/.test(xml[at + 4] ?? '');

/** The body with `marks` (a bookmark) at the start of its first paragraph; a paragraph of its own when it has none. */
export function withMarkAtStart(body: string, marks: string): string {
  let at = body.indexOf('<w:p');
  while (at >= 0 && !isParagraphTag(body, at)) at = body.indexOf('<w:p', at + 4);
  if (at < 0) return `<w:p>${marks}</w:p>${body}`;
  const tagEnd = body.indexOf('>', at) + 1;
  if (body[tagEnd - 2] === '/') return `${body.slice(0, at)}${body.slice(at, tagEnd - 2).trimEnd()}>${marks}</w:p>${body.slice(tagEnd)}`;
  const insertAt = afterParagraphProperties(body, at);
  return splice(body, insertAt, insertAt, marks);
}

/**
 * The body with `sectPr` ending its last section: in the properties of its last paragraph (an
 * extra empty paragraph could spill onto a page of its own), or in a paragraph of its own when the
 * body ends otherwise (a table) or the last paragraph already ends a section.
 */
export function withSectionAtEnd(body: string, sectPr: string): string {
  const own = `<w:p><w:pPr>${sectPr}</w:pPr></w:p>`;
  let end = body.length;
  // Range marks Word leaves after the last paragraph (a bookmark's end, proofing marks) are skipped.
  for (;;) {
    const trimmed = body.slice(0, end).trimEnd().length;
    if (body.endsWith('/>', trimmed) && !body.slice(body.lastIndexOf('<', trimmed), trimmed).startsWith('<w:p/')) end = body.lastIndexOf('<', trimmed);
    else {
      end = trimmed;
      break;
    }
  }
  if (!body.endsWith('</w:p>', end)) return body.slice(0, end) + own + body.slice(end);
  const open = matchingParagraphOpen(body, end - '</w:p>'.length);
  if (open < 0) return body.slice(0, end) + own + body.slice(end);
  const tagEnd = body.indexOf('>', open) + 1;
  const propertiesEnd = afterParagraphProperties(body, open);
  if (propertiesEnd === tagEnd) return splice(body, tagEnd, tagEnd, `<w:pPr>${sectPr}</w:pPr>`);
  const properties = body.slice(tagEnd, propertiesEnd);
  if (properties.includes('<w:sectPr')) return body.slice(0, end) + own + body.slice(end);
  if (properties.endsWith('/>')) return splice(body, tagEnd, propertiesEnd, `<w:pPr>${sectPr}</w:pPr>`);
  // Before a tracked change of the properties, else before </w:pPr>: w:sectPr's place in the schema.
  const change = properties.indexOf('<w:pPrChange');
  const at = tagEnd + (change >= 0 ? change : properties.length - '</w:pPr>'.length);
  return splice(body, at, at, sectPr);
}

/** The open tag of the paragraph closed at `close`, skipping paragraphs nested in it (text boxes). */
function matchingParagraphOpen(xml: string, close: number): number {
  let depth = 1;
  let at = close;
  while (depth > 0) {
    const previousClose = xml.lastIndexOf('</w:p>', at - 1);
    let previousOpen = xml.lastIndexOf('<w:p', at - 1);
    while (previousOpen >= 0 && !isParagraphTag(xml, previousOpen)) previousOpen = xml.lastIndexOf('<w:p', previousOpen - 1);
    if (previousOpen < 0) return -1;
    if (previousClose > previousOpen) {
      depth++;
      at = previousClose;
    } else {
      const selfClosing = xml[xml.indexOf('>', previousOpen) - 1] === '/';
      if (!selfClosing) depth--;
      at = previousOpen;
    }
  }
  return at;
}
