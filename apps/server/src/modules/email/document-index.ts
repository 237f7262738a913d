/**
 * The document index of an emailed merge: one JSON line per document the merge job wrote into its ZIP
 * (where the PDF is, which row it came from, whom it goes to, its subject and the values its content
 * needs). The merge job writes it from the very sheet it made the documents from, so the mailing does
 * not depend on the spreadsheet any more (it may be replaced meanwhile), and the mailing job streams
 * it into message rows without holding it.
 */
import { createWriteStream, type WriteStream } from 'node:fs';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { columnTags } from '@sheaf/shared';
import type { SheetData } from '@sheaf/engine';
import { columnIndex } from '../merges/index.ts';
import { fillText, htmlColumnTags } from './content.ts';
import { addressesOf } from './recipients.ts';
import type { MailingSnapshot } from './snapshot.ts';

export interface IndexEntry {
  /** Position of the document in the merge. */
  index: number;
  /** Excel row number of the document's (first) row. */
  rowNumber: number;
  fileName: string;
  /** Offset of the document's local header in the ZIP, and the document's size. */
  offset: number;
  size: number;
  to: string[];
  cc: string[];
  bcc: string[];
  /** The first To address, or the cell's text when it holds none. */
  recipient: string;
  subject: string;
  /** Values of the columns named by the content's and the reply-to's tags. */
  vars: Record<string, string>;
  /** Why the document cannot be sent (no valid To address); null when it can. */
  invalid: string | null;
}

export interface DocumentFacts {
  index: number;
  fileName: string;
  rowNumbers: number[];
}

/** Data-row index of an Excel row number (rows are in sheet order, so their numbers ascend). */
function rowIndexOf(sheet: SheetData, rowNumber: number): number {
  let low = 0;
  let high = sheet.rowCount - 1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    const found = sheet.rowNumber(middle);
    if (found === rowNumber) return middle;
    if (found < rowNumber) low = middle + 1;
    else high = middle - 1;
  }
  throw new Error(`row ${rowNumber} is not in the sheet`);
}

/** Turns each document of the merge into its index entry (a document of grouped rows goes to its first row's recipients). */
export function indexEntryMaker(snapshot: MailingSnapshot, sheet: SheetData): (document: DocumentFacts, offset: number, size: number) => IndexEntry {
  const column = (name: string | null) => (name ? columnIndex(sheet.headers, name) : undefined);
  const to = column(snapshot.recipientsColumn)!;
  const cc = column(snapshot.ccColumn);
  const bcc = column(snapshot.bccColumn);
  const varColumns = [...new Set([...htmlColumnTags(snapshot.content), ...columnTags(snapshot.replyTo)])];
  return (document, offset, size) => {
    const row = rowIndexOf(sheet, document.rowNumbers[0]!);
    const valueOf = (name: string) => {
      const index = columnIndex(sheet.headers, name);
      return index === undefined ? '' : sheet.text(row, index);
    };
    const toCell = sheet.text(row, to);
    const toAddresses = addressesOf(toCell).valid;
    const vars: Record<string, string> = {};
    for (const name of varColumns) vars[name] = valueOf(name);
    return {
      index: document.index,
      rowNumber: document.rowNumbers[0]!,
      fileName: document.fileName,
      offset,
      size,
      to: toAddresses,
      cc: cc === undefined ? [] : addressesOf(sheet.text(row, cc)).valid,
      bcc: bcc === undefined ? [] : addressesOf(sheet.text(row, bcc)).valid,
      recipient: toAddresses[0] ?? toCell.trim().slice(0, 320),
      subject: oneLine(fillText(snapshot.subject, valueOf)).slice(0, 998),
      vars,
      invalid: toAddresses.length ? null : toCell.trim() ? `Not a valid email address: ${toCell.trim().slice(0, 200)}` : 'No email address in this row',
    };
  };
}

/** Header values never carry line breaks (no header injection from a cell). */
export function oneLine(text: string): string {
  return text.replace(/[\r\n\t]+/g, ' ').trim();
}

/** Writes entries as JSON lines to a file, with backpressure. */
export class IndexFileWriter {
  private readonly stream: WriteStream;
  private failure: Error | undefined;
  constructor(file: string) {
    this.stream = createWriteStream(file);
    // A write that fails (a full disk, or one in flight when the merge was stopped and the writer
    // destroyed) must reach the merge as an error, never the process as an uncaught 'error' event.
    this.stream.on('error', (error) => {
      this.failure ??= error;
    });
  }
  async write(entry: IndexEntry): Promise<void> {
    if (this.failure) throw this.failure;
    if (this.stream.destroyed) throw new Error('the document index was closed');
    // events.once rejects when the stream fails while waited on.
    if (!this.stream.write(`${JSON.stringify(entry)}\n`)) await once(this.stream, 'drain');
  }
  async close(): Promise<void> {
    if (this.failure) throw this.failure;
    this.stream.end();
    await once(this.stream, 'finish');
  }
  destroy(): void {
    this.stream.destroy();
  }
}

/** The entries of an index stream, in batches of `size`. */
export async function* readIndexBatches(stream: Readable, size: number): AsyncGenerator<IndexEntry[]> {
  let batch: IndexEntry[] = [];
  for await (const line of createInterface({ input: stream, crlfDelay: Infinity })) {
    if (!line.trim()) continue;
    batch.push(JSON.parse(line) as IndexEntry);
    if (batch.length >= size) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length) yield batch;
}
