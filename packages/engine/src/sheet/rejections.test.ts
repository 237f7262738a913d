import { MAX_UPLOAD_BYTES } from '@sheaf/shared';
import { describe, expect, it } from 'vitest';
import { readSheet } from './index.ts';
import { errorCode, fixtureBytes } from './test-support.ts';

const codeOf = (name: string) => errorCode(() => readSheet(fixtureBytes(name), { fileName: name }));

describe('readSheet refuses what is not a readable spreadsheet, with the catalogue code', () => {
  it.each([
    ['empty.csv', 'sheet/empty-file'],
    ['not-a-sheet.pdf', 'sheet/wrong-type'],
    ['image.png', 'sheet/wrong-type'],
    ['random.bin', 'sheet/wrong-type'],
    ['page.html', 'sheet/wrong-type'],
    ['document.docx', 'sheet/wrong-type'],
    ['archive.zip', 'sheet/wrong-type'],
    ['word97.doc', 'sheet/wrong-type'],
    ['sheet-truncated.xlsx', 'sheet/corrupt'],
    ['sheet-bad-deflate.xlsx', 'sheet/corrupt'],
    ['encrypted.xlsx', 'sheet/encrypted'],
    ['password.xls', 'sheet/encrypted'],
  ])('%s: %s', (name, code) => {
    expect(codeOf(name)).toBe(code);
  });

  it('checks the size before parsing anything', () => {
    const tooLarge = new Uint8Array(MAX_UPLOAD_BYTES + 1);
    tooLarge.set([0x50, 0x4b, 0x03, 0x04]);
    expect(errorCode(() => readSheet(tooLarge))).toBe('sheet/too-large');
  });

  it('refuses header rows and row limits that are not positive whole numbers', () => {
    const bytes = fixtureBytes('comma.csv');
    expect(errorCode(() => readSheet(bytes, { headerRow: 0 }))).toBe('generic/invalid-input');
    expect(errorCode(() => readSheet(bytes, { headerRow: 1.5 }))).toBe('generic/invalid-input');
    expect(errorCode(() => readSheet(bytes, { maxRows: 0 }))).toBe('generic/invalid-input');
  });
});

describe('readSheet is safe with hostile XML', () => {
  it('refuses a DOCTYPE with an external entity (XXE) instead of resolving it', () => {
    expect(codeOf('sheet-xxe.xlsx')).toBe('sheet/corrupt');
  });

  it('refuses an entity-expansion bomb (billion laughs) without expanding it', () => {
    expect(codeOf('sheet-billion-laughs.xlsx')).toBe('sheet/corrupt');
  });

  it('refuses an entity that no DTD declares', () => {
    expect(codeOf('sheet-unknown-entity.xlsx')).toBe('sheet/corrupt');
  });
});

describe('readSheet is safe with hostile archives (each case bounded by the test timeout)', () => {
  it('stops a 1,000:1 ZIP bomb by its expansion ratio', { timeout: 10_000 }, () => {
    expect(codeOf('sheet-zip-bomb.xlsx')).toBe('sheet/limits-exceeded');
  });

  it('stops an entry expanding past the total inflated size limit', { timeout: 20_000 }, () => {
    expect(codeOf('sheet-large-expansion.xlsx')).toBe('sheet/limits-exceeded');
  });

  it('refuses an archive listing more entries than a workbook has', () => {
    expect(codeOf('sheet-many-entries.xlsx')).toBe('sheet/limits-exceeded');
  });
});
