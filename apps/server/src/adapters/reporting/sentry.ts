/**
 * Reports through the official Sentry SDK (@sentry/node), loaded only when SENTRY_DSN is set. The client
 * is this process's own (not the SDK's global one and without its OpenTelemetry set-up): it sends only
 * what report() hands it, so nothing is instrumented or captured behind our back.
 */
import { NodeClient, Scope, dedupeIntegration, defaultStackParser, linkedErrorsIntegration, makeNodeTransport } from '@sentry/node';
import { scrubEvent, type Scrubbers } from './scrub.ts';
import type { ErrorReporter, ReportContext } from './types.ts';

export interface SentryOptions {
  dsn: string;
  release: string;
  environment: string;
  scrubbers: Scrubbers;
}

export function sentryReporter(options: SentryOptions): ErrorReporter {
  const client = new NodeClient({
    dsn: options.dsn,
    release: options.release,
    environment: options.environment,
    transport: makeNodeTransport,
    stackParser: defaultStackParser,
    integrations: [linkedErrorsIntegration(), dedupeIntegration()],
    // Nothing of a request or a user but what report() sets (the scrub in beforeSend is the second line).
    dataCollection: { userInfo: false, cookies: false, httpHeaders: false, httpBodies: [], urlQueryParams: false, stackFrameVariables: false, frameContextLines: 0 },
    maxBreadcrumbs: 0,
    sendClientReports: false,
    beforeSend: (event) => scrubEvent(event, options.scrubbers),
  });
  client.init();
  return {
    enabled: true,
    report(error: unknown, context: ReportContext = {}): void {
      const scope = new Scope();
      scope.setClient(client);
      if (context.requestId) scope.setTag('request_id', context.requestId);
      if (context.jobKind) scope.setTag('job_kind', context.jobKind);
      if (context.jobId) scope.setTag('job_id', context.jobId);
      if (context.route) scope.setTag('route', `${context.method ?? ''} ${context.route}`.trim());
      if (context.status !== undefined) scope.setTag('status', context.status);
      if (context.userId) scope.setUser({ id: context.userId });
      if (context.attempt !== undefined) scope.setContext('job', { attempt: context.attempt });
      scope.captureException(error);
    },
    async flush(timeoutMs = 2000): Promise<boolean> {
      return client.flush(timeoutMs);
    },
    async close(timeoutMs = 2000): Promise<void> {
      await client.close(timeoutMs);
    },
  };
}
