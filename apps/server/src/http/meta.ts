/** GET /v1/config: what the client needs to know about this server before anything else. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { MAX_ATTACHMENTS_TOTAL_BYTES, MAX_IMAGE_BYTES, MAX_SHEET_ROWS, MAX_UPLOAD_BYTES, routes } from '@sheaf/shared';
import { REPO_ROOT } from '../config.ts';
import type { AppContext } from '../context.ts';
import { configuredOAuthProviders } from '../config-oauth.ts';
import { handle } from './route.ts';

/** The product version: the root package.json's, else the server package's. */
export function productVersion(): string {
  for (const file of [path.join(REPO_ROOT, 'package.json'), path.join(REPO_ROOT, 'apps/server/package.json')]) {
    try {
      const version = (JSON.parse(readFileSync(file, 'utf8')) as { version?: string }).version;
      if (version) return version;
    } catch {
      // try the next one
    }
  }
  return '0.0.0';
}

export function registerMetaRoutes(app: FastifyInstance, ctx: AppContext): void {
  const version = productVersion();
  handle(app, routes.config, async () => ({
    version,
    maxUploadBytes: MAX_UPLOAD_BYTES,
    maxImageBytes: MAX_IMAGE_BYTES,
    maxAttachmentsBytes: MAX_ATTACHMENTS_TOTAL_BYTES,
    maxSheetRows: MAX_SHEET_ROWS,
    mailOutbox: ctx.mailer.isOutbox,
    edition: ctx.config.EDITION,
    sentryDsnWeb: ctx.config.SENTRY_DSN_WEB ?? null,
    authProviders: configuredOAuthProviders(ctx.config),
  }));
}
