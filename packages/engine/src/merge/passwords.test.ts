/**
 * Password protection of the outputs: fixed passwords, and passwords made from each row's columns
 * ({{Column}} tags), checked with qpdf and poppler: each document opens with its own password only.
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { PasswordProtection } from '@sheaf/shared';
import {
  expectQpdfClean, expectSheafError, fixture, mergeCombined, mergeSeparate, pdfInfo, pdfText, placeholder, prepare, qpdfCheck, run,
  scratch, table,
} from './test-support.ts';

const folder = scratch('passwords');
afterAll(() => folder.remove());

const ROWS = [
  ['Ann', 'ann9', 'PIN-ANN-VALUE'],
  ['Ben', 'ben7', 'PIN-BEN-VALUE'],
];

function request(passwordProtection: Partial<PasswordProtection>, isCombinedOutput = false) {
  return {
    template: fixture('corpus/xref-stream.pdf'),
    sheet: table(['Name', 'Pin', 'Value'], ROWS),
    placeholders: [placeholder({ column: 'Value' })],
    options: { passwordProtection: { readPassword: '', modifyPassword: '', ...passwordProtection }, isCombinedOutput },
  };
}

/** qpdf --requires-password: 0 needs a password to open, 2 not encrypted, 3 encrypted but opens without one. */
function requiresPassword(file: string): number | null {
  return run('qpdf', ['--requires-password', file]).status;
}

function opensWith(file: string, password: string, kind: 'user' | 'owner' = 'user'): boolean {
  const option = kind === 'user' ? '-upw' : '-opw';
  return qpdfCheck(file, password).status === 0 && run('pdftotext', [option, password, file, '-']).status === 0;
}

describe('fixed passwords', () => {
  it('a read password is needed to open each document; a wrong one fails', async () => {
    const { documents } = await mergeSeparate(folder, request({ readPassword: 'Open!2024', modifyPassword: 'Edit(99)' }));
    expect(documents).toHaveLength(2);
    documents.forEach((document, i) => {
      expect(document.sharedPrefixChunks).toBe(0);
      expect(requiresPassword(document.file)).toBe(0);
      expectQpdfClean(document.file, 'Open!2024');
      expect(pdfText(document.file, { password: 'Open!2024' })).toContain(ROWS[i]![2]);
      expect(pdfText(document.file, { password: 'Open!2024' })).toContain('CORPUS-XREF-STREAM');
      expect(opensWith(document.file, 'wrong')).toBe(false);
      expect(run('pdftotext', [document.file, '-']).status).not.toBe(0);
      // The owner (modify) password opens it too.
      expect(opensWith(document.file, 'Edit(99)', 'owner')).toBe(true);
    });
  });

  it('a modify password alone encrypts without asking for a password to open', async () => {
    const { documents } = await mergeSeparate(folder, request({ modifyPassword: 'OnlyEdit1' }));
    const file = documents[0]!.file;
    expect(requiresPassword(file)).toBe(3);
    expect(pdfInfo(file).encrypted).toBe(true);
    expectQpdfClean(file);
    expect(pdfText(file)).toContain('PIN-ANN-VALUE');
  });

  it('protects the combined document with a fixed password', async () => {
    const { file } = await mergeCombined(folder, request({ readPassword: 'Comb1ned' }));
    expect(requiresPassword(file)).toBe(0);
    expectQpdfClean(file, 'Comb1ned');
    expect(pdfInfo(file, 'Comb1ned').pages).toBe(4);
    const text = pdfText(file, { password: 'Comb1ned' });
    for (const [, , value] of ROWS) expect(text).toContain(value);
    expect(opensWith(file, 'Comb1nedX')).toBe(false);
  });

  it('both passwords empty: the documents are not encrypted and share the template prefix', async () => {
    const { documents } = await mergeSeparate(folder, request({}));
    for (const document of documents) {
      expect(requiresPassword(document.file)).toBe(2);
      expect(pdfInfo(document.file).encrypted).toBe(false);
      expect(document.sharedPrefixChunks).toBeGreaterThan(0);
      expectQpdfClean(document.file);
    }
  });
});

describe('passwords from column tags', () => {
  it('each document opens with its own row’s password and not with another row’s', async () => {
    const { documents } = await mergeSeparate(folder, request({ readPassword: '{{Pin}}X', modifyPassword: 'Adm{{ Name }}' }));
    documents.forEach((document, i) => {
      const own = `${ROWS[i]![1]}X`;
      const other = `${ROWS[1 - i]![1]}X`;
      expect(requiresPassword(document.file)).toBe(0);
      expect(opensWith(document.file, own)).toBe(true);
      expect(pdfText(document.file, { password: own })).toContain(ROWS[i]![2]);
      expect(opensWith(document.file, other)).toBe(false);
      expect(opensWith(document.file, `Adm${ROWS[i]![0]}`, 'owner')).toBe(true);
    });
  });

  it('refuses tags with combined output', async () => {
    await expectSheafError(prepare(request({ readPassword: '{{Pin}}' }, true)), 'merge/password-tags-combined');
    await expectSheafError(prepare(request({ modifyPassword: 'x{{Pin}}' }, true)), 'merge/password-tags-combined');
  });

  it('refuses a tag naming no column', async () => {
    await expectSheafError(prepare(request({ readPassword: '{{Birthday}}' })), 'merge/password-tag-unknown');
  });
});

describe('invalid passwords', () => {
  it.each(['with space', 'pässword', 'semi;colon', 'tab\there', 'quote"'])('refuses %j', async (password) => {
    await expectSheafError(prepare(request({ readPassword: password })), 'merge/password-invalid');
    await expectSheafError(prepare(request({ modifyPassword: password })), 'merge/password-invalid');
  });
});
