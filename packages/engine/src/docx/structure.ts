/**
 * One pass over a part's tokens: paragraphs (with the text of their w:t elements, text boxes'
 * paragraphs being paragraphs of their own), table rows, runs, and Word fields. MERGEFIELD fields,
 * simple (w:fldSimple) or complex (w:fldChar begin/instrText/separate/result/end, the instruction
 * possibly split over runs), are replaced here by one run holding the value, in the formatting of the
 * field's result ("«Name»"), else of its first run. Tags are found later, in the paragraph texts.
 */
import type { PictureTag } from './image-tags.ts';
import { parseMergeField, type MergeFieldSpec } from './mergefield.ts';
import { attribute, decodeXml, notDocx, type Token } from './xml.ts';

/** What the compiler puts between tokens: values, pictures, and the bounds of conditional and repeated sections. */
export type Mark =
  | { kind: 'value'; column: string; spec?: MergeFieldSpec; tag: string }
  | { kind: 'picture'; picture: PictureTag; tag: string }
  | { kind: 'open-if'; column: string; tag: string }
  | { kind: 'else' }
  | { kind: 'close' }
  | { kind: 'open-each' };

export type Piece = string | Mark;

/** A w:t text of a paragraph: its token and decoded text. */
export interface ParagraphText {
  token: number;
  text: string;
  /** Element names from the paragraph down to the w:t ("w:r/w:t", "w:hyperlink/w:r/w:t"). */
  path: string;
}

export interface Paragraph {
  open: number;
  close: number;
  /** Id and name of the element holding the paragraph (body, cell, text box, header...). */
  parentId: number;
  parentName: string;
  /** The innermost table row holding the paragraph, if any. */
  row?: TableRow;
  texts: ParagraphText[];
}

export interface TableRow {
  open: number;
  close: number;
}

/** The token list and the edits made to it; compile.ts turns them into segments. */
export interface PartEdits {
  tokens: Token[];
  deleted: Uint8Array;
  /** Replaces a token's output (even a deleted one). */
  replaced: Map<number, Piece[]>;
  before: Map<number, Mark[]>;
  after: Map<number, Mark[]>;
  paragraphs: Paragraph[];
  partName: string;
}

interface Run {
  open: number;
  close: number;
  /** Id of the element holding the run: a field is replaced only between runs of one parent. */
  parentId: number;
  rPr?: string;
  /** Holds a w:t: the field's result text, whose formatting the value takes. */
  hasText?: boolean;
}

interface ComplexField {
  beginRun?: Run;
  paragraph?: Paragraph;
  instruction: string;
  separated: boolean;
  rPr?: string;
}

interface SimpleField {
  open: number;
  instruction: string;
  rPr?: string;
}

