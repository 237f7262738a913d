/**
 * Runs an admin request of a `sheaf` command (users, support): through the running server's admin
 * socket when it holds the embedded database, else on the database directly (PostgreSQL, or PGlite
 * with no server running), migrated first like the server's.
 */
import { loadConfig } from '../config.ts';
import type { AdminRequest } from '../admin/socket.ts';
import type { Db } from '../adapters/db/types.ts';

export async function runAdminRequest(request: AdminRequest, onDatabase: (db: Db) => Promise<string>): Promise<string> {
  // Loaded here, not at the top: every `sheaf` command would otherwise load the database at start-up.
  const [{ migrate, openDb }, { askRunningServer }] = await Promise.all([import('../adapters/db/index.ts'), import('../admin/socket.ts')]);
  const config = loadConfig();
  if (!config.DATABASE_URL) {
    const output = await askRunningServer(config.DATA_DIR, request);
    if (output !== null) return output;
  }
  const db = await openDb(config);
  try {
    await migrate(db);
    return await onDatabase(db);
  } finally {
    await db.close();
  }
}
