/**
 * The hot path: scans a worksheet's XML bytes as they inflate, cell by cell, straight into the
 * CellTableBuilder. No DOM, no per-cell regular expressions or objects: numbers are parsed from the
 * bytes, only string values are decoded. Formulas (<f>) are skipped; their cached value (<v>) is kept.
 */
import type { CellTableBuilder } from '../cells/cell-table.ts';
import { CellKind } from '../cells/cell-table.ts';
import { type CellFormat, dateToSerial, isDateSerial } from '../cells/formats.ts';
import type { StringTable } from '../cells/string-table.ts';
import { MAX_ROW_NUMBER, corrupt } from '../limits.ts';
import type { ChunkScanner } from './chunk-feeder.ts';
import { RichTextReader } from './rich-text.ts';
import {
  APOSTROPHE,
  BANG,
  EQUALS,
  GT,
  INCOMPLETE,
  LT,
  QUESTION,
  QUOTE,
  SLASH,
  TextRange,
  indexOfByte,
  findAttribute,
  isName,
  isSpace,
  localStart,
  nameEnd,
  parseIndex,
  parseNumber,
  rangeText,
  readTextContent,
  skipSpecial,
  tagEnd,
} from './xml-bytes.ts';

/** Cell types (the t attribute): n (default), s, b, d, and text for str (formula result), inlineStr and e (error). */
const NUMBER = 0;
const SHARED = 1;
const BOOLEAN = 2;
const ISO_DATE = 3;
const TEXT = 4;

const C = 0x63;
const R = 0x72;
const S = 0x73;
const T = 0x74;
const V = 0x76;

export class SheetScanner implements ChunkScanner {
  done = false;
  private rowNumber = 0;
  private inRow = false;
  private column = -1;
  private readonly range = new TextRange();
  private readonly rich = new RichTextReader();
  private readonly sharedCount: number;
  /** 1 where the number format is a date format. */
  private readonly dateFormats: Uint8Array;

  /** `strings` starts as the shared string table; inline strings are appended to it. */
  constructor(
    private readonly builder: CellTableBuilder,
    private readonly strings: StringTable,
    formats: readonly CellFormat[],
    private readonly styleFormats: Uint16Array,
    private readonly date1904: boolean,
  ) {
    this.sharedCount = strings.count;
    this.dateFormats = Uint8Array.from(formats, (format) => (format.kind === 'date' ? 1 : 0));
  }

  scan(buf: Uint8Array): number {
    let at = 0;
    for (;;) {
      const lt = indexOfByte(buf, LT, at);
      if (lt < 0) return buf.length;
      if (lt + 1 >= buf.length) return lt;
      const kind = buf[lt + 1];
      if (kind === C) {
        if (lt + 2 >= buf.length) return lt;
        const after = buf[lt + 2]!;
        if (isSpace(after) || after === GT || after === SLASH) {
          const next = this.readCell(buf, lt + 2);
          if (next < 0) return lt;
          at = next;
          continue;
        }
      }
      if (kind === SLASH) {
        const gt = indexOfByte(buf, GT, lt);
        if (gt < 0) return lt;
        const end = nameEnd(buf, lt + 2);
        const local = localStart(buf, lt + 2, end);
        if (isName(buf, local, end, 'row')) {
          this.endRow();
        } else if (isName(buf, local, end, 'sheetData') || isName(buf, local, end, 'worksheet')) {
          this.finish();
          return buf.length;
        }
        at = gt + 1;
        continue;
      }
      if (kind === BANG || kind === QUESTION) {
        const next = skipSpecial(buf, lt);
        if (next < 0) return lt;
        at = next;
        continue;
      }
      const end = nameEnd(buf, lt + 1);
      if (end >= buf.length) return lt;
      const local = localStart(buf, lt + 1, end);
      if (end - local === 1 && buf[local] === C) {
        const next = this.readCell(buf, end);
        if (next < 0) return lt;
        at = next;
        continue;
      }
      const gt = tagEnd(buf, end);
      if (gt < 0) return lt;
      const selfClosing = buf[gt - 1] === SLASH;
      if (isName(buf, local, end, 'row')) {
        this.startRow(buf, end, gt);
        if (selfClosing) this.endRow();
      } else if (selfClosing && isName(buf, local, end, 'sheetData')) {
        this.finish();
        return buf.length;
      }
      at = gt + 1;
    }
  }

  private finish(): void {
    this.endRow();
    this.done = true;
  }

