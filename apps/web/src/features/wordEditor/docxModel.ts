/**
 * A Word template's text as the browser edits it (docs/word-templates.md#editing-in-the-browser): the
 * DOCX unzipped, its body, headers, footers and notes parsed, every paragraph (table cells and text
 * boxes included) listed as text, fields inserted at a place in a paragraph, and the DOCX put back together
 * with every part it did not change exactly as it was. Pure DOM and fflate, no React: tested apart.
 */
import { strFromU8, strToU8, unzipSync, zipSync, type Unzipped } from 'fflate';

export const W_NS = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';
export const XML_NS = 'http://www.w3.org/XML/1998/namespace';
/** The parts a person writes text in that the editor shows (the order of the list). */
const TEXT_PART = /^word\/(document|header\d*|footer\d*|footnotes|endnotes)\.xml$/;
const MC_NS = 'http://schemas.openxmlformats.org/markup-compatibility/2006';
const XML_DECLARATION = /^\s*<\?xml[^>]*\?>\s*/;

/** The DOM classes to parse and write XML with: the browser's, or a test's. */
export interface XmlDom {
  DOMParser: new () => { parseFromString(text: string, type: 'application/xml'): Document };
  XMLSerializer: new () => { serializeToString(node: Node): string };
}

const browserDom = (): XmlDom => ({ DOMParser: globalThis.DOMParser, XMLSerializer: globalThis.XMLSerializer });

/** A piece of a paragraph's text: one w:t (or a tab or a break) and where its text starts. */
export interface Segment {
  node: Element;
  start: number;
  text: string;
}

export interface Paragraph {
  /** Stable within one opened document: "<part>#<n>". */
  id: string;
  part: string;
  /** What a reader sees of it (tabs as \t, line breaks as \n). */
  text: string;
  /** In a table cell. */
  inTable: boolean;
}

export interface WordDocument {
  /** Every entry of the ZIP as read (parts not edited are written back from here). */
  entries: Unzipped;
  /** The text parts, parsed, in the order they are listed. */
  parts: { name: string; doc: Document; declaration: string }[];
  /** Parts changed since opening. */
  changed: Set<string>;
  dom: XmlDom;
}

/** A place in a paragraph: before character `offset`. */
export interface Caret {
  paragraphId: string;
  offset: number;
}

export interface SearchHit {
  paragraphId: string;
  offset: number;
  length: number;
}

export class DocxError extends Error {}

const PART_KINDS = ['document', 'header', 'footer', 'footnotes', 'endnotes'] as const;
const partOrder = (name: string) => PART_KINDS.findIndex((kind) => name.startsWith(`word/${kind}`));

export function openDocx(bytes: Uint8Array, dom: XmlDom = browserDom()): WordDocument {
  let entries: Unzipped;
  try {
    entries = unzipSync(bytes);
  } catch {
    throw new DocxError('not a ZIP');
  }
  const names = Object.keys(entries).filter((name) => TEXT_PART.test(name)).sort((a, b) => partOrder(a) - partOrder(b) || a.localeCompare(b, 'en', { numeric: true }));
  if (!names.includes('word/document.xml')) throw new DocxError('no word/document.xml');
  const parts = names.map((name) => {
    const text = strFromU8(entries[name]!);
    const doc = new dom.DOMParser().parseFromString(text, 'application/xml');
    if (doc.getElementsByTagName('parsererror').length > 0) throw new DocxError(`damaged ${name}`);
    return { name, doc, declaration: XML_DECLARATION.exec(text)?.[0] ?? '' };
  });
  return { entries, parts, changed: new Set(), dom };
}

/** The nearest ancestor (or the node itself) named `local` in the WordprocessingML namespace. */
export function ancestor(node: Node, local: string): Element | null {
  for (let current: Node | null = node; current; current = current.parentNode) {
    if (current.nodeType === 1 && (current as Element).localName === local && (current as Element).namespaceURI === W_NS) return current as Element;
  }
  return null;
}

export const elements = (root: Document | Element, local: string): Element[] => Array.from(root.getElementsByTagNameNS(W_NS, local));