export function analysePart(tokens: Token[], partName: string, locale: string): PartEdits {
  const edits: PartEdits = {
    tokens,
    deleted: new Uint8Array(tokens.length),
    replaced: new Map(),
    before: new Map(),
    after: new Map(),
    paragraphs: [],
    partName,
  };
  const elements: { name: string; id: number }[] = [];
  const openParagraphs: Paragraph[] = [];
  const openRows: TableRow[] = [];
  const openRuns: Run[] = [];
  const fields: ComplexField[] = [];
  const simpleFields: SimpleField[] = [];
  // Ends of complex fields wait for the close of the run holding their "end" character.
  const pendingEnds = new Map<Run, { from: number; spec: MergeFieldSpec; rPr?: string; instruction: string }>();
  let nextId = 1;
  let rPrStart = -1;

  const replaceRuns = (from: number, to: number, spec: MergeFieldSpec, rPr: string | undefined, instruction: string) => {
    edits.deleted.fill(1, from, to + 1);
    edits.replaced.set(from, fieldRun(spec, rPr ?? '', instruction));
  };

  // A field character, written <w:fldChar .../> or <w:fldChar ...></w:fldChar> (LibreOffice).
  const fieldCharacter = (index: number) => {
    const type = attribute(tokens[index]!.raw, 'w:fldCharType', partName);
    const run = openRuns.at(-1);
    if (type === 'begin') fields.push({ beginRun: run, paragraph: openParagraphs.at(-1), instruction: '', separated: false, rPr: undefined });
    else if (type === 'separate' && fields.length > 0) fields.at(-1)!.separated = true;
    else if (type === 'end') {
      const field = fields.pop();
      const spec = field && parseMergeField(field.instruction, locale);
      // Only a field that begins and ends in one paragraph is replaced; others stay as Word wrote them.
      if (spec && field.beginRun && run && field.paragraph === openParagraphs.at(-1) && field.beginRun.parentId === run.parentId) {
        pendingEnds.set(run, { from: field.beginRun.open, spec, rPr: field.rPr ?? field.beginRun.rPr, instruction: field.instruction });
      }
    }
  };

  for (let index = 0; index < tokens.length; index++) {
    const token = tokens[index]!;
    const { name } = token;
    if (token.kind === 'open') {
      const id = nextId++;
      if (name === 'w:p') {
        const paragraph: Paragraph = { open: index, close: -1, parentId: elements.at(-1)?.id ?? 0, parentName: elements.at(-1)?.name ?? '', row: openRows.at(-1), texts: [] };
        openParagraphs.push(paragraph);
        edits.paragraphs.push(paragraph);
      } else if (name === 'w:tr') openRows.push({ open: index, close: -1 });
      else if (name === 'w:r') {
        const run: Run = { open: index, close: -1, parentId: elements.at(-1)?.id ?? 0 };
        openRuns.push(run);
      } else if (name === 'w:rPr' && elements.at(-1)?.name === 'w:r') rPrStart = index;
      else if (name === 'w:fldSimple') simpleFields.push({ open: index, instruction: attribute(token.raw, 'w:instr', partName) ?? '' });
      else if (name === 'w:fldChar') fieldCharacter(index);
      elements.push({ name, id });
      continue;
    }
    if (token.kind === 'close') {
      const top = elements.pop();
      if (!top || top.name !== name) throw notDocx(`${partName}: </${name}> closes <${top?.name ?? 'nothing'}>`);
      if (name === 'w:p') openParagraphs.pop()!.close = index;
      else if (name === 'w:tr') openRows.pop()!.close = index;
      else if (name === 'w:rPr' && rPrStart >= 0) {
        openRuns.at(-1)!.rPr = tokens.slice(rPrStart, index + 1).map((item) => item.raw).join('');
        rPrStart = -1;
      } else if (name === 'w:r') {
        const run = openRuns.pop()!;
        run.close = index;
        const field = fields.at(-1);
        if (field?.separated && field.rPr === undefined && run.hasText) field.rPr = run.rPr ?? '';
        const simple = simpleFields.at(-1);
        if (simple && simple.rPr === undefined) simple.rPr = run.rPr ?? '';
        const ending = pendingEnds.get(run);
        if (ending) replaceRuns(ending.from, index, ending.spec, ending.rPr, ending.instruction);
      } else if (name === 'w:fldSimple') {
        const simple = simpleFields.pop()!;
        const spec = parseMergeField(simple.instruction, locale);
        if (spec) replaceRuns(simple.open, index, spec, simple.rPr, simple.instruction);
      }
      continue;
    }
    if (token.kind === 'empty') {
      if (name === 'w:fldSimple') {
        const instruction = attribute(token.raw, 'w:instr', partName) ?? '';
        const spec = parseMergeField(instruction, locale);
        if (spec) replaceRuns(index, index, spec, '', instruction);
      } else if (name === 'w:fldChar') fieldCharacter(index);
      continue;
    }
    if (token.kind === 'text') {
      const parent = elements.at(-1)?.name;
      if (parent === 'w:t') {
        const run = openRuns.at(-1);
        if (run) run.hasText = true;
        const paragraph = openParagraphs.at(-1);
        if (paragraph) {
          const path: string[] = [];
          for (let at = elements.length - 1; at >= 0 && elements[at]!.name !== 'w:p'; at--) path.unshift(elements[at]!.name);
          paragraph.texts.push({ token: index, text: decodeXml(token.raw, partName), path: path.join('/') });
        }
      } else if (parent === 'w:instrText' && fields.length > 0 && !fields.at(-1)!.separated) {
        fields.at(-1)!.instruction += decodeXml(token.raw, partName);
      }
    }
  }
  if (elements.length > 0) throw notDocx(`${partName}: <${elements.at(-1)!.name}> is never closed`);
  return edits;
}

/** The run that stands for a MERGEFIELD: its formatting, then the value in one w:t. */
function fieldRun(spec: MergeFieldSpec, rPr: string, instruction: string): Piece[] {
  return [`<w:r>${rPr}<w:t xml:space="preserve">`, { kind: 'value', column: spec.column, spec, tag: `MERGEFIELD ${instruction.trim().slice(11).trim()}` }, '</w:t></w:r>'];
}
