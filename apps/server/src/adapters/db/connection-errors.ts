/**
 * Errors that say the database connection went away (a restart, a failover, a network cut), not that
 * a statement was wrong: what is worth writing again once the database answers.
 */

/** Node socket errors on the way to the server. */
const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);
/** PostgreSQL: admin_shutdown, crash_shutdown, cannot_connect_now, too_many_connections. */
const SERVER_CODES = new Set(['57P01', '57P02', '57P03', '53300']);
/** Messages of pg (node-postgres) when the connection ended under a query or before one. */
const PG_MESSAGES = /^(Connection terminated|Client has encountered a connection error|Client was closed and is not queryable|timeout exceeded when trying to connect)/;

export function isConnectionError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && (SOCKET_CODES.has(code) || SERVER_CODES.has(code) || code.startsWith('08'))) return true;
  return PG_MESSAGES.test(error.message);
}

/**
 * Runs `write` until it is not refused for a lost connection (waits 100 ms, doubling up to 2 s), for at
 * most `maxMs`; any other error, or the last one, is thrown.
 */
export async function whenDatabaseAnswers<T>(write: () => Promise<T>, maxMs: number): Promise<T> {
  const until = Date.now() + maxMs;
  for (let wait = 100; ; wait = Math.min(wait * 2, 2_000)) {
    try {
      return await write();
    } catch (error) {
      if (!isConnectionError(error) || Date.now() + wait > until) throw error;
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }
}
