/**
 * The rows file (sheet-rows-format.ts) gives back every cell as the parsed sheet had it: texts with
 * line breaks, backslashes and the separator itself, and typed values (numbers, booleans, dates, an
 * empty value under a text); and a damaged line is refused rather than read as other values.
 */
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { sheetFromTable } from '@sheaf/engine';
import { SheetRowsDamaged, decodeRow, decodeRows, encodeRow, rowRunsOf } from './sheet-rows-format.ts';

/** Every item of an async iterable (Node 20 has no Array.fromAsync). */
async function all<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}

const sheet = sheetFromTable(['Text', 'Number', 'When', 'Flag'], [
  ['line one\nline two', 1234.5, new Date(Date.UTC(2024, 1, 29, 10, 30)), true],
  ['back\\slash \\n and \u001f unit', 0, null, false],
  ['', '007', '', ''],
  ['{"looks":"like json"}', -1e-7, 'text', 'x'],
]);

describe('the rows file', () => {
  it('reads back every text and typed value the sheet had', async () => {
    const bytes = Buffer.from(Array.from({ length: sheet.rowCount }, (_, index) => encodeRow(sheet, index)).join(''));
    // Chunks that cut lines (and a multi-byte character) anywhere.
    const chunks = Array.from({ length: Math.ceil(bytes.length / 7) }, (_, i) => bytes.subarray(i * 7, i * 7 + 7));
    const rows = (await all(decodeRows(Readable.from(chunks), 4, sheet.rowCount))).flat();
    expect(rows).toHaveLength(sheet.rowCount);
    rows.forEach((row, index) => {
      expect(row.rowNumber).toBe(sheet.rowNumber(index));
      for (let column = 0; column < 4; column++) {
        expect(row.text(column)).toBe(sheet.text(index, column));
        expect(row.value(column)).toEqual(sheet.value(index, column));
      }
    });
    expect(rowRunsOf(sheet)).toEqual([[2, 4]]);
  });

  it('refuses a line of another shape, a file cut short or longer than said', async () => {
    expect(() => decodeRow('2\u001fa\u001fb', 4)).toThrow(SheetRowsDamaged);
    expect(() => decodeRow('x\u001fa\u001fb\u001fc\u001fd', 4)).toThrow(SheetRowsDamaged);
    expect(() => decodeRow('2\u001fa\u001fb\u001fc\u001fd\u001f{not json', 4)).toThrow(SheetRowsDamaged);
    const line = encodeRow(sheet, 0);
    await expect(all(decodeRows(Readable.from([Buffer.from(line.slice(0, -3))]), 4, 1))).rejects.toThrow(SheetRowsDamaged);
    await expect(all(decodeRows(Readable.from([Buffer.from(line + line)]), 4, 1))).rejects.toThrow(SheetRowsDamaged);
  });
});
