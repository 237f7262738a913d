import { z } from 'zod';
import { PasswordProtectionSchema } from '../output.ts';
import { MergeSchema } from './templates.ts';

/** POST /templates/:id/merge (docs/merging.md#starting-a-merge). */
export const MergeRequestSchema = z.object({
  uid: z.string().optional(),
  templateId: z.string().optional(),
  customName: z.string().max(255).optional(),
  /** Chosen by the client so a retried request cannot start the merge twice. */
  mergeId: z.string().regex(/^[A-Za-z0-9]{20}$/),
  isCombinedOutput: z.boolean(),
  isKeepFormOutput: z.boolean(),
  isOnlyPlaceholdersOutput: z.boolean(),
  isTryRepair: z.boolean(),
  isCompressedOutput: z.boolean(),
  fileNamePattern: z.string().max(255).optional(),
  passwordProtection: PasswordProtectionSchema.nullable().optional(),
  /** Word templates: true (the default) makes PDFs, false DOCX files (passwords apply to PDFs only). */
  isSfdtPdfOutput: z.boolean().optional(),
  rowsData: z.union([
    z.object({ specificRowsNumbers: z.string().min(1).max(10_000) }),
    z.object({ startRow: z.number().int().min(1), endRow: z.number().int().min(1) }),
  ]),
  /**
   * Email the documents: the template's saved email settings are used (the wizard saves them first).
   * `counts` are the client's recipients check, informative only (the server checks again).
   */
  email: z.object({ isActive: z.boolean(), counts: z.object({ valid: z.number().int(), invalid: z.number().int() }).optional() }).nullable().optional(),
  /** With too few credits: make only as many documents as the credits cover. */
  limitToCredits: z.boolean().optional(),
});
export type MergeRequest = z.infer<typeof MergeRequestSchema>;

export const MergeListSchema = z.object({ merges: z.array(MergeSchema) });

/** Credits of docs/plans.md#credits: what the plan allows now and after this merge. */
export const CreditsSchema = z.object({
  available: z.number().int().nullable(),
  toBeUsed: z.number().int(),
  newBalance: z.number().int().nullable(),
  unlimited: z.boolean(),
  renewsAt: z.string().nullable(),
});
