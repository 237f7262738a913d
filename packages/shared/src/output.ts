import { z } from 'zod';

/** Output options of docs/merging.md#output-options and the Template's flags. */
export const PasswordProtectionSchema = z.object({
  /** Needed to open the document. May hold column tags ({{Name}}) for a password per row. */
  readPassword: z.string().max(127).default(''),
  /** Needed to change permissions / edit. */
  modifyPassword: z.string().max(127).default(''),
});
export type PasswordProtection = z.infer<typeof PasswordProtectionSchema>;

export const OutputOptionsSchema = z.object({
  isCombinedOutput: z.boolean().default(false),
  isKeepFormOutput: z.boolean().default(true),
  isOnlyPlaceholdersOutput: z.boolean().default(false),
  isTryRepair: z.boolean().default(false),
  isCompressedOutput: z.boolean().default(true),
  /** File name pattern with column tags, e.g. "{{Last}}-{{First}}"; ".pdf" is added. */
  fileNamePattern: z.string().max(255).optional(),
  passwordProtection: PasswordProtectionSchema.optional(),
  /** Text stamped diagonally on every page (the Free plan's watermark). */
  watermark: z.string().max(200).optional(),
});
export type OutputOptions = z.infer<typeof OutputOptionsSchema>;
export type OutputOptionsInput = z.input<typeof OutputOptionsSchema>;

/** Which rows to merge: all, an Excel-numbered range, or a list written like "1, 3, 5-12". */
export const RowSelectionSchema = z.union([
  z.object({ kind: z.literal('all') }),
  z.object({ kind: z.literal('range'), startRow: z.number().int().min(1), endRow: z.number().int().min(1) }),
  z.object({ kind: z.literal('specific'), specificRowsNumbers: z.string().max(10_000) }),
]);
export type RowSelection = z.infer<typeof RowSelectionSchema>;
