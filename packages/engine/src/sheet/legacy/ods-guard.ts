/**
 * Checks an OpenDocument spreadsheet before SheetJS sees it. SheetJS inflates every entry and
 * expands repeated rows and columns (table:number-rows-repeated) into objects, so a small file could
 * claim billions of cells. This pass inflates each entry within the workbook budget and counts the
 * cells content.xml would expand to, refusing a DTD on the way.
 */
import { SheafError } from '@sheaf/shared';
import { limitsExceeded, wrongType } from '../limits.ts';
import type { ChunkScanner } from '../ooxml/chunk-feeder.ts';
import { scanEntry } from '../ooxml/chunk-feeder.ts';
import {
  BANG,
  GT,
  LT,
  QUESTION,
  SLASH,
  TextRange,
  indexOfByte,
  findAttribute,
  isName,
  localStart,
  nameEnd,
  parseIndex,
  skipSpecial,
  tagEnd,
} from '../ooxml/xml-bytes.ts';
import { type ZipArchive, findEntry, readEntry, streamEntry } from '../ooxml/zip-archive.ts';

/** Cells (repeats expanded) an OpenDocument workbook may hold across its sheets: twice 100,000 x 20. */
export const MAX_EXPANDED_CELLS = 4_000_000;
const SPREADSHEET_TYPES = new Set(['application/vnd.oasis.opendocument.spreadsheet', 'application/vnd.oasis.opendocument.spreadsheet-template']);

/** Throws unless the archive is an OpenDocument spreadsheet within limits. */
export function checkOdsArchive(zip: ZipArchive, headerRow: number, maxRows: number): void {
  const mimetype = findEntry(zip, 'mimetype');
  if (mimetype === undefined) throw wrongType();
  const type = new TextDecoder().decode(readEntry(zip, mimetype, 1024)).trim();
  if (!SPREADSHEET_TYPES.has(type)) throw wrongType();
  const content = findEntry(zip, 'content.xml');
  if (content === undefined) throw wrongType();
  scanEntry(zip, content, new RepeatCounter(headerRow, maxRows));
  for (const entry of zip.entries.values()) {
    if (entry !== content && entry !== mimetype && !entry.name.endsWith('/')) streamEntry(zip, entry, () => true);
  }
}

class RepeatCounter implements ChunkScanner {
  done = false;
  private tables = 0;
  private cells = 0;
  private firstTableRows = 0;
  private rowRepeat = 1;
  private rowHasValue = false;
  private readonly range = new TextRange();

  constructor(
    private readonly headerRow: number,
    private readonly maxRows: number,
  ) {}

  scan(buf: Uint8Array): number {
    let at = 0;
    for (;;) {
      const lt = indexOfByte(buf, LT, at);
      if (lt < 0) return buf.length;
      if (lt + 1 >= buf.length) return lt;
      const kind = buf[lt + 1];
      if (kind === BANG || kind === QUESTION) {
        const next = skipSpecial(buf, lt);
        if (next < 0) return lt;
        at = next;
        continue;
      }
      const gt = kind === SLASH ? indexOfByte(buf, GT, lt) : tagEnd(buf, lt + 1);
      if (gt < 0) return lt;
      const start = kind === SLASH ? lt + 2 : lt + 1;
      const end = nameEnd(buf, start);
      const local = localStart(buf, start, end);
      if (kind === SLASH) this.endTag(buf, local, end);
      else this.startTag(buf, local, end, gt);
      at = gt + 1;
      if (this.done) return buf.length;
    }
  }

  private startTag(buf: Uint8Array, local: number, end: number, gt: number): void {
    if (isName(buf, local, end, 'table')) {
      this.tables++;
    } else if (isName(buf, local, end, 'table-row')) {
      this.rowRepeat = this.repeat(buf, end, gt, 'number-rows-repeated');
      this.rowHasValue = false;
    } else if (isName(buf, local, end, 'table-cell') || isName(buf, local, end, 'covered-table-cell')) {
      const valued = buf[gt - 1] !== SLASH || findAttribute(buf, end, gt, 'value-type', this.range);
      if (!valued) return;
      this.rowHasValue = true;
      this.cells += this.rowRepeat * this.repeat(buf, end, gt, 'number-columns-repeated');
      if (this.cells > MAX_EXPANDED_CELLS) throw limitsExceeded(`more than ${MAX_EXPANDED_CELLS} cells`);
    }
  }

  private endTag(buf: Uint8Array, local: number, end: number): void {
    if (isName(buf, local, end, 'table-row')) {
      if (this.tables === 1 && this.rowHasValue) this.firstTableRows += this.rowRepeat;
      // At most headerRow rows with values end at the header row; every one beyond is a data row.
      if (this.firstTableRows > this.headerRow + this.maxRows) throw new SheafError('sheet/too-many-rows', { max: this.maxRows });
      this.rowRepeat = 1;
    } else if (isName(buf, local, end, 'document-content')) {
      this.done = true;
    }
  }

  private repeat(buf: Uint8Array, from: number, gt: number, attribute: string): number {
    if (!findAttribute(buf, from, gt, attribute, this.range)) return 1;
    return Math.max(1, parseIndex(buf, this.range.start, this.range.end));
  }
}
