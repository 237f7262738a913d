/**
 * Typing and deleting in a Word template's text (docs/word-templates.md#editing-in-the-browser), as
 * structural edits of the parsed parts: typed text goes into the w:t before the cursor (so it takes
 * that run's formatting), deleting shortens or removes w:t elements and drops runs left empty, Enter
 * splits the paragraph (both halves keep its properties) and a {{field}} is deleted as one unit.
 * Everything else of the XML (drawings, bookmarks, fields' codes) is left as it was.
 */
import { columnTagSpans } from '@sheaf/shared';
import {
  DocxError, W_NS, XML_NS, ancestor, insertText, paragraphElements, paragraphId, segments,
  type Caret, type Located, type Segment, type WordDocument,
} from './docxModel.ts';

/** Why a deletion across paragraphs was not made: they are not plain neighbours, or a section ends there. */
export type Refusal = 'structure' | 'section';
export type EditResult = { caret: Caret } | { refused: Refusal };

/** The {{Column}} tags of the text (the shared reading of a tag): the units the editor inserts and deletes whole. */
export function fieldsOf(text: string): { start: number; end: number }[] {
  return columnTagSpans(text).map(({ start, end }) => ({ start, end }));
}

/** The offset moved out of a field it falls inside (to the nearer end): the cursor never stands in one. */
export function outsideFields(text: string, offset: number): number {
  const field = fieldsOf(text).find(({ start, end }) => offset > start && offset < end);
  if (!field) return offset;
  return offset - field.start < field.end - offset ? field.start : field.end;
}

/** The cursor one step left or right of `offset`: a field, and a character of two UTF-16 units, are one step. */
export function stepOffset(text: string, offset: number, direction: -1 | 1): number {
  const field = fieldsOf(text).find(({ start, end }) => (direction < 0 ? end === offset : start === offset));
  if (field) return direction < 0 ? field.start : field.end;
  const next = offset + direction;
  if (next <= 0 || next >= text.length) return Math.max(0, Math.min(next, text.length));
  const low = text.charCodeAt(direction < 0 ? next : offset);
  return low >= 0xdc00 && low <= 0xdfff ? next + direction : next;
}

/** The paragraph of an id, found by its number in its part (no walk over every part: this runs per keystroke). */
function locate(document: WordDocument, id: string): Located {
  const cut = id.lastIndexOf('#');
  const part = document.parts.find((candidate) => candidate.name === id.slice(0, cut));
  const element = part?.doc.getElementsByTagNameNS(W_NS, 'p').item(Number(id.slice(cut + 1)));
  if (!part || !element) throw new DocxError(`no paragraph ${id}`);
  return { element, part };
}

const textPieces = (paragraph: Element): Segment[] => segments(paragraph).filter((segment) => ancestor(segment.node, 'r'));
const textOf = (paragraph: Element) => segments(paragraph).map((segment) => segment.text).join('');

function setText(t: Element, text: string): void {
  t.textContent = text;
  t.setAttributeNS(XML_NS, 'xml:space', 'preserve');
}

/** Types `text` (no line breaks) at the caret, in the formatting of the text before it. */
export function typeText(document: WordDocument, caret: Caret, text: string): Caret {
  const { element: paragraph, part } = locate(document, caret.paragraphId);
  const pieces = textPieces(paragraph);
  const total = pieces.reduce((sum, piece) => sum + piece.text.length, 0);
  const offset = Math.max(0, Math.min(caret.offset, total));
  const piece = pieces.find((segment) => offset > segment.start && offset <= segment.start + segment.text.length) ?? pieces[0];
  // An empty paragraph: a new run in the paragraph mark's formatting.
  if (!piece) return insertText(document, { paragraphId: caret.paragraphId, offset }, text);
  const inside = offset - piece.start;
  if (piece.node.localName === 't') setText(piece.node, piece.text.slice(0, inside) + text + piece.text.slice(inside));
  else {
    // After (or before) a tab or a line break: a new w:t beside it in the same run.
    const t = part.doc.createElementNS(W_NS, 'w:t');
    setText(t, text);
    piece.node.parentNode!.insertBefore(t, inside > 0 ? piece.node.nextSibling : piece.node);
  }
  document.changed.add(part.name);
  return { paragraphId: caret.paragraphId, offset: offset + text.length };
}

/** A run with nothing left but its properties goes. */
function dropIfEmpty(run: Element | null): void {
  if (!run?.parentNode) return;
  const content = Array.from(run.childNodes).some((node) => node.nodeType === 1 && (node as Element).localName !== 'rPr');
  if (!content) run.parentNode.removeChild(run);
}

