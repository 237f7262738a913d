/**
 * The last errors this tab met (never sent by themselves): failed API calls with the server's request
 * id, and pages that failed to render. A support request carries them when the user ticks "attach recent
 * error details" and sees exactly what goes (docs/support.md). Kept in memory and mirrored in the tab's
 * sessionStorage, so the reload an error screen offers does not lose them; gone when the tab closes or
 * the user signs out.
 */
import { RECENT_ERRORS_MAX, RecentErrorSchema, type RecentError } from '@sheaf/shared';
import type { ApiError } from './apiError.ts';
import type { KeyValueStorage } from './session.ts';

export const RECENT_ERRORS_KEY = 'sheaf.recentErrors';

/** The tab's sessionStorage, when the browser allows it. */
function tabStorage(): KeyValueStorage | undefined {
  try {
    return typeof sessionStorage !== 'undefined' ? sessionStorage : undefined;
  } catch {
    return undefined;
  }
}

const MAX_MESSAGE = 300;

/** The app's path without query or fragment (a reset token or a search must not travel). */
function currentPage(): string | undefined {
  return typeof location !== 'undefined' ? location.pathname.slice(0, 300) : undefined;
}

export class RecentErrors {
  private readonly entries: RecentError[] = [];
  private readonly listeners = new Set<() => void>();

  constructor(
    private readonly max = RECENT_ERRORS_MAX,
    private readonly now: () => Date = () => new Date(),
    private readonly page: () => string | undefined = currentPage,
    private readonly storage: KeyValueStorage | undefined = undefined,
  ) {
    this.entries.push(...this.load());
  }

  /** What an earlier page of this tab kept (anything malformed is dropped). */
  private load(): RecentError[] {
    try {
      const kept: unknown = JSON.parse(this.storage?.getItem(RECENT_ERRORS_KEY) ?? '[]');
      return Array.isArray(kept) ? kept.flatMap((entry) => { const parsed = RecentErrorSchema.safeParse(entry); return parsed.success ? [parsed.data] : []; }).slice(-this.max) : [];
    } catch {
      return [];
    }
  }

  private save(): void {
    try {
      if (this.entries.length) this.storage?.setItem(RECENT_ERRORS_KEY, JSON.stringify(this.entries));
      else this.storage?.removeItem(RECENT_ERRORS_KEY);
    } catch {
      // A full or refused storage: memory still has them.
    }
  }

  /** A failed call (not a cancelled one: the caller gave up, nothing failed). */
  addApiError(error: ApiError, call: string): void {
    if (error.isCancelled) return;
    this.add({
      at: this.now().toISOString(),
      kind: 'api',
      code: error.code.slice(0, 100),
      status: error.status,
      call: call.slice(0, 100),
      ...(error.requestId ? { requestId: error.requestId.slice(0, 128) } : {}),
    });
  }

  /** A page that failed to render (or another error the app caught and reports). */
  addFailure(error: unknown): void {
    const name = error instanceof Error ? error.name || 'Error' : typeof error;
    const message = error instanceof Error ? error.message : String(error);
    this.add({ at: this.now().toISOString(), kind: 'render', code: name.slice(0, 100), message: message.slice(0, MAX_MESSAGE) });
  }

  private add(entry: RecentError): void {
    const page = this.page();
    this.entries.push(page ? { ...entry, page } : entry);
    if (this.entries.length > this.max) this.entries.splice(0, this.entries.length - this.max);
    this.save();
    this.listeners.forEach((listener) => listener());
  }

  /** Oldest first, at most `max`. */
  list(): RecentError[] {
    return this.entries.map((entry) => ({ ...entry }));
  }

  /** The request id of the latest failed call that has one. */
  latestRequestId(): string | undefined {
    return [...this.entries].reverse().find((entry) => entry.requestId)?.requestId;
  }

  clear(): void {
    this.entries.length = 0;
    this.save();
    this.listeners.forEach((listener) => listener());
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}

/** This tab's errors. */
export const recentErrors = new RecentErrors(RECENT_ERRORS_MAX, () => new Date(), currentPage, tabStorage());
