/**
 * {{Column}} tags in paragraph texts (docs/word-templates.md), found with the shared tag rule
 * (columnTagSpans) over the paragraph's text as a reader sees it, so a tag Word split over several
 * runs (after an edit, a spell check, a bookmark) counts. A tag's characters are cut out of the w:t
 * elements they were written in and its value goes where the tag began: the first run's formatting
 * covers the whole value. Section tags ({{#if}}, {{#else}}, {{/if}}, {{#each}}) and picture tags
 * ({{%image …}}, {{%qr …}}, image-tags.ts) become marks.
 */
import { SheafError, columnTagSpans } from '@sheaf/shared';
import { pictureTagOf, type PictureTag } from './image-tags.ts';
import type { Mark, Paragraph, PartEdits, Piece } from './structure.ts';
import { escapeXml } from './xml.ts';

type Directive =
  | { kind: 'value'; column: string }
  | { kind: 'picture'; picture: PictureTag }
  | { kind: 'if'; column: string }
  | { kind: 'else' }
  | { kind: 'endif' }
  | { kind: 'each' }
  | { kind: 'endeach' };

interface TagUse {
  paragraph: Paragraph;
  start: number;
  end: number;
  /** The tag as written, for messages. */
  written: string;
  directive: Directive;
  /** Whether the tag's text is alone in its paragraph (spaces aside). */
  alone: boolean;
  /** Where the tag begins: the w:t token and the element path to it. */
  token: number;
  path: string;
  /** The mark the tag leaves in the text, if any (block sections are marked on paragraphs instead). */
  mark?: Mark;
}