/** Deletes the characters [from, to) of one paragraph. */
function deleteWithin(paragraph: Element, from: number, to: number): void {
  for (const piece of textPieces(paragraph)) {
    const end = piece.start + piece.text.length;
    if (piece.start >= to || end <= from) continue;
    const cutFrom = Math.max(from, piece.start) - piece.start;
    const cutTo = Math.min(to, end) - piece.start;
    const run = ancestor(piece.node, 'r');
    if (piece.node.localName === 't' && (cutFrom > 0 || cutTo < piece.text.length)) {
      setText(piece.node, piece.text.slice(0, cutFrom) + piece.text.slice(cutTo));
      continue;
    }
    piece.node.parentNode!.removeChild(piece.node);
    dropIfEmpty(run);
  }
}

const isParagraph = (node: Node) => node.nodeType === 1 && (node as Element).namespaceURI === W_NS && (node as Element).localName === 'p';
const properties = (paragraph: Element) => Array.from(paragraph.childNodes).find((node) => node.nodeType === 1 && (node as Element).localName === 'pPr') as Element | undefined;
const endsSection = (paragraph: Element) => (properties(paragraph)?.getElementsByTagNameNS(W_NS, 'sectPr').length ?? 0) > 0;

/**
 * Joins `first` (cut after `fromOffset`) and `last` (cut before `toOffset`) into `first`, removing
 * the paragraphs between. Only paragraphs side by side in one container (the body, one cell, one
 * text box, one note) are joined, and never across a section's end.
 */
function deleteAcross(first: Element, fromOffset: number, last: Element, toOffset: number): Refusal | null {
  if (first.parentNode !== last.parentNode) return 'structure';
  const between: Element[] = [];
  for (let node = first.nextSibling; node !== last; node = node.nextSibling) {
    if (!node) return 'structure';
    if (node.nodeType !== 1) continue;
    if (!isParagraph(node)) return 'structure';
    between.push(node as Element);
  }
  if ([first, ...between, last].some(endsSection)) return 'section';
  deleteWithin(first, fromOffset, textOf(first).length);
  deleteWithin(last, 0, toOffset);
  for (const paragraph of between) paragraph.parentNode!.removeChild(paragraph);
  const lastProperties = properties(last);
  for (let node = last.firstChild; node; ) {
    const next: ChildNode | null = node.nextSibling;
    if (node !== lastProperties) first.appendChild(node);
    node = next;
  }
  last.parentNode!.removeChild(last);
  return null;
}

/** Orders two carets as the text reads (paragraphs in list order). */
export function ordered(document: WordDocument, a: Caret, b: Caret): [Caret, Caret] {
  const ids = [...paragraphElements(document).keys()];
  const ia = ids.indexOf(a.paragraphId);
  const ib = ids.indexOf(b.paragraphId);
  return ia < ib || (ia === ib && a.offset <= b.offset) ? [a, b] : [b, a];
}

/** Deletes from `a` to `b` (either order); a field cut by either end is deleted whole. */
export function deleteRange(document: WordDocument, a: Caret, b: Caret): EditResult {
  const [from, to] = a.paragraphId === b.paragraphId ? (a.offset <= b.offset ? [a, b] : [b, a]) : ordered(document, a, b);
  const first = locate(document, from.paragraphId);
  const last = locate(document, to.paragraphId);
  const fromOffset = Math.min(...[from.offset, ...fieldsOf(textOf(first.element)).filter(({ start, end }) => from.offset > start && from.offset < end).map(({ start }) => start)]);
  const toOffset = Math.max(...[to.offset, ...fieldsOf(textOf(last.element)).filter(({ start, end }) => to.offset > start && to.offset < end).map(({ end }) => end)]);
  if (first.element === last.element) deleteWithin(first.element, fromOffset, toOffset);
  else {
    const refused = deleteAcross(first.element, fromOffset, last.element, toOffset);
    if (refused) return { refused };
  }
  document.changed.add(first.part.name);
  return { caret: { paragraphId: from.paragraphId, offset: fromOffset } };
}

