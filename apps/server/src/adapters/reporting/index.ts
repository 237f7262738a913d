/**
 * Error reports (docs/support.md#error-reports): unexpected server errors (answered 5xx, crashed jobs)
 * go to a Sentry-compatible service when SENTRY_DSN is set, with the request id, the release and the
 * user id, and nothing else of the request. Unset: NO_REPORTER, and the SDK is not even loaded.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.ts';
import type { Scrubbers } from './scrub.ts';
import { NO_REPORTER, type ErrorReporter } from './types.ts';

export { NO_REPORTER, type ErrorReporter, type ReportContext } from './types.ts';
export type { Scrubbers } from './scrub.ts';

/** Once per process, at boot (boot.ts). */
export async function openErrorReporter(
  config: Pick<Config, 'SENTRY_DSN' | 'SENTRY_ENVIRONMENT'>,
  log: Pick<FastifyBaseLogger, 'info'>,
  options: {
    /** The product version (http/meta.ts productVersion), asked only when reports are on. */
    release: () => Promise<string>;
    /** The log's scrubbers (http/logger.ts), applied to every event before it leaves. */
    scrubbers: Scrubbers;
  },
): Promise<ErrorReporter> {
  if (!config.SENTRY_DSN) return NO_REPORTER;
  const [{ sentryReporter }, version] = await Promise.all([import('./sentry.ts'), options.release()]);
  const reporter = sentryReporter({ dsn: config.SENTRY_DSN, release: version, environment: config.SENTRY_ENVIRONMENT, scrubbers: options.scrubbers });
  log.info({ host: new URL(config.SENTRY_DSN).host }, 'unexpected errors are reported to the configured service (SENTRY_DSN)');
  return reporter;
}
