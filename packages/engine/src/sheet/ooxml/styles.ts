/**
 * The number format of each cell style (styles.xml): custom codes from <numFmts>, built-in ids
 * otherwise. Workbooks have thousands of styles but a handful of number formats: each distinct format
 * is classified once, and each style points at it.
 */
import { builtInFormatCode } from '../cells/built-in-formats.ts';
import { MAX_FORMATS } from '../cells/cell-table.ts';
import { type CellFormat, GENERAL_FORMAT, cellFormat } from '../cells/formats.ts';
import { readXml } from './workbook.ts';
import { xmlElements } from './xml-elements.ts';
import type { ZipArchive, ZipEntry } from './zip-archive.ts';

export interface SheetFormats {
  /** Distinct number formats; index 0 is General. */
  readonly formats: CellFormat[];
  /** For each cell style (<xf> of <cellXfs>, a cell's s attribute), the index of its format. */
  readonly styleFormats: Uint16Array;
}

export function readCellFormats(zip: ZipArchive, styles: ZipEntry | undefined): SheetFormats {
  const formats: CellFormat[] = [GENERAL_FORMAT];
  if (styles === undefined) return { formats, styleFormats: new Uint16Array(1) };
  const customCodes = new Map<number, string>();
  const formatIds: number[] = [];
  let inCellXfs = false;
  for (const element of xmlElements(readXml(zip, styles))) {
    if (element.name === 'cellXfs') {
      inCellXfs = !element.closing && !element.selfClosing;
    } else if (element.closing) {
      continue;
    } else if (element.name === 'numFmt') {
      const id = Number(element.attributes.get('numFmtId'));
      const code = element.attributes.get('formatCode');
      if (Number.isInteger(id) && code !== undefined) customCodes.set(id, code);
    } else if (element.name === 'xf' && inCellXfs) {
      formatIds.push(Number(element.attributes.get('numFmtId') ?? 0) || 0);
    }
  }
  // Styles share a handful of formats: classify each distinct code once.
  const indexByCode = new Map<string, number>([[GENERAL_FORMAT.code, 0]]);
  const styleFormats = Uint16Array.from(formatIds, (id) => {
    const format = cellFormat(customCodes.get(id) ?? builtInFormatCode(id));
    let index = indexByCode.get(format.code);
    if (index === undefined && formats.length < MAX_FORMATS) {
      index = formats.push(format) - 1;
      indexByCode.set(format.code, index);
    }
    return index ?? 0;
  });
  return { formats, styleFormats };
}
