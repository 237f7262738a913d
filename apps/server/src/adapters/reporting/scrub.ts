/**
 * The last look at an event before it leaves (beforeSend): only what docs/support.md#error-reports
 * lists goes out. The reporter builds events from the error and the ReportContext alone, so this is the
 * second line: no request data (headers, cookies, query, body), the user by id only, no breadcrumbs,
 * credentials masked in texts, long texts cut (an error message quoting a file's bytes stays short).
 */
import type { ErrorEvent } from '@sentry/node';

/** The log's scrubbers (http/logger.ts: secret fields by name, credentials in strings), handed in at boot. */
export interface Scrubbers {
  text(text: string): string;
  value(value: unknown): unknown;
}

const MAX_TEXT = 500;

const cut = (text: string) => (text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT)}…` : text);

export function scrubEvent<E extends ErrorEvent>(event: E, scrubbers: Scrubbers): E {
  const clean = (text: string | undefined) => (text === undefined ? undefined : cut(scrubbers.text(text)));
  delete event.request;
  delete event.breadcrumbs;
  event.user = event.user?.id !== undefined ? { id: event.user.id } : undefined;
  if (event.message !== undefined) event.message = clean(event.message);
  if (event.logentry?.message !== undefined) event.logentry.message = clean(event.logentry.message);
  for (const exception of event.exception?.values ?? []) {
    exception.value = clean(exception.value);
    // Local variables could hold a user's file or a secret: never sent.
    for (const frame of exception.stacktrace?.frames ?? []) delete frame.vars;
  }
  if (event.extra) event.extra = scrubbers.value(event.extra) as Record<string, unknown>;
  if (event.contexts) event.contexts = scrubbers.value(event.contexts) as E['contexts'];
  return event;
}