  private startRow(buf: Uint8Array, from: number, gt: number): void {
    this.endRow();
    const number = findAttribute(buf, from, gt, 'r', this.range) ? parseIndex(buf, this.range.start, this.range.end) : -1;
    this.beginRow(number > 0 ? number : this.rowNumber + 1);
  }

  private beginRow(number: number): void {
    if (number > MAX_ROW_NUMBER) throw corrupt(`row ${number} is beyond Excel's last row`);
    this.rowNumber = number;
    this.column = -1;
    this.inRow = true;
    this.builder.startRow(number);
  }

  private endRow(): void {
    if (!this.inRow) return;
    this.inRow = false;
    this.builder.endRow();
  }

  /** Reads one <c> element from just after its name; returns the index after it or INCOMPLETE. */
  private readCell(buf: Uint8Array, at: number): number {
    const length = buf.length;
    let column = -1;
    let style = 0;
    let type = NUMBER;
    for (;;) {
      while (at < length && buf[at]! <= 0x20) at++; // whitespace
      if (at + 1 >= length) return INCOMPLETE;
      const byte = buf[at];
      if (byte === GT) {
        at++;
        break;
      }
      if (byte === SLASH) {
        // <c r="B2" s="1"/>: a styled cell without value still takes its column
        this.placeCell(column);
        return at + 2;
      }
      const nameStart = at;
      while (at < length && buf[at] !== EQUALS && buf[at]! > 0x20) at++;
      const single = at - nameStart === 1 ? buf[nameStart] : localAttributeLetter(buf, nameStart, at);
      while (at < length && buf[at] !== QUOTE && buf[at] !== APOSTROPHE) at++;
      if (at >= length) return INCOMPLETE;
      const quote = buf[at];
      const valueStart = ++at;
      while (at < length && buf[at] !== quote) at++;
      if (at >= length) return INCOMPLETE;
      if (single === R) column = parseColumn(buf, valueStart, at);
      else if (single === S) style = Math.max(0, parseIndex(buf, valueStart, at));
      else if (single === T) type = cellType(buf, valueStart, at);
      at++;
    }
    const range = this.range;
    // The usual shape, <v>value</v></c>, read directly; anything else through the general loop.
    if (buf[at] === LT && buf[at + 1] === V && buf[at + 2] === GT) {
      const valueEnd = indexOfByte(buf, LT, at + 3);
      if (valueEnd < 0 || valueEnd + 8 > length) return INCOMPLETE;
      if (
        buf[valueEnd + 1] === SLASH &&
        buf[valueEnd + 2] === V &&
        buf[valueEnd + 3] === GT &&
        buf[valueEnd + 4] === LT &&
        buf[valueEnd + 5] === SLASH &&
        buf[valueEnd + 6] === C &&
        buf[valueEnd + 7] === GT
      ) {
        range.start = at + 3;
        range.end = valueEnd;
        range.raw = false;
        this.placeCell(column);
        this.addValue(buf, type, style, true, null);
        return valueEnd + 8;
      }
    }
    return this.readCellContent(buf, at, column, type, style);
  }

  /** The general case of a cell's content: formulas, inline strings, CDATA, comments, extensions. */
  private readCellContent(buf: Uint8Array, at: number, column: number, type: number, style: number): number {
    const length = buf.length;
    let hasValue = false;
    let inline: string | null = null;
    for (;;) {
      const lt = indexOfByte(buf, LT, at);
      if (lt < 0 || lt + 1 >= length) return INCOMPLETE;
      const kind = buf[lt + 1];
      if (kind === SLASH) {
        const gt = indexOfByte(buf, GT, lt);
        if (gt < 0) return INCOMPLETE;
        at = gt + 1;
        const end = nameEnd(buf, lt + 2);
        if (end - localStart(buf, lt + 2, end) === 1 && buf[end - 1] === C) break;
        continue;
      }
      if (kind === BANG || kind === QUESTION) {
        at = skipSpecial(buf, lt);
        if (at < 0) return INCOMPLETE;
        continue;
      }
      const end = nameEnd(buf, lt + 1);
      const local = localStart(buf, lt + 1, end);
      const gt = tagEnd(buf, end);
      if (gt < 0) return INCOMPLETE;
      at = gt + 1;
      if (buf[gt - 1] === SLASH) continue;
      if (end - local === 1 && buf[local] === V) {
        at = readTextContent(buf, at, this.range);
        if (at < 0) return INCOMPLETE;
        hasValue = true;
      } else if (isName(buf, local, end, 'is')) {
        at = this.rich.read(buf, at, 'is');
        if (at < 0) return INCOMPLETE;
        inline = this.rich.text;
      }
    }
    this.placeCell(column);
    if (hasValue || inline !== null) this.addValue(buf, type, style, hasValue, inline);
    return at;
  }

