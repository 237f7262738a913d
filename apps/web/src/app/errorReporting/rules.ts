/**
 * What the browser reports (docs/support.md#error-reports): its own failures (a page that fails to
 * render, an uncaught error) and unexpected answers (5xx). Not a cancelled call, a network failure (the
 * user's connection), nor an error the user can act on (a catalogue 4xx): the server's log has those.
 * The quota-exceeded answer (merge/insufficient-credits, 400 in the spec, 402 here) is dropped whatever
 * its status, as the spec says.
 */
import { ApiError } from '../../api/apiError.ts';

export const DROPPED_CODES: ReadonlySet<string> = new Set(['merge/insufficient-credits']);

export function isReportable(error: unknown): boolean {
  if (error instanceof ApiError) {
    if (error.isCancelled || error.isNetwork || DROPPED_CODES.has(error.code)) return false;
    return error.status >= 500;
  }
  // A failed dynamic import (a deploy replaced the chunks) reloads the page: not a bug.
  if (error instanceof Error && /Failed to fetch dynamically imported module|Importing a module script failed/.test(error.message)) return false;
  return true;
}
