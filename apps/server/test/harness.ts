/**
 * The integration-test harness: a real server (real database, real files, real HTTP) per test file.
 *
 *   forEachDatabase((db) => { ... })   the describe block runs on 'pglite' and on 'postgres'
 *   const server = await startTestServer({ database: db, config: { ... } })
 *   await server.inject('POST', '/users/login', { body: {...} })   // paths without /v1
 *
 * PostgreSQL: a fresh database sheaf_test_<random> per server on the local cluster (dropped on close);
 * an unreachable cluster fails loudly unless SHEAF_SKIP_POSTGRES=1. PGlite runs in memory. Each server
 * has its own temporary DATA_DIR, listens on a free port (`url`, also its PUBLIC_URL) and answers
 * without a minimum delay.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { FastifyBaseLogger } from 'fastify';
import { describe } from 'vitest';
import { loadConfig, type Config, type ConfigOverrides } from '../src/config.ts';
import { startServer, type RunningServer, type StartOptions } from '../src/boot.ts';
import { openPglite } from '../src/adapters/db/pglite.ts';
import { migrate, MIGRATIONS_DIR } from '../src/adapters/db/migrate.ts';
import type { Db } from '../src/adapters/db/types.ts';

export type TestDatabase = 'pglite' | 'postgres';

const ADMIN_URL = process.env.SHEAF_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const skipPostgres = process.env.SHEAF_SKIP_POSTGRES === '1';

/** Runs the describe block once per database kind. */
export function forEachDatabase(body: (database: TestDatabase) => void): void {
  describe('pglite', () => body('pglite'));
  (skipPostgres ? describe.skip : describe)('postgres', () => body('postgres'));
}

export interface InjectOptions {
  token?: string;
  body?: unknown;
  query?: Record<string, string | number | boolean>;
  headers?: Record<string, string>;
  /** Sent as multipart/form-data, field "file". */
  file?: { name: string; bytes: Uint8Array; type: string };
}

export interface InjectResponse {
  status: number;
  /** The parsed body when it is JSON, else undefined. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  json: any;
  body: Uint8Array;
  headers: Record<string, string | string[] | number | undefined>;
}

export interface TestAccount {
  token: string;
  refreshToken: string;
  uid: string;
  email: string;
  password: string;
}

export interface TestServer extends Pick<RunningServer, 'app' | 'ctx' | 'url'> {
  config: Config;
  inject(method: string, path: string, options?: InjectOptions): Promise<InjectResponse>;
  /** Registers an account (POST /users/register) and returns its session. */
  signUp(email?: string): Promise<TestAccount>;
  close(): Promise<void>;
}

export const TEST_PASSWORD = 'Sheaf-test-passw0rd!';

export async function startTestServer(options: { database: TestDatabase; config?: ConfigOverrides; log?: FastifyBaseLogger; jobOptions?: StartOptions['jobOptions'] }): Promise<TestServer> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'sheaf-test-'));
  const cleanups: Array<() => Promise<void>> = [() => rm(dataDir, { recursive: true, force: true })];
  try {
    let databaseUrl = 'memory://';
    let db: Db | undefined;
    if (options.database === 'postgres') {
      // A DATABASE_URL in the overrides names a PostgreSQL server of the test's own (postgres-restart.test.ts).
      if (!options.config?.DATABASE_URL) {
        const created = await createPostgresDatabase();
        databaseUrl = created.url;
        cleanups.push(created.drop);
      }
    } else {
      db = await openPglite('memory://', { loadDataDir: await migratedPgliteSnapshot() });
    }
    const config = loadConfig(
      {},
      {
        DATA_DIR: dataDir,
        DATABASE_URL: databaseUrl,
        // Any free port; PUBLIC_URL then names the port actually used.
        PORT: 0,
        HOST: '127.0.0.1',
        SECRET_KEY: randomBytes(32).toString('base64url'),
        MIN_RESPONSE_MS: 0,
        LOG_LEVEL: 'error',
        // No bounce listener unless a test asks for one (0 = any free port).
        INBOUND_SMTP_PORT: null,
        ...options.config,
      },
    );
    const server = await startServer(config, { db, ...(options.log ? { log: options.log } : {}), ...(options.jobOptions ? { jobOptions: options.jobOptions } : {}) });
    cleanups.push(() => server.close());
    let counter = 0;

    const inject = async (method: string, urlPath: string, request: InjectOptions = {}): Promise<InjectResponse> => {
      const headers: Record<string, string> = { ...request.headers };
      if (request.token) headers.authorization = `Bearer ${request.token}`;
      let payload: string | Buffer | undefined;
      if (request.file) {
        const multipart = multipartBody(request.file);
        payload = multipart.body;
        headers['content-type'] = multipart.contentType;
      } else if (request.body !== undefined) {
        payload = JSON.stringify(request.body);
        headers['content-type'] ??= 'application/json';
      }
      const query = request.query ? Object.fromEntries(Object.entries(request.query).map(([key, value]) => [key, String(value)])) : undefined;
      const response = await server.app.inject({
        method: method.toUpperCase() as 'GET',
        url: `/v1${urlPath}`,
        headers,
        ...(query ? { query } : {}),
        ...(payload !== undefined ? { payload } : {}),
      });
      const type = String(response.headers['content-type'] ?? '');
      const raw = response.rawPayload;
      return {
        status: response.statusCode,
        json: type.includes('json') && raw.length ? JSON.parse(raw.toString('utf8')) : undefined,
        body: new Uint8Array(raw.buffer, raw.byteOffset, raw.byteLength),
        headers: response.headers,
      };
    };

    const signUp = async (email?: string): Promise<TestAccount> => {
      counter += 1;
      const address = email ?? `user${counter}-${randomBytes(4).toString('hex')}@example.com`;
      const response = await inject('POST', '/users/register', {
        body: { firstName: 'Test', lastName: `User ${counter}`, email: address, password: TEST_PASSWORD, confirmPassword: TEST_PASSWORD },
      });
      if (response.status !== 201) throw new Error(`signUp(${address}) failed: ${response.status} ${JSON.stringify(response.json)}`);
      const { token, refreshToken, uid, email: stored } = response.json as Omit<TestAccount, 'password'>;
      return { token, refreshToken, uid, email: stored, password: TEST_PASSWORD };
    };

    let closing: Promise<void> | undefined;
    const close = () => (closing ??= runAll(cleanups));
    return { app: server.app, ctx: server.ctx, url: server.url, config: server.ctx.config, inject, signUp, close };
  } catch (error) {
    await runAll(cleanups);
    throw error;
  }
}