/** Reads one tag's name: a column, or a section keyword. */
function directiveOf(name: string): Directive {
  const ifMatch = /^#if\s+(.+)$/s.exec(name);
  if (ifMatch) return { kind: 'if', column: ifMatch[1]!.trim() };
  if (/^#else$/i.test(name)) return { kind: 'else' };
  if (/^\/if$/i.test(name)) return { kind: 'endif' };
  if (/^#each(\s.*)?$/s.test(name)) return { kind: 'each' };
  if (/^\/each$/i.test(name)) return { kind: 'endeach' };
  const picture = pictureTagOf(name);
  if (picture) return { kind: 'picture', picture };
  return { kind: 'value', column: name };
}

/** Finds the tags of every paragraph, pairs the sections and records the edits. */
export function markTags(edits: PartEdits): void {
  const uses: TagUse[] = [];
  for (const paragraph of edits.paragraphs) {
    const texts = paragraph.texts.filter((entry) => !edits.deleted[entry.token]);
    if (texts.length === 0) continue;
    const whole = texts.map((entry) => entry.text).join('');
    if (!whole.includes('{')) continue;
    const spans = columnTagSpans(whole);
    let rest = whole;
    for (const span of spans) rest = rest.slice(0, span.start) + ' '.repeat(span.end - span.start) + rest.slice(span.end);
    const unclosed = rest.indexOf('{{');
    if (unclosed >= 0) throw new SheafError('template/word-unclosed-tag', { text: whole.slice(unclosed, unclosed + 40) });
    let offset = 0;
    const startOf = texts.map((entry) => {
      const start = offset;
      offset += entry.text.length;
      return start;
    });
    for (const span of spans) {
      const at = startOf.findLastIndex((start) => start <= span.start);
      const written = whole.slice(span.start, span.end);
      uses.push({
        paragraph,
        start: span.start,
        end: span.end,
        written,
        directive: directiveOf(span.column),
        alone: whole.trim() === written,
        token: texts[at]!.token,
        path: texts[at]!.path,
      });
    }
  }
  uses.sort((a, b) => a.token - b.token || a.start - b.start);
  pairSections(edits, uses);
  cutTags(edits, uses);
}

function pairSections(edits: PartEdits, uses: TagUse[]): void {
  const open: { use: TagUse; otherwise?: TagUse }[] = [];
  const repeatedRows = new Set<number>();
  for (const use of uses) {
    const { directive } = use;
    if (directive.kind === 'value') use.mark = { kind: 'value', column: directive.column, tag: use.written };
    else if (directive.kind === 'picture') use.mark = { kind: 'picture', picture: directive.picture, tag: use.written };
    else if (directive.kind === 'if') open.push({ use });
    else if (directive.kind === 'else') {
      const section = open.at(-1);
      if (!section || section.otherwise) throw new SheafError('template/word-section-unmatched', { tag: use.written, expected: '{{#if …}}' });
      section.otherwise = use;
    } else if (directive.kind === 'endif') {
      const section = open.pop();
      if (!section) throw new SheafError('template/word-section-unmatched', { tag: use.written, expected: '{{#if …}}' });
      markSection(edits, section.use, section.otherwise, use);
    } else if (directive.kind === 'each') {
      const row = use.paragraph.row;
      if (!row) throw new SheafError('template/word-each-outside-table');
      if (!repeatedRows.has(row.open)) {
        repeatedRows.add(row.open);
        addMark(edits.before, row.open, { kind: 'open-each' });
        addMark(edits.after, row.close, { kind: 'close' }, true);
        dropBookmarks(edits, row.open, row.close);
      }
    }
  }
  const unclosed = open.at(-1);
  if (unclosed) throw new SheafError('template/word-section-unmatched', { tag: unclosed.use.written, expected: '{{/if}}' });
}

/**
 * A section inside one paragraph is cut at the tags (the elements between them must sit at the same
 * depth, so what is dropped is whole); a section over paragraphs needs each tag alone in a paragraph
 * of one parent, and those paragraphs go.
 */
function markSection(edits: PartEdits, start: TagUse, otherwise: TagUse | undefined, end: TagUse): void {
  const column = (start.directive as { column: string }).column;
  const tags = otherwise ? [start, otherwise, end] : [start, end];
  if (tags.every((tag) => tag.paragraph === start.paragraph)) {
    if (tags.some((tag) => tag.path !== start.path)) throw new SheafError('template/word-section-misplaced', { tag: start.written });
    start.mark = { kind: 'open-if', column, tag: start.written };
    if (otherwise) otherwise.mark = { kind: 'else' };
    end.mark = { kind: 'close' };
    return;
  }
  if (tags.some((tag) => !tag.alone || tag.paragraph.parentId !== start.paragraph.parentId)) {
    throw new SheafError('template/word-section-misplaced', { tag: start.written });
  }
  addMark(edits.before, start.paragraph.open, { kind: 'open-if', column, tag: start.written });
  if (otherwise) addMark(edits.before, otherwise.paragraph.open, { kind: 'else' });
  // A cell, header, footer, footnote or text box must keep a paragraph: there the end tag's paragraph
  // stays, emptied, after the section; in the body it goes like the others.
  const keepEnd = start.paragraph.parentName !== 'w:body';
  if (keepEnd) addMark(edits.before, end.paragraph.open, { kind: 'close' }, true);
  else addMark(edits.after, end.paragraph.close, { kind: 'close' }, true);
  for (const tag of tags) if (tag !== end || !keepEnd) edits.deleted.fill(1, tag.paragraph.open, tag.paragraph.close + 1);
}

/** Copies of a row would repeat its bookmarks' ids and names, which must be unique: they go. */
function dropBookmarks(edits: PartEdits, from: number, to: number): void {
  for (let index = from; index <= to; index++) {
    const { name, kind } = edits.tokens[index]!;
    if ((name === 'w:bookmarkStart' || name === 'w:bookmarkEnd') && kind === 'empty') edits.deleted[index] = 1;
  }
}

function addMark(marks: Map<number, Mark[]>, token: number, mark: Mark, first = false): void {
  const list = marks.get(token);
  if (!list) marks.set(token, [mark]);
  // Closing marks after one token close the innermost section first: later sections end first.
  else if (first) list.unshift(mark);
  else list.push(mark);
}

/** Cuts each tag out of the w:t texts it spans; its mark goes where it began. */
function cutTags(edits: PartEdits, uses: TagUse[]): void {
  const byParagraph = new Map<Paragraph, TagUse[]>();
  for (const use of uses) {
    const list = byParagraph.get(use.paragraph);
    if (list) list.push(use);
    else byParagraph.set(use.paragraph, [use]);
  }
  for (const [paragraph, tags] of byParagraph) {
    if (edits.deleted[paragraph.open]) continue;
    tags.sort((a, b) => a.start - b.start);
    let offset = 0;
    for (const entry of paragraph.texts) {
      if (edits.deleted[entry.token]) continue;
      const from = offset;
      const to = offset + entry.text.length;
      offset = to;
      if (!tags.some((tag) => tag.start < to && tag.end > from)) continue;
      const pieces: Piece[] = [];
      let cursor = from;
      for (const tag of tags) {
        if (tag.end <= from || tag.start >= to) continue;
        if (tag.start > cursor) pieces.push(escapeXml(entry.text.slice(cursor - from, tag.start - from)));
        if (tag.start >= from && tag.mark) pieces.push(tag.mark);
        cursor = Math.min(Math.max(cursor, tag.end), to);
      }
      if (cursor < to) pieces.push(escapeXml(entry.text.slice(cursor - from)));
      edits.replaced.set(entry.token, pieces);
      preserveSpaces(edits, entry.token);
    }
  }
}

/** The w:t holding a value keeps its spaces: "Dear {{Name}}," must not lose the space before the value. */
function preserveSpaces(edits: PartEdits, textToken: number): void {
  for (let at = textToken - 1; at >= 0; at--) {
    const token = edits.tokens[at]!;
    if (token.kind === 'open' && token.name === 'w:t') {
      if (!/xml:space\s*=\s*["']preserve["']/.test(token.raw)) edits.replaced.set(at, ['<w:t xml:space="preserve">']);
      return;
    }
  }
}
