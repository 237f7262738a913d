/**
 * Applies migrations/*.sql in name order, each once, all in one transaction (all or nothing), recorded in
 * schema_migrations. On PostgreSQL an advisory lock keeps two processes starting at once from racing.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Db, Queryable } from './types.ts';

export const MIGRATIONS_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');
// An arbitrary constant naming Sheaf's migration lock.
const LOCK_ID = 7_318_004_213;

/** Applies pending migrations; returns the names applied now (empty when the schema was current). */
export async function migrate(db: Db, dir = MIGRATIONS_DIR): Promise<string[]> {
  const files = (await readdir(dir)).filter((name) => name.endsWith('.sql')).sort();
  return db.transaction(async (tx) => {
    // Transaction-scoped: released by COMMIT/ROLLBACK, so a crash cannot leave it held.
    if (db.dialect === 'postgres') await tx.query('SELECT pg_advisory_xact_lock($1)', [LOCK_ID]);
    await tx.query('CREATE TABLE IF NOT EXISTS schema_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())');
    const done = new Set((await tx.query<{ name: string }>('SELECT name FROM schema_migrations')).map((row) => row.name));
    const applied: string[] = [];
    for (const name of files) {
      if (done.has(name)) continue;
      await execScript(tx, await readFile(path.join(dir, name), 'utf8'));
      await tx.query('INSERT INTO schema_migrations (name) VALUES ($1)', [name]);
      applied.push(name);
    }
    return applied;
  });
}

async function execScript(tx: Queryable, sql: string): Promise<void> {
  if (!tx.exec) throw new Error('this database cannot run migration scripts');
  await tx.exec(sql);
}
