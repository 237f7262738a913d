/**
 * PGlite (PostgreSQL compiled to WebAssembly) as the embedded database: on disk in a folder, or in
 * memory for 'memory://'. PGlite is a single connection, so a transaction must not interleave with
 * other queries: every statement outside a transaction waits in one queue behind open transactions.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import v8 from 'node:v8';
import { PGlite } from '@electric-sql/pglite';
import { lockDataDir } from './lock.ts';
import type { Db, Queryable, SqlValue } from './types.ts';

/** The embedded database; `dumpDataDir` makes a snapshot another instance can start from. */
export interface PgliteDb extends Db {
  dumpDataDir(): Promise<Blob>;
}

/**
 * Sized for the embedded default, one user on one machine: PostgreSQL's 128 MB of shared buffers
 * would be resident for the life of the process (WebAssembly memory never shrinks); 16 MB holds the
 * working set of a desktop's database and keeps `sheaf serve` lean at rest. Start parameters replace
 * PGlite's own, so they are repeated first.
 */
const SINGLE_USER_SETTINGS = ['-c', 'shared_buffers=16MB'];
const PGLITE_DEFAULT_START_PARAMS = (PGlite as unknown as { defaultStartParams?: string[] }).defaultStartParams ?? [];

const run = promisify(execFile);

/**
 * PGlite's WebAssembly runs on V8's baseline compiler (Liftoff) only. By default V8 also recompiles the
 * hot functions of its ~10 MB module with the optimising compiler while the server starts: on 2 busy
 * cores that doubled the time to open the database (1.5 s against 2.8 s at a load of 14) and the
 * optimised code stayed resident (~50 MB more RSS at rest), while a single user's queries ran no
 * slower measurably (3,000 inserts and 1,000 lookups: the protocol in JavaScript dominates).
 * V8 reads the flag when it compiles a module; it applies to the whole process, which compiles no
 * other WebAssembly at start.
 */
const BASELINE_WASM_ONLY = '--liftoff-only';
let baselineWasmSet = false;
function useBaselineWasm(): void {
  if (baselineWasmSet) return;
  v8.setFlagsFromString(BASELINE_WASM_ONLY);
  baselineWasmSet = true;
}

/**
 * Creating a cluster (initdb) grows PGlite's WebAssembly memory to some 700 MB, which the process
 * would then hold for good. A short-lived child process does it instead and exits, giving it all back;
 * the server then opens the ready cluster at its small steady size.
 */
async function initdbInChildProcess(dataDir: string): Promise<void> {
  const pglite = import.meta.resolve('@electric-sql/pglite');
  const script = `const { PGlite } = await import(${JSON.stringify(pglite)}); const db = await PGlite.create({ dataDir: process.argv[1] }); await db.close();`;
  await run(process.execPath, [BASELINE_WASM_ONLY, '--input-type=module', '-e', script, dataDir], { env: { ...process.env, NODE_OPTIONS: '' } });
}

/** `loadDataDir`: start from a snapshot (dumpDataDir) instead of an empty cluster (tests: much faster). */
export async function openPglite(dataDir: string, options: { loadDataDir?: Blob } = {}): Promise<PgliteDb> {
  const inMemory = dataDir === 'memory://';
  if (!inMemory) mkdirSync(dataDir, { recursive: true });
  const unlock = inMemory ? async () => undefined : await lockDataDir(dataDir);
  let lite: PGlite;
  useBaselineWasm();
  try {
    if (!inMemory && !options.loadDataDir && !existsSync(path.join(dataDir, 'PG_VERSION'))) await initdbInChildProcess(dataDir);
    lite = await PGlite.create({
      ...(inMemory ? {} : { dataDir }),
      ...(options.loadDataDir ? { loadDataDir: options.loadDataDir } : {}),
      startParams: [...PGLITE_DEFAULT_START_PARAMS, ...SINGLE_USER_SETTINGS],
    });
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
