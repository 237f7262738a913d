/** What an unexpected error is reported with (never a header, a body, an email address or a file). */
export interface ReportContext {
  /** The request's id (x-request-id), also on the job a request queued. */
  requestId?: string | null;
  /** The acting user's id (no email). */
  userId?: string;
  /** The HTTP method and the route's pattern (/v1/templates/:id), never the URL with its query. */
  method?: string;
  route?: string;
  status?: number;
  jobId?: string;
  jobKind?: string;
  attempt?: number;
}

export interface ErrorReporter {
  /** False when no SENTRY_DSN is set: report() does nothing and nothing leaves the machine. */
  readonly enabled: boolean;
  report(error: unknown, context?: ReportContext): void;
  /** Resolves once what was reported has been handed to the service (at most `timeoutMs`). */
  flush(timeoutMs?: number): Promise<boolean>;
  /** Sends what is queued (at most `timeoutMs`) and stops. */
  close(timeoutMs?: number): Promise<void>;
}

export const NO_REPORTER: ErrorReporter = Object.freeze({
  enabled: false,
  report: () => undefined,
  flush: async () => true,
  close: async () => undefined,
});
