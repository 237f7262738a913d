/**
 * A server stopped in the middle of a merge: the next server on the same data makes the merge again
 * from the start (charged once), and a merge whose job record is gone ends in merge/interrupted.
 * Nothing stays "generating".
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { rmSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPglite, type PgliteDb } from '../src/adapters/db/pglite.ts';
import { startServer, type RunningServer } from '../src/boot.ts';
import { loadConfig, type ConfigOverrides } from '../src/config.ts';
import { createPostgresDatabase, forEachDatabase, startTestServer, type InjectOptions, type TestDatabase } from './harness.ts';
import {
  counterOf, download, getMerge, mergeRequest, peopleCsv, setPlan, startMerge, templateWithSheet, waitForMerge, type MergeServer,
} from './merge-support.ts';

const ROWS = 600;

forEachDatabase((database: TestDatabase) => {
  describe('merges across a restart', () => {
    let dataDir: string;
    let databaseUrl: string | undefined;
    let dropDatabase: (() => Promise<void>) | undefined;
    let shared: ConfigOverrides;

    beforeAll(async () => {
      dataDir = await mkdtemp(path.join(tmpdir(), 'sheaf-restart-'));
      if (database === 'postgres') {
        const created = await createPostgresDatabase();
        databaseUrl = created.url;
        dropDatabase = created.drop;
      }
      // Both servers share the files, the secret key and (on PostgreSQL) the database.
      shared = { DATA_DIR: dataDir, SECRET_KEY: randomBytes(32).toString('base64url'), ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}) };
    });
    afterAll(async () => {
      await dropDatabase?.();
      await rm(dataDir, { recursive: true, force: true });
    });

    it('finishes an interrupted merge after the restart, and ends one whose job is gone', async () => {
      const first = await startTestServer({ database, config: shared });
      const user = await first.signUp();
      await setPlan(first, user.uid, 'Enterprise');
      // Per-row passwords: every document costs a key derivation, so the merge is still running when stopped.
      const big = await templateWithSheet(first, user.token, peopleCsv(ROWS));
      const interrupted = mergeRequest({ passwordProtection: { readPassword: 'open{{Code}}', modifyPassword: 'Owner123' } });
      expect((await startMerge(first, user.token, big, interrupted)).status).toBe(202);
      // A second merge waits behind it (one merge at a time); its job record will be lost.
      const other = await templateWithSheet(first, user.token, peopleCsv(3), undefined, 'Other.pdf');
      const orphan = mergeRequest();
      expect((await startMerge(first, user.token, other, orphan)).status).toBe(202);
      const midway = await waitForMerge(first, user.token, big, interrupted.mergeId, (merge) => merge.status === 'generating' && merge.done > 0);
      expect(midway.done).toBeLessThan(ROWS);

      // Stop abruptly: the running job is abandoned, not finished.
      await first.ctx.jobs.stop();
      expect((await getMerge(first, user.token, big, interrupted.mergeId)).status).toBe('generating');
      expect((await getMerge(first, user.token, other, orphan.mergeId)).status).toBe('queued');
      await first.ctx.db.query('DELETE FROM jobs WHERE id = $1', [orphan.mergeId]);
      // PGlite runs in memory in tests: carry its data over as a disk would.
      const snapshot = database === 'pglite' ? await (first.ctx.db as PgliteDb).dumpDataDir() : undefined;
      await first.close();

      const second = await restart(shared, snapshot);
      try {
        const lost = await waitForMerge(second, user.token, other, orphan.mergeId);
        expect(lost).toMatchObject({ status: 'error', error: { code: 'merge/interrupted' }, downloadUrl: null });

        const done = await waitForMerge(second, user.token, big, interrupted.mergeId, undefined, 120_000);
        expect(done).toMatchObject({ status: 'completed', total: ROWS, done: ROWS, error: null });
        expect(await counterOf(second, user.uid)).toBe(ROWS);
        const zip = await download(second, done.downloadUrl!);
        expect(zip.status).toBe(200);
        const entries = listZip(zip.bytes);
        expect(entries).toHaveLength(ROWS);
        expect(new Set(entries).size).toBe(ROWS);
      } finally {
        await second.close();
      }
    });
  });
});

/** A new server process on the same data (the same DATA_DIR, and database or PGlite snapshot). */
async function restart(shared: ConfigOverrides, snapshot: Blob | undefined): Promise<MergeServer & Pick<RunningServer, 'close'>> {
  const config = loadConfig({}, { PORT: 0, HOST: '127.0.0.1', MIN_RESPONSE_MS: 0, LOG_LEVEL: 'error', DATABASE_URL: 'memory://', ...shared });
  const db = snapshot ? await openPglite('memory://', { loadDataDir: snapshot }) : undefined;
  const server = await startServer(config, { db });
  const inject = async (method: string, urlPath: string, options: InjectOptions = {}) => {
    const response = await server.app.inject({
      method: method as 'GET',
      url: `/v1${urlPath}`,
      headers: options.token ? { authorization: `Bearer ${options.token}` } : {},
    });
    const raw = response.rawPayload;
    return {
      status: response.statusCode,
      json: String(response.headers['content-type'] ?? '').includes('json') ? (JSON.parse(raw.toString('utf8')) as unknown) : undefined,
      body: new Uint8Array(raw),
      headers: response.headers,
    };
  };
  return { ctx: server.ctx, url: server.url, inject, close: server.close };
}

function listZip(bytes: Buffer): string[] {
  const file = path.join(tmpdir(), `sheaf-restart-${randomBytes(6).toString('hex')}.zip`);
  writeFileSync(file, bytes);
  try {
    return execFileSync('unzip', ['-Z1', file], { encoding: 'utf8' }).split('\n').filter(Boolean);
  } finally {
    rmSync(file, { force: true });
  }
}
