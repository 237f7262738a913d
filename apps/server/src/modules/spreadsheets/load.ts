/**
 * The parsed spreadsheet of a template, for previews and merges. The last few parsed sheets stay in
 * memory (by file checksum and header row), since the wizard previews and merges the same sheet again.
 */
import type { SheetData } from '@sheaf/engine';
import { SheafError } from '@sheaf/shared';
import type { AppContext } from '../../context.ts';
import { readSheetSafely } from './read.ts';
import { findSpreadsheetRow } from './repository.ts';
import { readSheetBlob } from './sheet-blob.ts';

const CACHE_SIZE = 3;
const cache = new Map<string, Promise<SheetData>>();

function remember(key: string, sheet: Promise<SheetData>): Promise<SheetData> {
  cache.delete(key); // the most recently used goes last
  cache.set(key, sheet);
  while (cache.size > CACHE_SIZE) cache.delete(cache.keys().next().value!);
  // A failed read is not kept: the next call tries again.
  sheet.catch(() => { if (cache.get(key) === sheet) cache.delete(key); });
  return sheet;
}

/** The parsed sheet for these bytes, from the cache when the same file and header row were read lately. */
export function parseSheetCached(checksum: string, headerRow: number, fileName: string, bytes: () => Promise<Uint8Array>): Promise<SheetData> {
  const key = `${checksum}:${headerRow}`;
  return remember(key, cache.get(key) ?? bytes().then((data) => readSheetSafely(data, headerRow, fileName)));
}

/** The parsed sheet for this file and header row if it is among the last few parsed, without reading it. */
export function cachedSheet(checksum: string, headerRow: number): Promise<SheetData> | undefined {
  const key = `${checksum}:${headerRow}`;
  const sheet = cache.get(key);
  return sheet && remember(key, sheet);
}

/** Forgets every parsed sheet, as a restart does (tests and the benchmark of a check on a sheet not read lately). */
export function forgetParsedSheets(): void {
  cache.clear();
}

/** Remembers a sheet just read (an upload), so the preview that follows does not read it again. */
export function rememberSheet(checksum: string, headerRow: number, sheet: SheetData): void {
  void remember(`${checksum}:${headerRow}`, Promise.resolve(sheet));
}

/** Throws sheet/missing when the template has no spreadsheet (or is not the owner's). */
export async function loadSheet(ctx: AppContext, ownerId: string, templateId: string): Promise<SheetData> {
  const row = await findSpreadsheetRow(ctx.db, ownerId, templateId);
  if (!row) throw new SheafError('sheet/missing');
  return parseSheetCached(row.checksum, row.headers_row_no, row.name, () => readSheetBlob(ctx, templateId, row.checksum));
}