/** Runs cleanups newest first; every one runs even if an earlier one fails. */
async function runAll(cleanups: Array<() => Promise<void>>): Promise<void> {
  const errors: unknown[] = [];
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch((error: unknown) => errors.push(error));
  if (errors.length) throw errors[0];
}

/**
 * A freshly migrated PGlite cluster, made once and kept in the temp folder (keyed by the PGlite
 * version and the migrations' text): starting from it takes a fraction of creating a cluster.
 */
let snapshot: Promise<Blob> | undefined;
function migratedPgliteSnapshot(): Promise<Blob> {
  snapshot ??= (async () => {
    const hash = createHash('sha256');
    const require = createRequire(import.meta.url);
    // The package's entry is dist/index.*; its package.json (not exported) sits one folder up.
    const manifest = path.join(path.dirname(require.resolve('@electric-sql/pglite')), '..', 'package.json');
    hash.update((JSON.parse(await readFile(manifest, 'utf8')) as { version: string }).version);
    for (const name of (await readdir(MIGRATIONS_DIR)).sort()) hash.update(name).update(await readFile(path.join(MIGRATIONS_DIR, name)));
    const file = path.join(tmpdir(), `sheaf-pglite-${hash.digest('hex').slice(0, 16)}.tar`);
    try {
      return new Blob([await readFile(file)]);
    } catch {
      // Not made yet: make it below.
    }
    const db = await openPglite('memory://');
    try {
      await migrate(db);
      const dump = await db.dumpDataDir();
      const temp = `${file}.${randomBytes(6).toString('hex')}`;
      await writeFile(temp, Buffer.from(await dump.arrayBuffer()));
      await rename(temp, file);
      return dump;
    } finally {
      await db.close();
    }
  })();
  return snapshot;
}

/** A fresh, empty database on the local PostgreSQL cluster; `drop` removes it. */
export async function createPostgresDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `sheaf_test_${randomBytes(6).toString('hex')}`;
  await withAdmin(async (admin) => admin.query(`CREATE DATABASE ${name}`));
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: () => withAdmin(async (admin) => admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)),
  };
}

async function withAdmin(work: (client: pg.Client) => Promise<unknown>): Promise<void> {
  const client = new pg.Client({ connectionString: ADMIN_URL, connectionTimeoutMillis: 5_000 });
  try {
    await client.connect();
  } catch (error) {
    throw new Error(
      `PostgreSQL is not reachable at ${ADMIN_URL} (${(error as Error).message}). Start it ` +
        '(pg_ctlcluster --skip-systemctl-redirect <version> main start) or set SHEAF_SKIP_POSTGRES=1 to run on PGlite only.',
    );
  }
  try {
    await work(client);
  } finally {
    await client.end();
  }
}

function multipartBody(file: { name: string; bytes: Uint8Array; type: string }): { body: Buffer; contentType: string } {
  const boundary = `----sheaf${randomBytes(12).toString('hex')}`;
  const safeName = file.name.replace(/["\r\n]/g, '_');
  const head = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${safeName}"\r\nContent-Type: ${file.type}\r\n\r\n`;
  const body = Buffer.concat([Buffer.from(head, 'utf8'), Buffer.from(file.bytes), Buffer.from(`\r\n--${boundary}--\r\n`, 'utf8')]);
  return { body, contentType: `multipart/form-data; boundary=${boundary}` };
}
