import { z } from 'zod';
import { TEMPLATE_ID_LENGTH } from '../constants.ts';

/** Template ids: 20 letters and digits (docs/library.md#templates). Merge ids and user ids share the format. */
export const ID_PATTERN = new RegExp(`^[A-Za-z0-9]{${TEMPLATE_ID_LENGTH}}$`);
export const IdSchema = z.string().regex(ID_PATTERN, 'must be 20 letters and digits');
export const isValidId = (value: string): boolean => ID_PATTERN.test(value);

export const TemplateParamsSchema = z.object({ id: IdSchema });
export const MergeParamsSchema = z.object({ id: IdSchema, mergeId: IdSchema });

/**
 * Every error response. `code` is a catalogue code (packages/shared/src/errors.ts); the client shows
 * the translation of the code and falls back to `message` (English). `fields` maps form fields to
 * catalogue codes for errors shown under a field.
 */
export const ErrorResponseSchema = z.object({
  code: z.string(),
  message: z.string(),
  params: z.record(z.string(), z.union([z.string(), z.number()])).optional(),
  fields: z.record(z.string(), z.string()).optional(),
});
export type ErrorResponse = z.infer<typeof ErrorResponseSchema>;

export const OkSchema = z.object({ ok: z.literal(true) });
export const MessageSchema = z.object({ message: z.string() });

/** Trims and removes invisible and zero-width characters (docs/accounts.md#email-addresses). */
export function cleanWhitespace(value: string): string {
  return value.replace(/[\u200B-\u200D\u2060\uFEFF\u00AD]/g, '').trim();
}