  /** The cell's column: its reference's, or the one after the previous cell's. */
  private placeCell(column: number): void {
    if (!this.inRow) this.beginRow(this.rowNumber + 1); // a cell outside any <row>: malformed but harmless
    this.column = column >= 0 ? column : this.column + 1;
  }

  private addValue(buf: Uint8Array, type: number, style: number, hasValue: boolean, inline: string | null): void {
    const { builder, range, column } = this;
    if (type === NUMBER && hasValue) {
      const value = range.raw ? Number(rangeText(buf, range)) : parseNumber(buf, range.start, range.end);
      if (Number.isNaN(value)) return this.addString(rangeText(buf, range));
      const format = this.formatOf(style);
      const isDate = this.dateFormats[format] === 1 && isDateSerial(value);
      builder.addCell(column, isDate ? CellKind.Date : CellKind.Number, format, value);
    } else if (type === SHARED && hasValue) {
      const index = parseIndex(buf, range.start, range.end);
      if (index < 0 || index >= this.sharedCount) throw corrupt(`a cell refers to shared string ${rangeText(buf, range)}, which does not exist`);
      if (!this.strings.isEmpty(index)) builder.addCell(column, CellKind.String, 0, index);
    } else if (type === BOOLEAN && hasValue) {
      const text = rangeText(buf, range).trim();
      if (text === '1' || text === 'true') builder.addCell(column, CellKind.Boolean, 0, 1);
      else if (text === '0' || text === 'false') builder.addCell(column, CellKind.Boolean, 0, 0);
      else this.addString(text);
    } else if (type === ISO_DATE && hasValue) {
      this.addIsoDate(rangeText(buf, range), style);
    } else {
      this.addString(inline ?? rangeText(buf, range));
    }
  }

  private addString(text: string): void {
    if (text !== '') this.builder.addCell(this.column, CellKind.String, 0, this.strings.addString(text));
  }

  /** t="d" (ISO 8601, strict OOXML): a time without zone is wall-clock time, like every Excel date. */
  private addIsoDate(text: string, style: number): void {
    const iso = text.trim();
    const zoned = /(?:Z|[+-]\d\d:?\d\d)$/i.test(iso) || !iso.includes('T') ? iso : `${iso}Z`;
    const time = Date.parse(zoned);
    if (Number.isNaN(time)) return this.addString(text);
    const serial = dateToSerial(new Date(time), this.date1904);
    this.builder.addCell(this.column, isDateSerial(serial) ? CellKind.Date : CellKind.Number, this.formatOf(style), serial);
  }

  /** The format index of cell style `style` (General for a style the workbook does not define). */
  private formatOf(style: number): number {
    return style < this.styleFormats.length ? this.styleFormats[style]! : 0;
  }
}

/** The attribute name's letter when its local name is one letter (x:r), else 0. */
function localAttributeLetter(buf: Uint8Array, start: number, end: number): number {
  const local = localStart(buf, start, end);
  return end - local === 1 ? buf[local]! : 0;
}

/** Column index (0-based) of a reference like "AB12"; -1 when it has no letters. */
function parseColumn(buf: Uint8Array, start: number, end: number): number {
  let column = 0;
  let at = start;
  for (; at < end; at++) {
    const letter = (buf[at]! | 0x20) - 0x60; // a..z as 1..26, either case
    if (letter < 1 || letter > 26) break;
    column = column * 26 + letter;
    if (column > 16_384) throw corrupt('a cell reference is beyond column XFD');
  }
  return column - 1;
}

function cellType(buf: Uint8Array, start: number, end: number): number {
  const first = buf[start];
  if (end - start === 1) {
    if (first === S) return SHARED;
    if (first === 0x62) return BOOLEAN; // b
    if (first === 0x65) return TEXT; // e: #N/A and the like, shown as text
    if (first === 0x64) return ISO_DATE; // d
    return NUMBER;
  }
  if (isName(buf, start, end, 'str') || isName(buf, start, end, 'inlineStr')) return TEXT;
  return NUMBER;
}
