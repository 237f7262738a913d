/**
 * Support requests (docs/support.md): a signed-in user writes to the operator from /help or through
 * "Suggest improvement", optionally with one attached file and, only when they tick the box, the
 * details of the last errors the app met (codes and request ids). The server stores the request, answers
 * a short reference and mails it to the operator's SUPPORT_EMAIL.
 *
 * POST /support/requests is multipart/form-data: the fields below as text fields (`language`: the UI
 * language, optional), `diagnostics` as a JSON text (left out without the user's consent), then the optional file in the field "file".
 */
import { z } from 'zod';
import { LANGUAGES } from '../constants.ts';

export const SUPPORT_TOPICS = ['support', 'improvement'] as const;
export const SupportTopicSchema = z.enum(SUPPORT_TOPICS);
export type SupportTopic = z.infer<typeof SupportTopicSchema>;

/** Longest subject, in characters. */
export const SUPPORT_SUBJECT_MAX = 200;
/** Longest message, in characters. */
export const SUPPORT_MESSAGE_MAX = 10_000;
/** Largest attachment: one file of any type, 5 MB. */
export const SUPPORT_ATTACHMENT_MAX_BYTES = 5 * 1024 * 1024;
/** How many of the latest errors the web app keeps (in memory) and may attach. */
export const RECENT_ERRORS_MAX = 20;

/** A reference as users see it: SUP- and six letters or digits without the look-alikes (0/O, 1/I/L). */
export const SUPPORT_REFERENCE_PATTERN = /^SUP-[2-9A-HJKMNP-Z]{6}$/;

/** One error the web app met: a failed API call (with the server's request id) or a page that failed to render. */
export const RecentErrorSchema = z.object({
  /** ISO time. */
  at: z.string().max(40),
  kind: z.enum(['api', 'render']),
  /** The catalogue code (api), or the error's name (render). */
  code: z.string().max(100),
  /** HTTP status of a failed call (0: no answer: offline). */
  status: z.number().int().min(0).max(999).optional(),
  /** The API call's key in the route table (e.g. "mergeTemplate"). */
  call: z.string().max(100).optional(),
  /** The server's x-request-id of the failed call. */
  requestId: z.string().max(128).optional(),
  /** A render failure's message, cut short. */
  message: z.string().max(300).optional(),
  /** The app's path when it happened (no query string). */
  page: z.string().max(300).optional(),
});
export type RecentError = z.infer<typeof RecentErrorSchema>;

/** What the user agreed to send: the recent errors and what browser and version ran. */
export const SupportDiagnosticsSchema = z.object({
  appVersion: z.string().max(50),
  userAgent: z.string().max(500),
  errors: z.array(RecentErrorSchema).max(RECENT_ERRORS_MAX),
});
export type SupportDiagnostics = z.infer<typeof SupportDiagnosticsSchema>;

/**
 * The text fields of the request as the server checks them (lengths in characters; the catalogue codes
 * say which limit). Blank texts are refused; surrounding whitespace is dropped.
 */
export const SupportRequestFieldsSchema = z.object({
  topic: SupportTopicSchema.default('support'),
  subject: z.string().trim().min(1, 'support/subject-required').max(SUPPORT_SUBJECT_MAX, 'support/subject-too-long'),
  message: z.string().trim().min(1, 'support/message-required').max(SUPPORT_MESSAGE_MAX, 'support/message-too-long'),
  diagnostics: SupportDiagnosticsSchema.optional(),
  /** The UI language the user wrote in (default: the account's saved language). */
  language: z.enum(LANGUAGES).optional(),
});
export type SupportRequestFields = z.infer<typeof SupportRequestFieldsSchema>;

export const SupportAttachmentSchema = z.object({ name: z.string(), size: z.number().int() });

export const SupportRequestSchema = z.object({
  reference: z.string(),
  topic: SupportTopicSchema,
  subject: z.string(),
  message: z.string(),
  attachment: SupportAttachmentSchema.nullable(),
  /** Whether the user sent the recent errors with it. */
  withDiagnostics: z.boolean(),
  /** ISO time. */
  createdAt: z.string(),
});
export type SupportRequest = z.infer<typeof SupportRequestSchema>;

export const SupportRequestListSchema = z.object({ requests: z.array(SupportRequestSchema) });
export const SupportRequestParamsSchema = z.object({ reference: z.string().min(1).max(20) });
