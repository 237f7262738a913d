/**
 * readSheet: bytes of an uploaded spreadsheet in, SheetData out, synchronously and without I/O.
 * Size is checked before anything is parsed, the type is told by content, and whatever goes wrong
 * surfaces as a SheafError of the catalogue (an unexpected parser failure as 'sheet/corrupt').
 */
import { MAX_SHEET_ROWS, MAX_UPLOAD_BYTES, SheafError } from '@sheaf/shared';
import { HEADER_SEARCH_ROWS } from './cells/header-row.ts';
import { decodeText } from './csv/decode-text.ts';
import { readCsv } from './csv/read-csv.ts';
import { checkCsvCandidate, sniffContainer } from './detect.ts';
import { checkLegacyWorkbook } from './legacy/cfb.ts';
import { checkOdsArchive } from './legacy/ods-guard.ts';
import { readWithSheetJs } from './legacy/read-sheetjs.ts';
import { MAX_ROW_NUMBER, corrupt, wrongType } from './limits.ts';
import { readXlsx } from './ooxml/read-xlsx.ts';
import { findEntry, openZip } from './ooxml/zip-archive.ts';
import type { ReadSheetOptions, SheetData } from './types.ts';

interface Settings {
  readonly headerRow: number;
  /** Rows the reader may store: with detectHeader, room for the rows above the header too. */
  readonly maxRows: number;
  readonly detectHeader: boolean;
  readonly dataRowLimit: number;
  readonly fileName: string | undefined;
}

export function readSheet(bytes: Uint8Array, options: ReadSheetOptions = {}): SheetData {
  const settings = settingsOf(options);
  if (bytes.length === 0) throw new SheafError('sheet/empty-file');
  if (bytes.length > MAX_UPLOAD_BYTES) throw new SheafError('sheet/too-large', { maxMb: MAX_UPLOAD_BYTES / 1_048_576 });
  try {
    return readByContent(bytes, settings);
  } catch (error) {
    if (error instanceof SheafError) throw error;
    const detail = error instanceof Error ? error.message : String(error);
    throw corrupt(detail.slice(0, 200), error);
  }
}

function readByContent(bytes: Uint8Array, settings: Settings): SheetData {
  switch (sniffContainer(bytes)) {
    case 'zip': {
      const zip = openZip(bytes);
      if (findEntry(zip, '[Content_Types].xml')) return readXlsx(zip, settings);
      checkOdsArchive(zip, settings.headerRow, settings.maxRows);
      return readWithSheetJs(bytes, 'ods', settings);
    }
    case 'cfb':
      checkLegacyWorkbook(bytes);
      return readWithSheetJs(bytes, 'xls', settings);
    case 'text': {
      const text = decodeText(bytes);
      if (text === null) throw wrongType();
      checkCsvCandidate(text, settings.fileName);
      return readCsv(text, settings);
    }
  }
}

function settingsOf(options: ReadSheetOptions): Settings {
  const detectHeader = options.headerRow === 'auto';
  const headerRow = options.headerRow === 'auto' ? 1 : (options.headerRow ?? 1);
  const maxRows = options.maxRows ?? MAX_SHEET_ROWS;
  if (!Number.isInteger(headerRow) || headerRow < 1 || headerRow > MAX_ROW_NUMBER) {
    throw new SheafError('generic/invalid-input', { detail: `the header row must be a whole number from 1 to ${MAX_ROW_NUMBER}` });
  }
  if (!Number.isInteger(maxRows) || maxRows < 1) {
    throw new SheafError('generic/invalid-input', { detail: 'the row limit must be a positive whole number' });
  }
  // Finding the header reads from row 1: the rows above the header may then count as data rows.
  const stored = detectHeader ? maxRows + HEADER_SEARCH_ROWS : maxRows;
  return { headerRow, maxRows: stored, detectHeader, dataRowLimit: maxRows, fileName: options.fileName };
}
