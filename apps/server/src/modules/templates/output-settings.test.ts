/**
 * The chosen rows are kept with a template's output settings: stored and read back like the flags,
 * untouched by a change of another setting, and "all rows" for templates saved before rows were kept.
 */
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ALL_OUTPUT_ROWS, type OutputRows } from '@sheaf/shared';
import { DEFAULT_OUTPUT, mergeOutput, readOutput, storeOutput } from './output-settings.ts';

const key = randomBytes(32);
const RANGE: OutputRows = { mode: 'range', startRow: 3, endRow: 5, specificRows: '' };
const LIST: OutputRows = { mode: 'specific', startRow: null, endRow: null, specificRows: '2, 4, 6-8' };

describe('the chosen rows in the output settings', () => {
  it('a range or a row list is stored and read back', () => {
    for (const rows of [RANGE, LIST]) {
      const stored = JSON.parse(JSON.stringify(storeOutput(key, mergeOutput(DEFAULT_OUTPUT, { rows }))));
      expect(readOutput(key, stored).rows).toEqual(rows);
    }
  });

  it('changing another setting keeps the rows', () => {
    const withRows = mergeOutput(DEFAULT_OUTPUT, { rows: LIST });
    expect(mergeOutput(withRows, { isCombinedOutput: true }).rows).toEqual(LIST);
  });

  it('settings stored before rows were kept read as all rows', () => {
    const { rows: _rows, ...older } = DEFAULT_OUTPUT;
    expect(readOutput(key, { ...older, isCombinedOutput: true })).toMatchObject({ isCombinedOutput: true, rows: ALL_OUTPUT_ROWS });
  });
});
