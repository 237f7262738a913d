/**
 * PGlite (PostgreSQL compiled to WebAssembly) as the embedded database: on disk in a folder, or in
 * memory for 'memory://'. PGlite is a single connection, so a transaction must not interleave with
 * other queries: every statement outside a transaction waits in one queue behind open transactions.
 */
import { mkdirSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { lockDataDir } from './lock.ts';
import type { Db, Queryable, SqlValue } from './types.ts';

/** The embedded database; `dumpDataDir` makes a snapshot another instance can start from. */
export interface PgliteDb extends Db {
  dumpDataDir(): Promise<Blob>;
}

/** `loadDataDir`: start from a snapshot (dumpDataDir) instead of an empty cluster (tests: much faster). */
export async function openPglite(dataDir: string, options: { loadDataDir?: Blob } = {}): Promise<PgliteDb> {
  const inMemory = dataDir === 'memory://';
  if (!inMemory) mkdirSync(dataDir, { recursive: true });
  const unlock = inMemory ? async () => undefined : await lockDataDir(dataDir);
  let lite: PGlite;
  try {
    lite = await PGlite.create({ ...(inMemory ? {} : { dataDir }), ...(options.loadDataDir ? { loadDataDir: options.loadDataDir } : {}) });
  } catch (error) {
    await unlock();
    throw error;
  }
  let queue: Promise<unknown> = Promise.resolve();

  /** Runs `work` once everything queued before it has finished (whatever its outcome). */
  function exclusive<T>(work: () => Promise<T>): Promise<T> {
    const run = queue.then(work, work);
    queue = run.catch(() => undefined);
    return run;
  }

  const query = async <Row>(sql: string, params: readonly SqlValue[] = []): Promise<Row[]> =>
    (await lite.query<Row>(sql, params as unknown[])).rows;

  return {
    dialect: 'pglite',
    query: (sql, params) => exclusive(() => query(sql, params)),
    exec: (sql) => exclusive(async () => void (await lite.exec(sql))),
    transaction: <T>(work: (tx: Queryable) => Promise<T>) =>
      exclusive(() =>
        lite.transaction(async (tx) => {
          const scoped: Queryable = {
            query: async <Row>(sql: string, params: readonly SqlValue[] = []) => (await tx.query<Row>(sql, params as unknown[])).rows,
            exec: async (sql: string) => void (await tx.exec(sql)),
          };
          return work(scoped);
        }),
      ),
    close: () => exclusive(async () => {
      await lite.close();
      await unlock();
    }),
    dumpDataDir: () => exclusive(async () => (await lite.dumpDataDir('none')) as Blob),
  };
}
