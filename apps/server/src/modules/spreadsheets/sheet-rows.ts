/**
 * The rows of a template's sheet as the data check reads them (docs/data-check.md#speed): from the
 * parsed sheet when it is still in memory, else streamed from the derived rows file stored beside
 * the spreadsheet (sheet-rows-format.ts), so a check of a sheet not parsed lately starts at once and
 * holds a few rows at a time instead of the whole sheet.
 *
 * The rows file is written whenever the sheet is parsed for a new file or header row, and rebuilt
 * from the spreadsheet whenever it is missing (a sheet stored before it existed) or damaged: never an
 * error for the user. A file found damaged mid-way is left there: the rows not read yet come from the
 * parsed spreadsheet, and the file is written again.
 */
import { Readable } from 'node:stream';
import { SheafError } from '@sheaf/shared';
import type { SheetData, SheetProfile, SheetRow, SheetRows } from '@sheaf/engine';
import type { AppContext } from '../../context.ts';
import { blobLayout } from '../../adapters/blobs/layout.ts';
import { cachedSheet, parseSheetCached } from './load.ts';
import { findSpreadsheetRow, type SpreadsheetRow } from './repository.ts';
import { readSheetBlob } from './sheet-blob.ts';
import {
  SHEET_ROWS_VERSION, SheetRowsDamaged, decodeProfile, decodeRows, encodeRow, rowIndexOf, rowRunsOf, type SheetRowsProfile,
} from './sheet-rows-format.ts';

/** Bytes of rows written at a time. */
const WRITE_CHUNK = 256 * 1024;

/** Where a check reads its rows from. */
export interface CheckRows {
  /** What the check needs before the first row: headings, header row, column types of the whole sheet. */
  profile: SheetProfile;
  /** The sheet's row numbers (in memory: the sheet itself), for the merge's row selection. */
  index: SheetData;
  /** The data rows `selected` (ascending indices), in order; each call reads them again. */
  read(selected: readonly number[]): SheetRows;
  /** 'memory': the parsed sheet; 'stored': streamed from the rows file. */
  from: 'memory' | 'stored';
}

const keysOf = (templateId: string, checksum: string, headerRow: number) => ({
  rows: blobLayout.template.sheetRows(templateId, checksum, headerRow),
  profile: blobLayout.template.sheetRowsProfile(templateId, checksum, headerRow),
});

/** Writes the rows file and its profile of a parsed sheet (the profile last: it says the rows file is whole). */
async function writeSheetRows(ctx: AppContext, templateId: string, checksum: string, sheet: SheetData): Promise<void> {
  const { inferColumnTypes } = await import('@sheaf/engine'); // the engine loads with the first check or merge, not at start
  const keys = keysOf(templateId, checksum, sheet.headerRowNumber);
  function* chunks(): Generator<Buffer> {
    let text = '';
    for (let index = 0; index < sheet.rowCount; index++) {
      text += encodeRow(sheet, index);
      if (text.length >= WRITE_CHUNK) {
        yield Buffer.from(text);
        text = '';
      }
    }
    if (text !== '') yield Buffer.from(text);
  }
  const { size } = await ctx.blobs.put(keys.rows, Readable.from(chunks()));
  const profile: SheetRowsProfile = {
    version: SHEET_ROWS_VERSION, headers: [...sheet.headers], headerRowNumber: sheet.headerRowNumber, rowCount: sheet.rowCount,
    rowRuns: rowRunsOf(sheet), columnTypes: inferColumnTypes(sheet).map((type) => type ?? null), rowsBytes: size,
  };
  await ctx.blobs.put(keys.profile, Buffer.from(JSON.stringify(profile)));
}

/**
 * Stores the rows file of a sheet just parsed for a new file or header row. A derived file: when it
 * cannot be written, the log says so and the data check rebuilds it; the upload goes on.
 */
export async function storeSheetRows(ctx: AppContext, templateId: string, checksum: string, sheet: SheetData): Promise<void> {
  await writeSheetRows(ctx, templateId, checksum, sheet)
    .catch((error: unknown) => ctx.log.warn({ err: error, templateId }, 'the sheet\'s rows file could not be written; the data check rebuilds it'));
}

/** A copied sheet (another template's file) takes that sheet's rows files along, when it has them. */
export async function copySheetRows(ctx: AppContext, fromTemplateId: string, toTemplateId: string, checksum: string, headerRow: number): Promise<void> {
  const from = keysOf(fromTemplateId, checksum, headerRow);
  const to = keysOf(toTemplateId, checksum, headerRow);
  try {
    await ctx.blobs.copy(from.rows, to.rows);
    await ctx.blobs.copy(from.profile, to.profile); // last: it says the rows file is whole
  } catch {
    // None to copy (or a failed copy): the first check of the copy writes them.
  }
}

