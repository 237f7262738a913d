/** The upload rules both sides apply: stored file names, blocked attachment types, executables by content. */
import { describe, expect, it } from 'vitest';
import { MAX_FILE_NAME_LENGTH, attachmentRefusal, normalizeDisplayName, normalizeFileName } from '../index.ts';

describe('file names', () => {
  it('drops NUL, controls, bidi overrides and zero-width characters, and the folders of a path', () => {
    expect(normalizeFileName('Let\u0000ter\u0007.pdf')).toBe('Letter.pdf');
    expect(normalizeFileName('invoice\u202efdp.exe')).toBe('invoicefdp.exe');
    expect(normalizeFileName('a\u200bb\u2066c\u2069\ufeff.csv')).toBe('abc.csv');
    expect(normalizeFileName('C:\\Users\\ann\\..\\report.xlsx')).toBe('report.xlsx');
    expect(normalizeFileName('../../etc/passwd')).toBe('passwd');
    expect(normalizeFileName('  two\t\n  words .pdf ')).toBe('two words .pdf');
  });

  it('composes to NFC, so the same name typed two ways is one name', () => {
    expect(normalizeFileName('Jose\u0301.pdf')).toBe('José.pdf');
    expect(normalizeFileName('Jose\u0301.pdf')).toBe(normalizeFileName('Jos\u00e9.pdf'));
  });

  it('gives the fallback when nothing usable is left, and drops unpaired surrogates', () => {
    expect(normalizeFileName('\u0000\u202e')).toBe('file');
    expect(normalizeFileName('..', 'image')).toBe('image');
    expect(normalizeFileName('a\ud800b.png')).toBe('ab.png');
    expect(normalizeFileName('😀.png')).toBe('😀.png');
  });

  it('shortens an overlong name keeping its extension, never splitting a character', () => {
    const long = normalizeFileName(`${'😀'.repeat(150)}.pdf`);
    expect(long.length).toBeLessThanOrEqual(MAX_FILE_NAME_LENGTH);
    expect(long.endsWith('😀.pdf')).toBe(true);
    expect(normalizeFileName('x'.repeat(1000)).length).toBe(MAX_FILE_NAME_LENGTH);
    expect(normalizeDisplayName('Q1/Q2 \u0000letter')).toBe('Q1/Q2 letter');
  });
});

describe('attachments', () => {
  const bytes = (...values: number[]) => new Uint8Array(values);
  it('refuses empty files, blocked types whatever their case, and programs by their first bytes', () => {
    expect(attachmentRefusal('notes.txt', bytes())).toBe('email/attachment-empty');
    expect(attachmentRefusal('Setup.EXE', bytes(1))).toBe('email/attachment-blocked-type');
    expect(attachmentRefusal('run.ps1', bytes(1))).toBe('email/attachment-blocked-type');
    expect(attachmentRefusal('invoice.pdf', bytes(0x4d, 0x5a, 0x90))).toBe('email/attachment-executable');
    expect(attachmentRefusal('tool', bytes(0x7f, 0x45, 0x4c, 0x46))).toBe('email/attachment-executable');
    expect(attachmentRefusal('install.txt', bytes(0x23, 0x21, 0x2f))).toBe('email/attachment-executable');
  });

  it('accepts what a mail client sends, macro documents included (the spam review warns about those)', () => {
    expect(attachmentRefusal('terms.pdf', bytes(0x25, 0x50, 0x44, 0x46))).toBeNull();
    expect(attachmentRefusal('report.xlsm', bytes(0x50, 0x4b, 0x03, 0x04))).toBeNull();
    expect(attachmentRefusal('exe notes.txt', bytes(0x68, 0x69))).toBeNull();
  });
});
