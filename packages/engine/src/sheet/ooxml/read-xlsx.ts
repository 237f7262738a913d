/**
 * Our own .xlsx/.xlsm reader: inflates only the parts it needs (content types, workbook and its
 * relationships, styles, shared strings, the first sheet), the two big ones streamed through
 * byte scanners, and fills a CellTable.
 */
import { CellTableBuilder } from '../cells/cell-table.ts';
import { NumberFormatter } from '../cells/formats.ts';
import { StringTable } from '../cells/string-table.ts';
import { sheetDataFromTable, type HeaderOptions } from '../cells/table-sheet.ts';
import type { SheetData } from '../types.ts';
import { scanEntry } from './chunk-feeder.ts';
import { SharedStringsScanner } from './shared-strings.ts';
import { SheetScanner } from './sheet-scanner.ts';
import { readCellFormats } from './styles.ts';
import { locateWorkbook } from './workbook.ts';
import type { ZipArchive } from './zip-archive.ts';

const MAX_RESERVED_STRING_BYTES = 64 * 1024 * 1024;
/** Sheet XML spends about this many bytes on a cell (<c r="B2" s="1" t="s"><v>42</v></c>). */
const XML_BYTES_PER_CELL = 32;

export interface XlsxReadOptions extends HeaderOptions {
  readonly maxRows: number;
}

export function readXlsx(zip: ZipArchive, options: XlsxReadOptions): SheetData {
  const parts = locateWorkbook(zip);
  const { formats, styleFormats } = readCellFormats(zip, parts.styles);
  let strings = new StringTable();
  if (parts.sharedStrings !== undefined) {
    const scanner = new SharedStringsScanner();
    // The part's size bounds its text: size the buffer once (capped, the size is the file's claim).
    scanner.strings.reserve(Math.min(parts.sharedStrings.size, MAX_RESERVED_STRING_BYTES), 0);
    scanEntry(zip, parts.sharedStrings, scanner);
    strings = scanner.strings;
  }
  const builder = new CellTableBuilder(options.headerRow, options.maxRows);
  builder.reserve(parts.sheet.size / XML_BYTES_PER_CELL);
  scanEntry(zip, parts.sheet, new SheetScanner(builder, strings, formats, styleFormats, parts.date1904));
  const source = { strings, formatter: new NumberFormatter(formats, parts.date1904), date1904: parts.date1904 };
  return sheetDataFromTable(builder.finish(), source, options, parts.format);
}