/** Backspace: the character or field before the caret; at a paragraph's start, joins it to the one before. Null: nothing before. */
export function deleteBackward(document: WordDocument, caret: Caret): EditResult | null {
  if (caret.offset > 0) {
    const text = textOf(locate(document, caret.paragraphId).element);
    return deleteRange(document, { ...caret, offset: stepOffset(text, Math.min(caret.offset, text.length), -1) }, caret);
  }
  const ids = [...paragraphElements(document).keys()];
  const previous = ids[ids.indexOf(caret.paragraphId) - 1];
  if (previous === undefined) return null;
  return deleteRange(document, { paragraphId: previous, offset: textOf(locate(document, previous).element).length }, caret);
}

/** Delete: the character or field after the caret; at a paragraph's end, joins the next one to it. Null: nothing after. */
export function deleteForward(document: WordDocument, caret: Caret): EditResult | null {
  const text = textOf(locate(document, caret.paragraphId).element);
  if (caret.offset < text.length) return deleteRange(document, caret, { ...caret, offset: stepOffset(text, caret.offset, 1) });
  const ids = [...paragraphElements(document).keys()];
  const next = ids[ids.indexOf(caret.paragraphId) + 1];
  if (next === undefined) return null;
  return deleteRange(document, caret, { paragraphId: next, offset: 0 });
}

/** A copy of `element` without children but its properties element (w:rPr of a run...), for the half after a cut. */
function emptyTwin(element: Element): Element {
  const twin = element.cloneNode(false) as Element;
  const own = Array.from(element.childNodes).find((node) => node.nodeType === 1) as Element | undefined;
  if (own && own.localName.endsWith('Pr')) twin.appendChild(own.cloneNode(true));
  return twin;
}

/**
 * Cuts the elements between the paragraph and the point (`parent`, before `ref`; null: at its end)
 * so that the point lies between two children of the paragraph; returns the child after it.
 */
function cutUpTo(paragraph: Element, parent: Node, ref: Node | null): Node | null {
  while (parent !== paragraph) {
    const grand = parent.parentNode!;
    const first = Array.from(parent.childNodes).find((node) => node.nodeType !== 1 || !(node as Element).localName.endsWith('Pr')) ?? null;
    if (ref === null) ref = parent.nextSibling;
    else if (ref === first) ref = parent;
    else {
      const after = emptyTwin(parent as Element);
      for (let node: Node | null = ref; node; ) {
        const next: Node | null = node.nextSibling;
        after.appendChild(node);
        node = next;
      }
      grand.insertBefore(after, parent.nextSibling);
      ref = after;
    }
    parent = grand;
  }
  return ref;
}

/** Enter: the paragraph is split at the caret; both halves keep its properties (the section's end stays with the second). */
export function splitParagraph(document: WordDocument, caret: Caret): Caret {
  const { element: paragraph, part } = locate(document, caret.paragraphId);
  const pieces = textPieces(paragraph);
  const total = pieces.reduce((sum, piece) => sum + piece.text.length, 0);
  const offset = outsideFields(textOf(paragraph), Math.max(0, Math.min(caret.offset, total)));
  let point: { parent: Node; ref: Node | null };
  const piece = pieces.find((segment) => offset >= segment.start && offset < segment.start + segment.text.length);
  if (piece && offset > piece.start) {
    // Inside a w:t: it is cut in two, the point lying before the second half.
    const second = piece.node.cloneNode(false) as Element;
    setText(second, piece.text.slice(offset - piece.start));
    setText(piece.node, piece.text.slice(0, offset - piece.start));
    piece.node.parentNode!.insertBefore(second, piece.node.nextSibling);
    point = { parent: piece.node.parentNode!, ref: second };
  } else if (piece) point = { parent: piece.node.parentNode!, ref: piece.node };
  else {
    const last = pieces.at(-1);
    point = last ? { parent: last.node.parentNode!, ref: last.node.nextSibling } : { parent: paragraph, ref: null };
  }
  const ref = cutUpTo(paragraph, point.parent, point.ref);
  const before = part.doc.createElementNS(W_NS, 'w:p');
  const ownProperties = properties(paragraph);
  if (ownProperties) {
    const copy = ownProperties.cloneNode(true) as Element;
    for (const sectPr of Array.from(copy.getElementsByTagNameNS(W_NS, 'sectPr'))) copy.removeChild(sectPr);
    before.appendChild(copy);
  }
  for (let node = paragraph.firstChild; node && node !== ref; ) {
    const next: ChildNode | null = node.nextSibling;
    if (node !== ownProperties) before.appendChild(node);
    node = next;
  }
  paragraph.parentNode!.insertBefore(before, paragraph);
  document.changed.add(part.name);
  return { paragraphId: paragraphId(part, paragraph), offset: 0 };
}
