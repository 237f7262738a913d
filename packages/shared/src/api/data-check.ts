/**
 * The data check (docs/data-check.md; issue #15): POST /templates/:id/verifyExcelData/stream answers
 * newline-delimited JSON, one issue per line, in row order, deduplicated. The spec's five fields are
 * there as it names them; `kind` and `code` (with `params`) let the dialog filter and translate.
 */
import { z } from 'zod';
import { MergeRequestSchema } from './merges.ts';

/** What kind of problem an issue is (the dialog's filter). */
export const DATA_ISSUE_KINDS = [
  /** A value the template, the file-name pattern, the passwords or the email need is empty. */
  'missing',
  /** A number or date the placeholder's format cannot read, or a date that does not exist. */
  'format',
  /** An email address (recipients, cc, bcc, reply-to) that is not valid. */
  'email',
  /** The same recipient on more than one row. */
  'duplicate',
  /** Text that does not fit its box, or a character no chosen font can print. */
  'layout',
  /** An image the row names that was not uploaded; a QR text too long for a code. */
  'asset',
  /** Leading/trailing spaces, invisible characters, stray letters in a number. */
  'whitespace',
  /** A value unlike the rest of its column (the column's inferred type). */
  'outlier',
  /** Found by the optional AI review. */
  'ai',
] as const;
export type DataIssueKind = (typeof DATA_ISSUE_KINDS)[number];

export const DataIssueSchema = z.object({
  /** The row as the spreadsheet numbers it (the header row's number + n). */
  row_number: z.number().int(),
  column_name: z.string(),
  /** The English text of `code` with its params (the dialog shows `code` in the user's language). */
  description: z.string(),
  actual_value: z.string(),
  /** What the value should probably be, when that can be told; '' otherwise. */
  expected_value: z.string(),
  kind: z.enum(DATA_ISSUE_KINDS),
  /** A catalogue code (packages/shared/src/errors.ts, `check/*`). */
  code: z.string(),
  params: z.record(z.string(), z.union([z.string(), z.number()])).default({}),
});
export type DataIssue = z.infer<typeof DataIssueSchema>;

/** The request: the merge request's body (the rows it selects are the rows checked). */
export const DataCheckRequestSchema = MergeRequestSchema.partial({ mergeId: true, isCombinedOutput: true, isKeepFormOutput: true, isOnlyPlaceholdersOutput: true, isTryRepair: true, isCompressedOutput: true });
export type DataCheckRequest = z.input<typeof DataCheckRequestSchema>;
