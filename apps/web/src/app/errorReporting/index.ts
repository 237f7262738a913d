/**
 * Error reports from the browser (docs/support.md#error-reports). Nothing leaves the browser unless the
 * server hands a DSN (SENTRY_DSN_WEB, through GET /config); the SDK then loads in a chunk of its own.
 * reportError answers whether the report reached the service, so "support has been notified" shows only
 * then; every failure is also kept in the recent errors a support request may carry.
 */
import { ApiError } from '../../api/apiError.ts';
import { recentErrors, type RecentErrors } from '../../api/recentErrors.ts';
import type { SdkReporter } from './delivery.ts';
import { isReportable } from './rules.ts';

export type { SdkReporter } from './delivery.ts';

export interface ErrorReporting {
  /** Starts loading the reporter (once): `load` answers null when no DSN is configured. */
  start(load: () => Promise<SdkReporter | null>): void;
  /** Keeps the error for support, reports it when reporting is on; true only when a report was delivered. */
  report(error: unknown): Promise<boolean>;
}

export function createErrorReporting(buffer: RecentErrors, log: (error: unknown) => void = () => undefined): ErrorReporting {
  let reporter: Promise<SdkReporter | null> = Promise.resolve(null);
  let started = false;
  // One report per error object (React may hand the same error to a boundary twice).
  const reported = new WeakMap<object, Promise<boolean>>();

  async function send(error: unknown): Promise<boolean> {
    // A failed call is in the buffer already (the API client keeps it).
    if (!(error instanceof ApiError)) buffer.addFailure(error);
    log(error);
    if (!isReportable(error)) return false;
    const sdk = await reporter.catch(() => null);
    if (!sdk) return false;
    return sdk.capture(error).catch(() => false);
  }

  return {
    start(load) {
      if (started) return;
      started = true;
      reporter = load().catch(() => null);
    },
    report(error) {
      if (error === null || typeof error !== 'object') return send(error);
      const known = reported.get(error);
      if (known) return known;
      const result = send(error);
      reported.set(error, result);
      return result;
    },
  };
}

/** This tab's reporting. */
export const errorReporting = createErrorReporting(recentErrors, (error) => console.error('Sheaf error', error));

/**
 * At start-up (main.tsx): asks the server whether the browser reports (GET /config, cached for the app)
 * and loads the SDK only then.
 */
export function startErrorReporting(options: { dsn: () => Promise<string | null>; release: string; userId: () => string | undefined }): void {
  errorReporting.start(async () => {
    const dsn = await options.dsn();
    if (!dsn) return null;
    const { createSentryReporter } = await import('./sentry.ts');
    return createSentryReporter({ dsn, release: options.release, userId: options.userId });
  });
}

export const reportError = (error: unknown): Promise<boolean> => errorReporting.report(error);
