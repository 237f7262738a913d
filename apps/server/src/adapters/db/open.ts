/**
 * Opens the configured database: PostgreSQL when DATABASE_URL is set, else embedded PGlite. Each driver
 * loads only when chosen: the embedded default never loads pg, and PostgreSQL never loads PGlite.
 */
import path from 'node:path';
import type { Config } from '../../config.ts';
import type { Db } from './types.ts';

export async function openDb(config: Pick<Config, 'DATABASE_URL' | 'DATA_DIR'>): Promise<Db> {
  const url = config.DATABASE_URL;
  if (url && url !== 'memory://') return (await import('./postgres.ts')).openPostgres(url);
  const { openPglite } = await import('./pglite.ts');
  return openPglite(url === 'memory://' ? 'memory://' : path.join(config.DATA_DIR, 'db'));
}
