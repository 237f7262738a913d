/**
 * The request or job the current code runs for (AsyncLocalStorage). The HTTP layer opens a scope per
 * request, the runners one per job; the logger stamps every line with it (http/logger.ts), and
 * enqueue stores the request id with the jobs a request queues.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

export interface RequestScope {
  requestId?: string | null;
  jobId?: string;
  jobKind?: string;
  /** The user a request acts for, once its token is checked (error reports name them by id). */
  actorId?: string;
}

const storage = new AsyncLocalStorage<RequestScope>();

export function runInScope<T>(scope: RequestScope, work: () => T): T {
  return storage.run(scope, work);
}

export function currentScope(): RequestScope | undefined {
  return storage.getStore();
}

export function currentRequestId(): string | null {
  return storage.getStore()?.requestId ?? null;
}
