import { describe, expect, it } from 'vitest';
import { checkPreviewRange, defaultPreviewRange } from './previewRange.ts';

const sheet = { firstRow: 2, lastRow: 101 };

describe('preview row range', () => {
  it('defaults to the first three data rows, fewer when the sheet is short', () => {
    expect(defaultPreviewRange(sheet)).toEqual({ startRow: 2, endRow: 4 });
    expect(defaultPreviewRange({ firstRow: 2, lastRow: 2 })).toEqual({ startRow: 2, endRow: 2 });
  });

  it('accepts up to 20 rows inside the sheet', () => {
    expect(checkPreviewRange('2', '21', sheet)).toMatchObject({ ok: true, startRow: 2, endRow: 21 });
    expect(checkPreviewRange('2', '22', sheet)).toMatchObject({ ok: false, field: 'end', reason: 'tooMany' });
  });

  it('refuses rows outside the data rows, empty fields and a reversed range', () => {
    expect(checkPreviewRange('1', '3', sheet)).toMatchObject({ ok: false, field: 'start' }); // the header row
    expect(checkPreviewRange('', '3', sheet)).toMatchObject({ ok: false, field: 'start' });
    expect(checkPreviewRange('100', '102', sheet)).toMatchObject({ ok: false, field: 'end', reason: 'end' });
    expect(checkPreviewRange('5', '3', sheet)).toMatchObject({ ok: false, field: 'end', reason: 'order' });
    expect(checkPreviewRange('2.5', '3', sheet)).toMatchObject({ ok: false, field: 'start' });
  });
});
