/**
 * A merge made in ranges, its server stopped with some ranges finished and others not: the next
 * server on the same data makes the unfinished ranges (a finished range run again only counts) and
 * assembles every row's document once, charged once; the merge is not taken for stranded while its
 * range jobs remain.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { rmSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openPglite, type PgliteDb } from '../src/adapters/db/pglite.ts';
import { startServer, type RunningServer } from '../src/boot.ts';
import { loadConfig, type ConfigOverrides } from '../src/config.ts';
import { createPostgresDatabase, forEachDatabase, startTestServer, type InjectOptions, type TestDatabase } from './harness.ts';
import { counterOf, download, mergeRequest, peopleCsv, setPlan, startMerge, templateWithSheet, waitForMerge, type MergeServer } from './merge-support.ts';

const ROWS = 120;
const RANGE_ROWS = 10;

forEachDatabase((database: TestDatabase) => {
  describe('a merge made in ranges across a restart', () => {
    let dataDir: string;
    let dropDatabase: (() => Promise<void>) | undefined;
    let shared: ConfigOverrides;

    beforeAll(async () => {
      dataDir = await mkdtemp(path.join(tmpdir(), 'sheaf-ranges-restart-'));
      let databaseUrl: string | undefined;
      if (database === 'postgres') {
        const created = await createPostgresDatabase();
        databaseUrl = created.url;
        dropDatabase = created.drop;
      }
      shared = {
        DATA_DIR: dataDir, SECRET_KEY: randomBytes(32).toString('base64url'), MERGE_RANGE_ROWS: RANGE_ROWS, MERGE_CONCURRENCY: 2,
        ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
      };
    });
    afterAll(async () => {
      await dropDatabase?.();
      await rm(dataDir, { recursive: true, force: true });
    });

    it('makes the unfinished ranges after the restart and assembles every document once', async () => {
      const first = await startTestServer({ database, config: shared });
      const user = await first.signUp();
      await setPlan(first, user.uid, 'Enterprise');
      const templateId = await templateWithSheet(first, user.token, peopleCsv(ROWS));
      // Per-row passwords: every document costs a key derivation, so ranges are still running when stopped.
      const request = mergeRequest({ passwordProtection: { readPassword: 'open{{Code}}', modifyPassword: 'Owner123' } });
      expect((await startMerge(first, user.token, templateId, request)).status).toBe(202);
      const finishedRanges = () => first.ctx.db.query<{ range_index: number }>('SELECT range_index FROM merge_ranges WHERE merge_id = $1 AND finished', [request.mergeId]);
      await vi.waitFor(async () => {
        if ((await finishedRanges()).length === 0) throw new Error('no range finished yet');
      }, { timeout: 60_000, interval: 20 });
      await first.ctx.jobs.stop();
      const finishedBefore = (await finishedRanges()).map((range) => range.range_index);
      expect(finishedBefore.length).toBeLessThan(ROWS / RANGE_ROWS);
      // One finished range as if its process died after recording the range, before closing its job: it runs again.
      const replayed = finishedBefore[0]!;
      await first.ctx.db.query(`UPDATE jobs SET status = 'queued' WHERE id = $1`, [`${request.mergeId}-range-${replayed}`]);
      const snapshot = database === 'pglite' ? await (first.ctx.db as PgliteDb).dumpDataDir() : undefined;
      await first.close();

      const second = await restart(shared, snapshot);
      try {
        const done = await waitForMerge(second, user.token, templateId, request.mergeId, undefined, 120_000);
        expect(done).toMatchObject({ status: 'completed', total: ROWS, done: ROWS, error: null });
        expect(await counterOf(second, user.uid)).toBe(ROWS);
        const zip = await download(second, done.downloadUrl!);
        expect(zip.status).toBe(200);
        const entries = listZip(zip.bytes);
        expect(entries).toHaveLength(ROWS);
        expect(new Set(entries).size).toBe(ROWS);
        // Every range job ended done; the replayed range ran twice and its documents count once (above).
        const rangeJobs = () => second.ctx.db.query<{ index: number; attempts: number; status: string }>(
          `SELECT (payload->>'index')::int AS index, attempts, status FROM jobs WHERE kind = 'merge-range' AND payload->>'mergeId' = $1`,
          [request.mergeId],
        );
        // The last range completes the merge, then its runner closes its job record.
        await vi.waitFor(async () => expect((await rangeJobs()).map((job) => job.status)).toEqual(Array(ROWS / RANGE_ROWS).fill('done')), { timeout: 10_000, interval: 50 });
        const jobs = await rangeJobs();
        expect(jobs.find((job) => job.index === replayed)!.attempts).toBe(2);
      } finally {
        await second.close();
      }
    }, 180_000);
  });
});

/** A new server process on the same data (the same DATA_DIR, and database or PGlite snapshot). */
async function restart(shared: ConfigOverrides, snapshot: Blob | undefined): Promise<MergeServer & Pick<RunningServer, 'close'>> {
  const config = loadConfig({}, { PORT: 0, HOST: '127.0.0.1', MIN_RESPONSE_MS: 0, LOG_LEVEL: 'error', DATABASE_URL: 'memory://', ...shared });
  const db = snapshot ? await openPglite('memory://', { loadDataDir: snapshot }) : undefined;
  const server = await startServer(config, { db });
  const inject = async (method: string, urlPath: string, options: InjectOptions = {}) => {
    const response = await server.app.inject({ method: method as 'GET', url: `/v1${urlPath}`, headers: options.token ? { authorization: `Bearer ${options.token}` } : {} });
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
  const file = path.join(tmpdir(), `sheaf-ranges-restart-${randomBytes(6).toString('hex')}.zip`);
  writeFileSync(file, bytes);
  try {
    return execFileSync('unzip', ['-Z1', file], { encoding: 'utf8' }).split('\n').filter(Boolean);
  } finally {
    rmSync(file, { force: true });
  }
}
