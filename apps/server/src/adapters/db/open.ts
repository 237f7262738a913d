/** Opens the configured database: PostgreSQL when DATABASE_URL is set, else embedded PGlite. */
import path from 'node:path';
import type { Config } from '../../config.ts';
import { openPglite } from './pglite.ts';
import { openPostgres } from './postgres.ts';
import type { Db } from './types.ts';

export async function openDb(config: Pick<Config, 'DATABASE_URL' | 'DATA_DIR'>): Promise<Db> {
  const url = config.DATABASE_URL;
  if (url && url !== 'memory://') return openPostgres(url);
  return openPglite(url === 'memory://' ? 'memory://' : path.join(config.DATA_DIR, 'db'));
}