/** The paragraph's own text pieces (not those of a text box's paragraphs inside it). */
export function segments(paragraph: Element): Segment[] {
  const found: Segment[] = [];
  let start = 0;
  const walk = (node: Node) => {
    for (let child = node.firstChild; child; child = child.nextSibling) {
      if (child.nodeType !== 1) continue;
      const element = child as Element;
      if (element.namespaceURI === W_NS && element.localName === 'p') continue; // a text box's own paragraph
      if (element.namespaceURI === W_NS && element.localName === 'del') continue; // deleted text is not read
      const local = element.namespaceURI === W_NS ? element.localName : '';
      const text = local === 't' ? (element.textContent ?? '') : local === 'tab' && ancestor(element, 'r') ? '\t' : (local === 'br' || local === 'cr') ? '\n' : null;
      if (text !== null) {
        found.push({ node: element, start, text });
        start += text.length;
      } else walk(element);
    }
  };
  walk(paragraph);
  return found;
}

export interface Located {
  element: Element;
  part: WordDocument['parts'][number];
}

/**
 * Not text a reader sees: the VML copy of a text box Word writes for old readers (mc:Fallback; its
 * DrawingML copy, mc:Choice, is the one Word and LibreOffice show), and the separator "notes".
 */
function hidden(paragraph: Element): boolean {
  for (let node: Node | null = paragraph.parentNode; node && node.nodeType === 1; node = node.parentNode) {
    const element = node as Element;
    if (element.namespaceURI === MC_NS && element.localName === 'Fallback') return true;
    if (element.namespaceURI === W_NS && (element.localName === 'footnote' || element.localName === 'endnote')) {
      const type = element.getAttributeNS(W_NS, 'type');
      return type !== null && type !== '' && type !== 'normal';
    }
  }
  return false;
}

/** Every listed paragraph by id ("<part>#<n>", n counting all of the part's w:p in document order). */
export function paragraphElements(document: WordDocument): Map<string, Located> {
  const map = new Map<string, Located>();
  for (const part of document.parts) {
    elements(part.doc, 'p').forEach((element, index) => {
      if (!hidden(element)) map.set(`${part.name}#${index}`, { element, part });
    });
  }
  return map;
}

/** The id of a paragraph element of `part` (after an edit moved the numbering). */
export function paragraphId(part: WordDocument['parts'][number], paragraph: Element): string {
  return `${part.name}#${elements(part.doc, 'p').indexOf(paragraph)}`;
}

export function listParagraphs(document: WordDocument): Paragraph[] {
  return [...paragraphElements(document)].map(([id, { element, part }]) => ({
    id,
    part: part.name,
    text: segments(element).map((segment) => segment.text).join(''),
    inTable: ancestor(element, 'tc') !== null,
  }));
}

/** Every place the text occurs, case and accents as typed ignored for case only; across runs. */
export function searchText(document: WordDocument, query: string): SearchHit[] {
  const needle = query.toLocaleLowerCase();
  if (needle === '') return [];
  const hits: SearchHit[] = [];
  for (const paragraph of listParagraphs(document)) {
    const haystack = paragraph.text.toLocaleLowerCase();
    for (let at = haystack.indexOf(needle); at !== -1; at = haystack.indexOf(needle, at + needle.length)) {
      hits.push({ paragraphId: paragraph.id, offset: at, length: needle.length });
    }
  }
  return hits;
}

export function textRun(doc: Document, properties: Element | null, text: string): Element {
  const run = doc.createElementNS(W_NS, 'w:r');
  if (properties) run.appendChild(properties.cloneNode(true));
  const t = doc.createElementNS(W_NS, 'w:t');
  t.setAttributeNS(XML_NS, 'xml:space', 'preserve');
  t.appendChild(doc.createTextNode(text));
  run.appendChild(t);
  return run;
}

export const runProperties = (run: Element): Element | null => {
  const first = Array.from(run.childNodes).find((node) => node.nodeType === 1) as Element | undefined;
  return first && first.localName === 'rPr' && first.namespaceURI === W_NS ? first : null;
};

/**
 * Splits `run` before its child `at`: what comes from `at` on moves to a new run with the same
 * properties, placed right after it. Returns the new run.
 */
