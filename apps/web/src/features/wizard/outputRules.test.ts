import { describe, expect, it } from 'vitest';
import { fileNameProblem, insertColumnTag, normalizedProtection, passwordProblem, passwordProblems } from './outputRules.ts';

const headings = ['First', 'Last', 'Customer ID'];

describe('password protection messages', () => {
  it('accepts Latin letters, digits and !@#$%^&*() and an empty field', () => {
    expect(passwordProblem('Secret(2024)!@#$%^&*', false, headings)).toBeNull();
    expect(passwordProblem('', true, headings)).toBeNull();
  });

  it('rejects spaces and other characters with merge/password-invalid', () => {
    expect(passwordProblem('two words', false, headings)).toEqual({ code: 'merge/password-invalid' });
    expect(passwordProblem('pässwort', false, headings)).toEqual({ code: 'merge/password-invalid' });
    expect(passwordProblem('a-b', false, headings)).toEqual({ code: 'merge/password-invalid' });
  });

  it('allows column tags for separate documents, refuses them with combined output', () => {
    expect(passwordProblem('{{Customer ID}}!', false, headings)).toBeNull();
    expect(passwordProblem('{{Last}}99', true, headings)).toEqual({ code: 'merge/password-tags-combined' });
  });

  it('names a column tag that is not a heading of the sheet', () => {
    expect(passwordProblem('{{Surname}}1', false, headings)).toEqual({ code: 'merge/password-tag-unknown', params: { column: 'Surname' } });
  });

  it('reports each field on its own', () => {
    const problems = passwordProblems({ readPassword: 'ok123', modifyPassword: 'not ok' }, false, headings);
    expect(problems).toEqual({ modifyPassword: { code: 'merge/password-invalid' } });
  });

  it('removes the protection once both passwords are empty', () => {
    expect(normalizedProtection({ readPassword: '', modifyPassword: '' })).toBeNull();
    expect(normalizedProtection({ readPassword: '', modifyPassword: 'x1' })).toEqual({ readPassword: '', modifyPassword: 'x1' });
    expect(normalizedProtection(null)).toBeNull();
  });
});

describe('file name pattern', () => {
  it('names an unknown column tag, except with combined output where the pattern is unused', () => {
    expect(fileNameProblem('{{Last}}-{{Town}}', false, headings)).toEqual({ code: 'merge/file-name-tag-unknown', params: { column: 'Town' } });
    expect(fileNameProblem('{{Last}}-{{Town}}', true, headings)).toBeNull();
    expect(fileNameProblem('{{Last}}-{{First}}', false, headings)).toBeNull();
  });

  it('accepts file-name and password tags that differ from a heading only in case, as the merge does', () => {
    expect(fileNameProblem('{{last}}-{{CUSTOMER ID}}', false, headings)).toBeNull();
    expect(passwordProblem('{{customer id}}1', false, headings)).toBeNull();
  });

  it('inserts a column tag at the cursor, replacing a selection', () => {
    expect(insertColumnTag('Invoice-', 'Last', 8)).toEqual({ text: 'Invoice-{{Last}}', cursor: 16 });
    expect(insertColumnTag('A-XX-B', 'First', 2, 4)).toEqual({ text: 'A-{{First}}-B', cursor: 11 });
  });
});
