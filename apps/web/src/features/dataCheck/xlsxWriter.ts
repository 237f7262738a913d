/**
 * A small .xlsx writer for the data check's download (one sheet, a bold frozen header row, text as
 * inline strings, numbers as numbers), zipped with fflate, which the web app already carries: the
 * server's SheetJS would add about a megabyte for one table. Inline strings are never formulas, so
 * no cell needs the CSV's neutralising apostrophe. Characters XML cannot hold (control characters,
 * which the check reports on purpose) are written as OOXML's _xHHHH_ escapes, which Excel reads back.
 */
import { strToU8, zipSync } from 'fflate';
import type { Cell, ExportTable } from './exportFile.ts';

const MAIN = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const RELS = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const PACKAGE_RELS = 'http://schemas.openxmlformats.org/package/2006/relationships';
const XML = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
/** Excel's limit of characters in one cell. */
export const MAX_CELL_LENGTH = 32_767;

/** A, B, ... Z, AA, AB ... */
export function columnLetters(index: number): string {
  let name = '';
  for (let rest = index + 1; rest > 0; rest = Math.floor((rest - 1) / 26)) name = String.fromCharCode(65 + ((rest - 1) % 26)) + name;
  return name;
}

const hex4 = (code: number) => code.toString(16).toUpperCase().padStart(4, '0');

/** Text as the content of <t>: XML-escaped, characters XML forbids as _xHHHH_, lone surrogates replaced. */
export function cellText(value: string): string {
  const text = value.length > MAX_CELL_LENGTH ? value.slice(0, MAX_CELL_LENGTH) : value;
  return text
    // A literal "_x0041_" would be read back as "A": its underscore is escaped first.
    .replace(/_(x[0-9A-Fa-f]{4}_)/g, '_x005F_$1')
    .replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD')
    // eslint-disable-next-line no-control-regex -- exactly these characters are the point
    .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\r\uFFFE\uFFFF]/g, (char) => `_x${hex4(char.charCodeAt(0))}_`)
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;');
}

function cell(value: Cell, ref: string, style: number): string {
  const s = style ? ` s="${style}"` : '';
  if (typeof value === 'number' && Number.isFinite(value)) return `<c r="${ref}"${s}><v>${value}</v></c>`;
  return `<c r="${ref}"${s} t="inlineStr"><is><t xml:space="preserve">${cellText(String(value))}</t></is></c>`;
}

/** A sheet name Excel accepts: at most 31 characters, none of []:*?/\ . */
export function sheetName(name: string): string {
  const clean = name.replace(/[[\]:*?/\\]/g, ' ').trim().slice(0, 31);
  return clean || 'Sheet1';
}

const escapeAttribute = (text: string) => text.replaceAll('&', '&amp;').replaceAll('"', '&quot;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');

function worksheet(table: ExportTable): string {
  const all = [table.header, ...table.rows];
  const rows = all.map((cells, rowIndex) => {
    const r = rowIndex + 1;
    return `<row r="${r}">${cells.map((value, column) => cell(value, `${columnLetters(column)}${r}`, rowIndex === 0 ? 1 : 0)).join('')}</row>`;
  });
  // Widths from the longest text of each column (within reason).
  const widths = table.header.map((_, column) => Math.min(60, Math.max(8, ...all.slice(0, 1000).map((cells) => String(cells[column] ?? '').length + 2))));
  const cols = widths.map((width, column) => `<col min="${column + 1}" max="${column + 1}" width="${width}" customWidth="1"/>`).join('');
  return `${XML}<worksheet xmlns="${MAIN}" xmlns:r="${RELS}">` +
    '<sheetViews><sheetView workbookViewId="0"><pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" state="frozen"/></sheetView></sheetViews>' +
    `<cols>${cols}</cols><sheetData>${rows.join('')}</sheetData></worksheet>`;
}

const STYLES = `${XML}<styleSheet xmlns="${MAIN}">` +
  '<fonts count="2"><font><sz val="11"/><name val="Calibri"/></font><font><b/><sz val="11"/><name val="Calibri"/></font></fonts>' +
  '<fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills>' +
  '<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>' +
  '<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>' +
  '<cellXfs count="2"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/><xf numFmtId="0" fontId="1" fillId="0" borderId="0" xfId="0" applyFont="1"/></cellXfs>' +
  '<cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles></styleSheet>';

/** The workbook's bytes: one sheet named `name` holding the table. */
export function xlsxBytes(table: ExportTable, name: string): Uint8Array {
  const type = 'application/vnd.openxmlformats-officedocument.spreadsheetml';
  return zipSync({
    '[Content_Types].xml': strToU8(`${XML}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
      '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>' +
      `<Override PartName="/xl/workbook.xml" ContentType="${type}.sheet.main+xml"/>` +
      `<Override PartName="/xl/worksheets/sheet1.xml" ContentType="${type}.worksheet+xml"/>` +
      `<Override PartName="/xl/styles.xml" ContentType="${type}.styles+xml"/></Types>`),
    '_rels/.rels': strToU8(`${XML}<Relationships xmlns="${PACKAGE_RELS}"><Relationship Id="rId1" Type="${RELS}/officeDocument" Target="xl/workbook.xml"/></Relationships>`),
    'xl/workbook.xml': strToU8(`${XML}<workbook xmlns="${MAIN}" xmlns:r="${RELS}"><sheets><sheet name="${escapeAttribute(sheetName(name))}" sheetId="1" r:id="rId1"/></sheets></workbook>`),
    'xl/_rels/workbook.xml.rels': strToU8(`${XML}<Relationships xmlns="${PACKAGE_RELS}">` +
      `<Relationship Id="rId1" Type="${RELS}/worksheet" Target="worksheets/sheet1.xml"/>` +
      `<Relationship Id="rId2" Type="${RELS}/styles" Target="styles.xml"/></Relationships>`),
    'xl/styles.xml': strToU8(STYLES),
    'xl/worksheets/sheet1.xml': strToU8(worksheet(table)),
  }, { level: 6 });
}

export const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
