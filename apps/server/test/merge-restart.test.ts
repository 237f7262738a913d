/**
 * A server stopped in the middle of a merge: the next server on the same data goes on from the
 * documents the first one wrote (its progress never goes back, those documents are not made again,
 * the ZIP holds every row's document once, charged once), and a merge whose job record is gone ends in
 * merge/interrupted. Nothing stays "generating".
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PgliteDb } from '../src/adapters/db/pglite.ts';
import type { ConfigOverrides } from '../src/config.ts';
import { createPostgresDatabase, forEachDatabase, startTestServer, type TestDatabase } from './harness.ts';
import { counterOf, download, getMerge, mergeRequest, peopleCsv, setPlan, startMerge, templateWithSheet, waitForMerge } from './merge-support.ts';
import { inZip, restart } from './restart-support.ts';

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

    it('resumes an interrupted merge after the restart from the documents written, and ends one whose job is gone', async () => {
      const first = await startTestServer({ database, config: shared });
      const user = await first.signUp();
      await setPlan(first, user.uid, 'Enterprise');
      // Per-row passwords: every document costs a key derivation, so the merge is still running when stopped.
      const big = await templateWithSheet(first, user.token, peopleCsv(ROWS));
      const interrupted = mergeRequest({ fileNamePattern: '{{Last}}-{{First}}', passwordProtection: { readPassword: 'open{{Code}}', modifyPassword: 'Owner123' } });
      expect((await startMerge(first, user.token, big, interrupted)).status).toBe(202);
      // A second merge waits behind it (one merge at a time); its job record will be lost.
      const other = await templateWithSheet(first, user.token, peopleCsv(3), undefined, 'Other.pdf');
      const orphan = mergeRequest();
      expect((await startMerge(first, user.token, other, orphan)).status).toBe(202);
      const midway = await waitForMerge(first, user.token, big, interrupted.mergeId, (merge) => merge.status === 'generating' && merge.done >= ROWS / 6);
      expect(midway.done).toBeLessThan(ROWS);

      // Stop abruptly: the running job is abandoned, not finished.
      await first.ctx.jobs.stop();
      const stopped = await getMerge(first, user.token, big, interrupted.mergeId);
      expect(stopped.status).toBe('generating');
      const reached = stopped.done;
      expect(reached).toBeGreaterThan(0);
      expect((await getMerge(first, user.token, other, orphan.mergeId)).status).toBe('queued');
      await first.ctx.db.query('DELETE FROM jobs WHERE id = $1', [orphan.mergeId]);
      // PGlite runs in memory in tests: carry its data over as a disk would.
      const snapshot = database === 'pglite' ? await (first.ctx.db as PgliteDb).dumpDataDir() : undefined;
      await first.close();

      const logged: Array<Record<string, unknown>> = [];
      const second = await restart(shared, snapshot, logged);
      try {
        // From its first answer on, the second server shows at least the progress the first one reached.
        const seen: number[] = [];
        const done = await waitForMerge(second, user.token, big, interrupted.mergeId, (merge) => (seen.push(merge.done), merge.status !== 'generating'), 120_000);
        expect(Math.min(...seen)).toBeGreaterThanOrEqual(reached);
        expect(done).toMatchObject({ status: 'completed', total: ROWS, done: ROWS, error: null });
        // The documents written before the stop are not made again: the second run makes only the rest.
        const resumed = logged.find((line) => line.msg === 'merge resumed' && line.mergeId === interrupted.mergeId);
        expect(resumed?.documents).toBeGreaterThanOrEqual(reached);
        const written = logged.find((line) => line.msg === 'merge documents written' && line.mergeId === interrupted.mergeId);
        expect(written).toMatchObject({ documents: ROWS, made: ROWS - (resumed!.documents as number) });

        const lost = await waitForMerge(second, user.token, other, orphan.mergeId);
        expect(lost).toMatchObject({ status: 'error', error: { code: 'merge/interrupted' }, downloadUrl: null });

        expect(await counterOf(second, user.uid)).toBe(ROWS);
        const zip = await download(second, done.downloadUrl!);
        expect(zip.status).toBe(200);
        // Every row's own document once, in a ZIP whose every entry checks out (CRC, sizes, directory).
        inZip(zip.bytes, (entries, textOf) => {
          expect(entries).toHaveLength(ROWS);
          expect(new Set(entries)).toEqual(new Set(Array.from({ length: ROWS }, (_, i) => `Family${i + 1}-Given${i + 1}.pdf`)));
          // A document made before the stop and one made after: each opens with its row's password and holds its row.
          for (const n of [1, ROWS]) expect(textOf(`Family${n}-Given${n}.pdf`, `openC${n}`)).toContain(`Given${n}`);
        });
        expect(await readdir(path.join(dataDir, 'tmp'))).toEqual([]);
      } finally {
        await second.close();
      }
    }, 300_000);
  });
});