/** Rebuilds of rows files under way, by profile key: one at a time per file. */
const rebuilding = new Map<string, Promise<void>>();

/**
 * Writes the rows file again in the background (the check goes on from the parsed sheet). When the
 * template's sheet changed meanwhile, what was written goes with the old sheet's folder.
 */
export function rebuildSheetRows(ctx: AppContext, ownerId: string, templateId: string, checksum: string, sheet: SheetData): Promise<void> {
  const key = keysOf(templateId, checksum, sheet.headerRowNumber).profile;
  const running = rebuilding.get(key);
  if (running) return running;
  const done = (async () => {
    await writeSheetRows(ctx, templateId, checksum, sheet);
    const current = await findSpreadsheetRow(ctx.db, ownerId, templateId);
    if (current?.checksum !== checksum) await ctx.blobs.deletePrefix(blobLayout.template.sheetRowsFolder(templateId, checksum));
  })()
    .catch((error: unknown) => ctx.log.warn({ err: error, templateId }, 'data check: the rows file could not be written; the next check reads the sheet'))
    .finally(() => rebuilding.delete(key));
  rebuilding.set(key, done);
  return done;
}

/** The profile of the stored rows file, or undefined when there is none this version can read. */
async function storedProfile(ctx: AppContext, templateId: string, row: SpreadsheetRow): Promise<SheetRowsProfile | undefined> {
  const key = keysOf(templateId, row.checksum, row.headers_row_no).profile;
  try {
    const profile = decodeProfile(await ctx.blobs.get(key));
    // It must describe the sheet the row describes (a file of another sheet, a profile cut from another header row).
    const same = profile && profile.rowCount === row.total_row_count && JSON.stringify(profile.headers) === JSON.stringify(row.headers);
    return same ? profile : undefined;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') ctx.log.warn({ err: error, templateId }, 'data check: the rows file\'s profile could not be read; reading the sheet');
    return undefined;
  }
}

async function fromMemory(sheet: SheetData): Promise<CheckRows> {
  const { profileOf, rowsOfSheet } = await import('@sheaf/engine');
  return { profile: profileOf(sheet), index: sheet, read: (selected) => rowsOfSheet(sheet, selected), from: 'memory' };
}

/** Throws sheet/missing when the template has no spreadsheet (or is not the owner's). */
export async function loadCheckRows(ctx: AppContext, ownerId: string, templateId: string): Promise<CheckRows> {
  const row = await findSpreadsheetRow(ctx.db, ownerId, templateId);
  if (!row) throw new SheafError('sheet/missing');
  const parse = () => parseSheetCached(row.checksum, row.headers_row_no, row.name, () => readSheetBlob(ctx, templateId, row.checksum));
  const cached = cachedSheet(row.checksum, row.headers_row_no);
  if (cached) return fromMemory(await cached);
  const profile = await storedProfile(ctx, templateId, row);
  if (!profile) {
    const sheet = await parse();
    void rebuildSheetRows(ctx, ownerId, templateId, row.checksum, sheet);
    return fromMemory(sheet);
  }
  const rowsKey = keysOf(templateId, row.checksum, row.headers_row_no).rows;
  const columns = profile.headers.length;
  const index = rowIndexOf(profile);

  async function* read(selected: readonly number[]): AsyncGenerator<SheetRow> {
    let next = 0; // selected[next]: the next row to give
    try {
      const { stream, size } = await ctx.blobs.stream(rowsKey);
      if (size !== profile!.rowsBytes) {
        stream.destroy();
        throw new SheetRowsDamaged('the rows file is not the size its profile says');
      }
      let position = 0;
      for await (const rows of decodeRows(stream, columns, profile!.rowCount)) {
        for (const stored of rows) {
          if (next >= selected.length) return; // the rest is not selected: the stream closes
          if (stored.rowNumber !== index.rowNumber(position)) throw new SheetRowsDamaged('a row out of its place');
          if (selected[next] === position) {
            yield stored;
            next++;
          }
          position++;
        }
      }
      return;
    } catch (error) {
      ctx.log.warn({ err: error, templateId }, 'data check: the rows file is missing or damaged; reading the sheet and writing the file again');
    }
    const { rowsOfSheet } = await import('@sheaf/engine');
    const sheet = await parse();
    void rebuildSheetRows(ctx, ownerId, templateId, row!.checksum, sheet);
    yield* rowsOfSheet(sheet, selected.slice(next));
  }

  return {
    profile: { headers: profile.headers, headerRowNumber: profile.headerRowNumber, columnTypes: profile.columnTypes.map((type) => type ?? undefined) },
    index,
    read,
    from: 'stored',
  };
}
