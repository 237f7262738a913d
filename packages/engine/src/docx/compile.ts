/**
 * A part as segments, computed once per merge: literal XML strings between holes (values,
 * conditional sections, repeated rows). Filling a row joins the strings and the rows' values; the
 * XML is never parsed again.
 */
import { SheafError } from '@sheaf/shared';
import { cellText } from '../format/cellText.ts';
import { formatDate } from '../format/formatDate.ts';
import { formatNumber, readNumber } from '../format/formatNumber.ts';
import type { SheetData } from '../sheet/types.ts';
import type { PictureKind } from './image-tags.ts';
import { finishMergeValue, type MergeFieldSpec } from './mergefield.ts';
import type { Mark, PartEdits, Piece } from './structure.ts';
import { runText } from './xml.ts';

export type Segment = string | Hole;

export type Hole =
  | { kind: 'value'; render: (sheet: SheetData, row: number) => string }
  | { kind: 'picture'; picture: PictureKind; column: number; width?: number }
  | { kind: 'if'; column: number; then: Segment[]; otherwise: Segment[] }
  | { kind: 'each'; body: Segment[] };

/** A field the document uses: how it was written and the column it names. */
export interface DocxField {
  kind: 'tag' | 'mergefield' | 'if' | PictureKind;
  column: string;
  /** As written: "{{Name}}", "MERGEFIELD Date \@ "dd.MM.yyyy"", "{{#if Name}}", "{{%image Photo}}". */
  text: string;
}

/** Heading -> column index; throws (or records) when the column is not a heading. */
export type ColumnResolver = (field: DocxField) => number;

interface Frame {
  list: Segment[];
  hole?: Extract<Hole, { kind: 'if' }>;
}

export function compileEdits(edits: PartEdits, resolve: ColumnResolver): Segment[] {
  const root: Segment[] = [];
  const stack: Frame[] = [{ list: root }];
  const push = (piece: string) => {
    const list = stack.at(-1)!.list;
    if (typeof list.at(-1) === 'string') list[list.length - 1] += piece;
    else list.push(piece);
  };
  const apply = (mark: Mark) => {
    const frame = stack.at(-1)!;
    switch (mark.kind) {
      case 'value':
        frame.list.push({ kind: 'value', render: renderer(mark, resolve) });
        return;
      case 'picture': {
        const { picture, column, width } = mark.picture;
        frame.list.push({ kind: 'picture', picture, column: resolve({ kind: picture, column, text: mark.tag }), width });
        return;
      }
      case 'open-if': {
        const hole: Hole = { kind: 'if', column: resolve({ kind: 'if', column: mark.column, text: mark.tag }), then: [], otherwise: [] };
        frame.list.push(hole);
        stack.push({ list: hole.then, hole });
        return;
      }
      case 'else':
        frame.list = frame.hole!.otherwise;
        return;
      case 'open-each': {
        const hole: Hole = { kind: 'each', body: [] };
        frame.list.push(hole);
        stack.push({ list: hole.body });
        return;
      }
      case 'close':
        stack.pop();
        return;
    }
  };
  const emit = (pieces: readonly Piece[]) => {
    for (const piece of pieces) {
      if (typeof piece === 'string') push(piece);
      else apply(piece);
    }
  };
  const { tokens, deleted, replaced, before, after } = edits;
  for (let index = 0; index < tokens.length; index++) {
    const marks = before.get(index);
    if (marks) emit(marks);
    const pieces = replaced.get(index);
    if (pieces) emit(pieces);
    else if (!deleted[index]) push(tokens[index]!.raw);
    const closing = after.get(index);
    if (closing) emit(closing);
  }
  if (stack.length !== 1) throw new SheafError('template/word-section-misplaced', { tag: '{{#if}}' });
  return root;
}

function renderer(mark: Extract<Mark, { kind: 'value' }>, resolve: ColumnResolver): (sheet: SheetData, row: number) => string {
  const { spec } = mark;
  const column = resolve({ kind: spec ? 'mergefield' : 'tag', column: mark.column, text: mark.tag });
  if (!spec) return (sheet, row) => sheet.text(row, column);
  return (sheet, row) => finishMergeValue(spec, mergeValue(spec, sheet, row, column));
}

function mergeValue(spec: MergeFieldSpec, sheet: SheetData, row: number, column: number): string {
  if (spec.date) return formatDate(sheet.value(row, column), spec.date);
  if (spec.number) {
    const value = sheet.value(row, column);
    const { format, prefix, suffix } = spec.number;
    // Text that is no number is printed as it is, without the picture's currency sign or unit (the data
    // check flags it with the same readNumber: check/word-formats.ts).
    return readNumber(value, format) !== undefined ? prefix + formatNumber(value, format) + suffix : cellText(value);
  }
  return sheet.text(row, column);
}

/** Writes a picture hole's drawing for one part of one document (images.ts). */
export interface PictureWriter {
  /** `rowNumber`: the Excel row of `cell`, for messages. */
  drawing(hole: Extract<Hole, { kind: 'picture' }>, cell: string, rowNumber: number): string;
}

/**
 * Appends a part's XML for one document: `rows` are the group's rows, the first one fills everything
 * outside repeated rows. `pictures` writes the part's picture tags (required when it has any).
 */
export function fillSegments(segments: readonly Segment[], sheet: SheetData, row: number, rows: readonly number[], out: string[], pictures?: PictureWriter): void {
  for (const segment of segments) {
    if (typeof segment === 'string') out.push(segment);
    else if (segment.kind === 'value') out.push(runText(segment.render(sheet, row)));
    else if (segment.kind === 'picture') {
      if (!pictures) throw new Error('a part with picture tags was filled without a picture writer');
      out.push(pictures.drawing(segment, sheet.text(row, segment.column), sheet.rowNumber(row)));
    } else if (segment.kind === 'if') fillSegments(sheet.text(row, segment.column).trim() !== '' ? segment.then : segment.otherwise, sheet, row, rows, out, pictures);
    else for (const each of rows) fillSegments(segment.body, sheet, each, rows, out, pictures);
  }
}

/** Whether any part's segments hold a picture tag. */
export function hasPictures(segments: readonly Segment[]): boolean {
  return segments.some((segment) => typeof segment !== 'string' && (segment.kind === 'picture' || (segment.kind === 'if' && (hasPictures(segment.then) || hasPictures(segment.otherwise))) || (segment.kind === 'each' && hasPictures(segment.body))));
}

export function hasHoles(segments: readonly Segment[]): boolean {
  return segments.some((segment) => typeof segment !== 'string');
}
