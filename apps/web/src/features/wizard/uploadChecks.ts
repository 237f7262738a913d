/**
 * The checks a dropzone makes before sending a file (docs/library.md#uploading-a-template,
 * docs/spreadsheets.md#limits): empty, too large, wrong type. The server repeats them and adds the ones
 * that need a parse (corrupt, encrypted, rows); both speak in catalogue codes, so the user sees the same
 * words whichever side refused.
 */
import type { ErrorCode, ErrorParams } from '@sheaf/shared';

export type UploadKind = 'template' | 'sheet';

export const ACCEPTED_EXTENSIONS: Record<UploadKind, readonly string[]> = {
  // A PDF, or a word-processor document (docs/word-templates.md#uploading): the server converts it to DOCX.
  template: ['.pdf', '.docx', '.dotx', '.docm', '.dotm', '.doc', '.dot', '.rtf', '.odt', '.fodt', '.txt', '.xml'],
  sheet: ['.xlsx', '.xlsm', '.xls', '.ods', '.csv'],
};

const CODES: Record<UploadKind, { empty: ErrorCode; tooLarge: ErrorCode; wrongType: ErrorCode }> = {
  template: { empty: 'template/empty', tooLarge: 'template/too-large', wrongType: 'template/wrong-type' },
  sheet: { empty: 'sheet/empty-file', tooLarge: 'sheet/too-large', wrongType: 'sheet/wrong-type' },
};

export const toMegabytes = (bytes: number): number => Math.round((bytes / 1_048_576) * 10) / 10;

export function uploadProblem(file: { name: string; size: number }, kind: UploadKind, maxBytes: number): { code: ErrorCode; params?: ErrorParams } | null {
  const codes = CODES[kind];
  const name = file.name.toLowerCase();
  if (!ACCEPTED_EXTENSIONS[kind].some((extension) => name.endsWith(extension))) return { code: codes.wrongType };
  if (file.size === 0) return { code: codes.empty };
  if (file.size > maxBytes) return { code: codes.tooLarge, params: { maxMb: toMegabytes(maxBytes) } };
  return null;
}