function splitRun(run: Element, at: Node): Element {
  const doc = run.ownerDocument;
  const after = doc.createElementNS(W_NS, 'w:r');
  for (let index = 0; index < run.attributes.length; index++) {
    const attribute = run.attributes.item(index)!;
    // Revision ids (w:rsidR...) may repeat; nothing else of a run's attributes matters here.
    after.setAttributeNS(attribute.namespaceURI, attribute.name, attribute.value);
  }
  const properties = runProperties(run);
  if (properties) after.appendChild(properties.cloneNode(true));
  for (let node: Node | null = at; node; ) {
    const next: Node | null = node.nextSibling;
    after.appendChild(node);
    node = next;
  }
  run.parentNode!.insertBefore(after, run.nextSibling);
  return after;
}

/** Inserts `text` (a field such as "{{First}}") at the caret, in the formatting of the text around it. */
export function insertText(document: WordDocument, caret: Caret, text: string): Caret {
  const located = paragraphElements(document).get(caret.paragraphId);
  if (!located) throw new DocxError(`no paragraph ${caret.paragraphId}`);
  const { element: paragraph, part } = located;
  const doc = part.doc;
  const pieces = segments(paragraph).filter((segment) => ancestor(segment.node, 'r'));
  const offset = Math.max(0, Math.min(caret.offset, pieces.reduce((total, piece) => total + piece.text.length, 0)));
  // The piece whose character the caret follows (the field takes the formatting of the text before it,
  // as Word does); at the paragraph's start, the first piece.
  const piece = pieces.find((segment) => offset > segment.start && offset <= segment.start + segment.text.length) ?? pieces[0];
  if (!piece) {
    // An empty paragraph: a new run at its end, in the paragraph mark's formatting.
    const markProperties = elements(paragraph, 'pPr')[0]?.getElementsByTagNameNS(W_NS, 'rPr')[0] ?? null;
    paragraph.appendChild(textRun(doc, markProperties, text));
  } else {
    const run = ancestor(piece.node, 'r')!;
    const inside = offset - piece.start;
    let nextOfField: Node | null;
    if (piece.node.localName === 't' && inside > 0 && inside < piece.text.length) {
      // Mid-word: the w:t is cut in two, the second half starting the run after the field.
      const second = piece.node.cloneNode(false) as Element;
      second.setAttributeNS(XML_NS, 'xml:space', 'preserve');
      second.appendChild(doc.createTextNode(piece.text.slice(inside)));
      piece.node.textContent = piece.text.slice(0, inside);
      piece.node.setAttributeNS(XML_NS, 'xml:space', 'preserve');
      piece.node.parentNode!.insertBefore(second, piece.node.nextSibling);
      nextOfField = second;
    } else nextOfField = inside === 0 ? piece.node : piece.node.nextSibling;
    const field = textRun(doc, runProperties(run), text);
    const firstContent = Array.from(run.childNodes).find((node) => node.nodeType === 1 && node !== runProperties(run));
    const beforeAnything = nextOfField !== null && firstContent === nextOfField;
    if (nextOfField === null) run.parentNode!.insertBefore(field, run.nextSibling);
    else if (beforeAnything) run.parentNode!.insertBefore(field, run);
    else {
      splitRun(run, nextOfField);
      run.parentNode!.insertBefore(field, run.nextSibling);
    }
  }
  document.changed.add(part.name);
  return { paragraphId: caret.paragraphId, offset: offset + text.length };
}

/** The DOCX with the edits: changed parts written anew, every other entry byte for byte as read. */
export function saveDocx(document: WordDocument): Uint8Array {
  const out: Unzipped = {};
  for (const [name, bytes] of Object.entries(document.entries)) {
    const part = document.changed.has(name) ? document.parts.find((candidate) => candidate.name === name) : undefined;
    if (!part) {
      out[name] = bytes;
      continue;
    }
    const xml = new document.dom.XMLSerializer().serializeToString(part.doc).replace(XML_DECLARATION, '');
    out[name] = strToU8(`${part.declaration || '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\r\n'}${xml}`);
  }
  return zipSync(out, { level: 6 });
}
