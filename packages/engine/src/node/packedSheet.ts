/**
 * A sheet packed for worker threads: each column's texts as one string and their lengths, its typed
 * values only where they differ from the text. Handing it to a worker copies a few blocks of memory
 * rather than one string per cell, which for a large sheet would hold the caller's thread for seconds.
 */
import type { CellValue } from '../sheet/types.ts';
import type { TransferableSheet } from '../sheet/transfer.ts';

interface PackedColumn {
  texts: string;
  lengths: Int32Array;
  /** Rows whose value is not simply the text, and those values. */
  valueRows: Int32Array;
  values: CellValue[];
}

export interface PackedSheet {
  headers: string[];
  headerRowNumber: number;
  rowNumbers: Int32Array;
  columns: PackedColumn[];
}

const breathe = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Packs column by column, letting the event loop in between. */
export async function packSheet(sheet: TransferableSheet): Promise<PackedSheet> {
  const rows = sheet.rowNumbers.length;
  const columns: PackedColumn[] = [];
  for (let column = 0; column < sheet.texts.length; column++) {
    const texts = sheet.texts[column] ?? [];
    const lengths = new Int32Array(rows);
    for (let row = 0; row < rows; row++) lengths[row] = texts[row]?.length ?? 0;
    const valueRows: number[] = [];
    const values: CellValue[] = [];
    sheet.values[column]?.forEach((value, row) => {
      if (value === undefined) return;
      valueRows.push(row);
      values.push(value);
    });
    columns.push({ texts: texts.join(''), lengths, valueRows: Int32Array.from(valueRows), values });
    await breathe();
  }
  return { headers: sheet.headers, headerRowNumber: sheet.headerRowNumber, rowNumbers: sheet.rowNumbers, columns };
}

export function unpackSheet(packed: PackedSheet): TransferableSheet {
  const rows = packed.rowNumbers.length;
  const texts = packed.columns.map(({ texts: joined, lengths }) => {
    const out = new Array<string>(rows);
    let offset = 0;
    for (let row = 0; row < rows; row++) {
      out[row] = joined.slice(offset, offset + lengths[row]!);
      offset += lengths[row]!;
    }
    return out;
  });
  const values = packed.columns.map(({ valueRows, values: typed }) => {
    const out = new Array<CellValue | undefined>(rows);
    valueRows.forEach((row, i) => (out[row] = typed[i]));
    return out;
  });
  return { headers: packed.headers, headerRowNumber: packed.headerRowNumber, rowNumbers: packed.rowNumbers, texts, values };
}
