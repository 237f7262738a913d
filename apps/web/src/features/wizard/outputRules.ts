/**
 * Checks of the step 4 output options (docs/merging.md#password-protection and the file name
 * pattern). Each problem is a catalogue code with its parameters, shown under the field it concerns.
 */
import { firstUnknownTag, hasColumnTags, isValidPasswordPattern, type ErrorCode, type ErrorParams, type PasswordProtection } from '@sheaf/shared';

export interface FieldProblem {
  code: ErrorCode;
  params?: ErrorParams;
}

export interface PasswordProblems {
  readPassword?: FieldProblem;
  modifyPassword?: FieldProblem;
}

/** The problem of one password field, or null; an empty field is fine (no protection of that kind). */
export function passwordProblem(password: string, isCombinedOutput: boolean, headings: readonly string[]): FieldProblem | null {
  if (password === '') return null;
  if (!isValidPasswordPattern(password)) return { code: 'merge/password-invalid' };
  if (isCombinedOutput && hasColumnTags(password)) return { code: 'merge/password-tags-combined' };
  const unknown = firstUnknownTag(password, headings);
  if (unknown !== null) return { code: 'merge/password-tag-unknown', params: { column: unknown } };
  return null;
}

export function passwordProblems(protection: PasswordProtection, isCombinedOutput: boolean, headings: readonly string[]): PasswordProblems {
  const problems: PasswordProblems = {};
  const read = passwordProblem(protection.readPassword, isCombinedOutput, headings);
  const modify = passwordProblem(protection.modifyPassword, isCombinedOutput, headings);
  if (read) problems.readPassword = read;
  if (modify) problems.modifyPassword = modify;
  return problems;
}

/** The protection to store and send: null once both passwords are empty (docs/merging.md#password-protection). */
export function normalizedProtection(protection: PasswordProtection | null): PasswordProtection | null {
  if (!protection) return null;
  return protection.readPassword === '' && protection.modifyPassword === '' ? null : protection;
}

/** A file name pattern naming a column the sheet does not have; ignored with combined output. */
export function fileNameProblem(pattern: string, isCombinedOutput: boolean, headings: readonly string[]): FieldProblem | null {
  if (isCombinedOutput) return null;
  const unknown = firstUnknownTag(pattern, headings);
  return unknown === null ? null : { code: 'merge/file-name-tag-unknown', params: { column: unknown } };
}

/** Inserts `{{heading}}` into `text` at the cursor (or replacing the selection); returns text and new cursor. */
export function insertColumnTag(text: string, heading: string, selectionStart: number, selectionEnd = selectionStart): { text: string; cursor: number } {
  const tag = `{{${heading}}}`;
  const start = Math.max(0, Math.min(selectionStart, text.length));
  const end = Math.max(start, Math.min(selectionEnd, text.length));
  return { text: text.slice(0, start) + tag + text.slice(end), cursor: start + tag.length };
}
