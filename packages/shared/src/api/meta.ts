import { z } from 'zod';
import { EDITIONS } from '../plans.ts';
import { OAuthProviderSchema } from './oauth.ts';

/** GET /config: server-provided parameters (upload limits etc.) and the running version. */
export const ServerConfigSchema = z.object({
  version: z.string(),
  maxUploadBytes: z.number().int(),
  maxImageBytes: z.number().int(),
  maxAttachmentsBytes: z.number().int(),
  maxSheetRows: z.number().int(),
  /** Account mail (password resets) is kept in a local outbox instead of being sent. */
  mailOutbox: z.boolean(),
  edition: z.enum(EDITIONS),
  /** The browser's error-reporting DSN (SENTRY_DSN_WEB); null: the browser reports nothing (docs/support.md#error-reports). */
  sentryDsnWeb: z.string().nullable(),
  /** The providers people can sign in with (docs/accounts.md#social-sign-in): only these show a button. */
  authProviders: z.array(OAuthProviderSchema).default([]),
});
export type ServerConfig = z.infer<typeof ServerConfigSchema>;
