/**
 * A full disk, for real: DATA_DIR on a small tmpfs (mounting needs root; the tests and CI run as root).
 * A merge that fills it ends with generic/storage-full (507), nothing charged, tried once, its temporary
 * files gone, and the server answers; once space is freed a merge completes. An upload that finds the
 * disk full answers the same error, not a 500. Below MIN_FREE_MB new merges and uploads are refused.
 * Scratch files a killed process left in DATA_DIR/tmp (and the blob store's old .partial files) are
 * gone once the server has started.
 */
import { execFileSync } from 'node:child_process';
import { appendFileSync, mkdtempSync, rmSync } from 'node:fs';
import { mkdir, readdir, rename, rm, statfs, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startServer } from '../src/boot.ts';
import { loadConfig } from '../src/config.ts';
import { createLogger } from '../src/http/logger.ts';
import { sweepScratch } from '../src/modules/merges/index.ts';
import { startTestServer, type TestServer } from './harness.ts';
import { counterOf, mergeRequest, peopleCsv, setPlan, startMerge, templateWithSheet, waitForMerge, TEMPLATE_PDF } from './merge-support.ts';

const TMPFS_MB = 8;

/** Mounts a tmpfs of `mb` MB on a new folder; undefined (and why) when this machine does not allow it. */
function mountTmpfs(mb: number): { dir: string; unmount: () => void } | { skip: string } {
  const dir = mkdtempSync(path.join(tmpdir(), 'sheaf-full-disk-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${mb}m`, 'tmpfs', dir], { stdio: 'pipe' });
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    const text = String((error as { stderr?: Buffer }).stderr ?? error);
    if (/permission denied|EPERM|only root|must be superuser/i.test(text)) return { skip: `mounting a tmpfs is not allowed here (${text.trim()})` };
    throw error;
  }
  return {
    dir,
    unmount: () => {
      // A file a just-closed server still held may keep the mount busy a moment: try again, then detach it.
      for (let attempt = 0; ; attempt++) {
        try {
          execFileSync('umount', [dir], { stdio: 'pipe' });
          break;
        } catch (error) {
          if (attempt >= 20) {
            execFileSync('umount', ['-l', dir]);
            break;
          }
          if (!/busy/i.test(String((error as { stderr?: Buffer }).stderr ?? error))) throw error;
          Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 250);
        }
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

const probe = mountTmpfs(1);
if ('unmount' in probe) probe.unmount();
const canMount = 'unmount' in probe;
if (!canMount) console.warn(`storage-faults: full-disk tests skipped: ${(probe as { skip: string }).skip}`);

const freeBytes = async (dir: string) => {
  const stats = await statfs(dir);
  return stats.bavail * stats.bsize;
};

/** Writes a filler file until `dir` has at most `leave` bytes free (ENOSPC ends it when leave is 0). */
async function fill(dir: string, leave: number): Promise<string> {
  const filler = path.join(dir, 'filler.bin');
  const block = Buffer.alloc(64 * 1024, 1);
  try {
    while ((await freeBytes(dir)) > leave) appendFileSync(filler, block.subarray(0, Math.min(block.length, Math.max(4096, (await freeBytes(dir)) - leave))));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
  }
  return filler;
}

const tmpFilesOf = async (dataDir: string) => (await readdir(path.join(dataDir, 'tmp')).catch(() => [] as string[]));

describe.skipIf(!canMount)('a full disk (DATA_DIR on a tmpfs)', () => {
  let mounted: { dir: string; unmount: () => void };
  let server: TestServer;
  beforeAll(async () => {
    mounted = mountTmpfs(TMPFS_MB) as { dir: string; unmount: () => void };
    server = await startTestServer({ database: 'pglite', config: { DATA_DIR: mounted.dir, MIN_FREE_MB: 0 } });
  });
  afterAll(async () => {
    await server?.close();
    mounted?.unmount();
  });

  it('a merge that fills the disk ends with generic/storage-full, tried once, nothing charged, nothing left; later merges complete', async () => {
    const user = await server.signUp();
    await setPlan(server, user.uid, 'Pro');
    const rows = 1000; // about 1.5 MB of documents: more than the room left below
    const templateId = await templateWithSheet(server, user.token, peopleCsv(rows));
    const filler = await fill(mounted.dir, 400 * 1024);

    const request = mergeRequest();
    expect((await startMerge(server, user.token, templateId, request)).status).toBe(202);
    const failed = await waitForMerge(server, user.token, templateId, request.mergeId, undefined, 30_000);
    expect(failed.status).toBe('error');
    expect(failed.error).toMatchObject({ code: 'generic/storage-full', message: "The server's storage is full. Please try again later." });
    expect(await counterOf(server, user.uid)).toBe(0);
    // Not a failure to try again: one attempt, the job closed.
    // The runner closes the job record just after the handler has ended the merge.
    const jobOf = async () => (await server.ctx.db.query<{ attempts: number; status: string }>('SELECT attempts, status FROM jobs WHERE id = $1', [request.mergeId]))[0];
    await vi.waitFor(async () => expect(['done', 'failed']).toContain((await jobOf())?.status), { timeout: 10_000, interval: 50 });
    expect(await jobOf()).toMatchObject({ attempts: 1 });
    expect(await tmpFilesOf(mounted.dir)).toEqual([]);
    // The server answers, cancel included.
    expect((await server.inject('GET', '/users/me', { token: user.token })).status).toBe(200);
    expect((await server.inject('PATCH', `/templates/${templateId}/merges/${request.mergeId}/cancel`, { token: user.token })).status).toBeLessThan(500);

    // Combined output (one PDF) the same way.
    const combined = mergeRequest({ isCombinedOutput: true });
    expect((await startMerge(server, user.token, templateId, combined)).status).toBe(202);
    const combinedFailed = await waitForMerge(server, user.token, templateId, combined.mergeId, undefined, 30_000);
    expect(combinedFailed).toMatchObject({ status: 'error', error: { code: 'generic/storage-full' } });
    expect(await counterOf(server, user.uid)).toBe(0);
    expect(await tmpFilesOf(mounted.dir)).toEqual([]);

    // Space freed: the same merge completes and is charged once.
    await rm(filler);
    const again = mergeRequest();
    expect((await startMerge(server, user.token, templateId, again)).status).toBe(202);
    const completed = await waitForMerge(server, user.token, templateId, again.mergeId, undefined, 60_000);
    expect(completed.status, JSON.stringify(completed.error)).toBe('completed');
    expect(await counterOf(server, user.uid)).toBe(rows);
    expect(await tmpFilesOf(mounted.dir)).toEqual([]);
  }, 120_000);

  it('a merge made in ranges that fills the disk ends the same way, its parts gone', async () => {
    const user = await server.signUp();
    await setPlan(server, user.uid, 'Pro');
    const rows = 1000;
    const templateId = await templateWithSheet(server, user.token, peopleCsv(rows));
    const filler = await fill(mounted.dir, 400 * 1024);
    const config = server.ctx.config;
    server.ctx.config = Object.freeze({ ...config, MERGE_RANGE_ROWS: 250 }); // four ranges
    try {
      const request = mergeRequest();
      expect((await startMerge(server, user.token, templateId, request)).status).toBe(202);
      const failed = await waitForMerge(server, user.token, templateId, request.mergeId, undefined, 30_000);
      expect(failed).toMatchObject({ status: 'error', error: { code: 'generic/storage-full' } });
      const [range] = await server.ctx.db.query<{ n: number }>('SELECT count(*)::int AS n FROM merge_ranges WHERE merge_id = $1', [request.mergeId]);
      expect(range!.n, 'the merge was made in ranges').toBeGreaterThan(1);
      const [job] = await server.ctx.db.query<{ attempts: number }>("SELECT max(attempts)::int AS attempts FROM jobs WHERE kind = 'merge-range' AND payload->>'mergeId' = $1", [request.mergeId]);
      expect(job!.attempts).toBe(1);
      expect(await counterOf(server, user.uid)).toBe(0);
      // The ranges still running when one failed stop at their next progress update.
      await vi.waitFor(async () => {
        expect(await tmpFilesOf(mounted.dir)).toEqual([]);
        expect(await readdir(path.join(mounted.dir, 'files', 'merges', request.mergeId, 'parts')).catch(() => [])).toEqual([]);
      }, { timeout: 10_000 });
    } finally {
      server.ctx.config = config;
      await rm(filler);
    }
  }, 60_000);

  it('an upload that finds the disk full answers 507 generic/storage-full, not 500', async () => {
    const user = await server.signUp();
    const filler = await fill(mounted.dir, 0);
    try {
      const upload = await server.inject('POST', '/templates', { token: user.token, file: { name: 'Letter.pdf', bytes: TEMPLATE_PDF, type: 'application/pdf' } });
      expect(upload.status, JSON.stringify(upload.json)).toBe(507);
      expect(upload.json).toMatchObject({ code: 'generic/storage-full' });
    } finally {
      await rm(filler);
    }
    expect((await server.inject('POST', '/templates', { token: user.token, file: { name: 'Letter.pdf', bytes: TEMPLATE_PDF, type: 'application/pdf' } })).status).toBe(201);
  });

  it('below MIN_FREE_MB a merge start and an upload are refused with generic/storage-full', async () => {
    const user = await server.signUp();
    await setPlan(server, user.uid, 'Pro');
    const templateId = await templateWithSheet(server, user.token, peopleCsv(3));
    const config = server.ctx.config;
    server.ctx.config = Object.freeze({ ...config, MIN_FREE_MB: TMPFS_MB + 1 }); // more than the whole tmpfs
    try {
      const request = mergeRequest();
      const refused = await startMerge(server, user.token, templateId, request);
      expect(refused.status).toBe(507);
      expect(refused.json).toMatchObject({ code: 'generic/storage-full' });
      const [row] = await server.ctx.db.query<{ n: number }>('SELECT count(*)::int AS n FROM merges WHERE id = $1', [request.mergeId]);
      expect(row!.n).toBe(0);
      const upload = await server.inject('POST', '/templates', { token: user.token, file: { name: 'Letter.pdf', bytes: TEMPLATE_PDF, type: 'application/pdf' } });
      expect(upload.status).toBe(507);
    } finally {
      server.ctx.config = config;
    }
    const request = mergeRequest();
    expect((await startMerge(server, user.token, templateId, request)).status).toBe(202);
    expect((await waitForMerge(server, user.token, templateId, request.mergeId)).status).toBe('completed');
  });
});

describe.skipIf(!canMount)('the server starts whatever the data folder holds', () => {
  it('a killed merge\'s .zip.partial that filled the disk does not keep the embedded database from opening', async () => {
    const { dir, unmount } = mountTmpfs(200) as { dir: string; unmount: () => void };
    try {
      // The embedded database (PGlite) in DATA_DIR/db, as `sheaf serve` runs it by default.
      const config = loadConfig({}, { DATA_DIR: dir, PORT: 0, LOG_LEVEL: 'silent', INBOUND_SMTP_PORT: null, SECRET_KEY: 'k'.repeat(40), MIN_FREE_MB: 0 });
      await (await startServer(config)).close();
      await mkdir(path.join(dir, 'tmp'), { recursive: true });
      const partial = path.join(dir, 'tmp', 'AbCdEfGhIjKlMnOpQrSt-1.zip.partial');
      await fill(dir, 0).then((filler) => rename(filler, partial)); // the merge's file took every byte left
      expect(await freeBytes(dir)).toBe(0);
      const server = await startServer(config);
      try {
        expect(await readdir(path.join(dir, 'tmp'))).toEqual([]);
        expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
      } finally {
        await server.close();
      }
    } finally {
      unmount();
    }
  }, 120_000);

  it('below MIN_FREE_MB it starts and logs a warning saying new merges and uploads are refused', async () => {
    const { dir, unmount } = mountTmpfs(TMPFS_MB) as { dir: string; unmount: () => void };
    let text = '';
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        text += chunk.toString();
        done();
      },
    });
    try {
      const server = await startTestServer({ database: 'pglite', config: { DATA_DIR: dir, MIN_FREE_MB: 100, LOG_LEVEL: 'warn' }, log: createLogger({ LOG_LEVEL: 'warn' }, stream) });
      try {
        const warning = text.split('\n').filter(Boolean).map((line) => JSON.parse(line) as Record<string, unknown>).find((line) => String(line.msg).includes('free-space floor'));
        expect(warning).toMatchObject({ level: 40, minFreeMb: 100 });
        expect(warning!.freeMb).toBeLessThanOrEqual(TMPFS_MB);
        expect((await server.inject('GET', '/users/me', { token: (await server.signUp()).token })).status).toBe(200);
      } finally {
        await server.close();
      }
    } finally {
      unmount();
    }
  });
});

describe('scratch files nobody owns', () => {
  const MERGE_ID = 'AbCdEfGhIjKlMnOpQrSt';
  let dataDir: string;
  let server: TestServer | undefined;
  beforeAll(() => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'sheaf-stranded-'));
  });
  afterAll(async () => {
    await server?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('are removed at start-up (merge temp files, old blob .partial files); a recent blob .partial stays', async () => {
    const tmp = path.join(dataDir, 'tmp');
    await mkdir(tmp, { recursive: true });
    const stranded = [`${MERGE_ID}-1.zip.partial`, `${MERGE_ID}-1.zip`, `${MERGE_ID}-2.pdf.partial`, `${MERGE_ID}-1.zip.index.jsonl`, `${MERGE_ID}-range-3-1.zip-part.partial`];
    for (const name of stranded) await writeFile(path.join(tmp, name), Buffer.alloc(1024));
    const blobs = path.join(dataDir, 'files', 'merges', MERGE_ID);
    await mkdir(blobs, { recursive: true });
    const oldPartial = path.join(blobs, 'result.zip.abc123.partial');
    const newPartial = path.join(blobs, 'result.zip.def456.partial');
    await writeFile(oldPartial, 'x');
    await writeFile(newPartial, 'x');
    const twoHoursAgo = new Date(Date.now() - 2 * 3600_000);
    await utimes(oldPartial, twoHoursAgo, twoHoursAgo);

    server = await startTestServer({ database: 'pglite', config: { DATA_DIR: dataDir } });
    expect(await readdir(tmp)).toEqual([]);
    // The blob folder is swept in the background (walking it may take a while): start-up does not wait.
    await vi.waitFor(async () => expect(await readdir(blobs)).toEqual(['result.zip.def456.partial']));
  });

  it('are removed by the periodic sweep once a few minutes old; a recent one may still be written', async () => {
    const tmp = path.join(dataDir, 'tmp');
    const recent = path.join(tmp, `${MERGE_ID}-4.zip.partial`);
    const old = path.join(tmp, `${MERGE_ID}-3.zip.partial`);
    await writeFile(recent, 'x');
    await writeFile(old, 'x');
    const tenMinutesAgo = new Date(Date.now() - 10 * 60_000);
    await utimes(old, tenMinutesAgo, tenMinutesAgo);
    const { removed } = await sweepScratch(server!.ctx);
    expect(removed).toEqual([old]);
    expect(await readdir(tmp)).toEqual([path.basename(recent)]);
  });
});

describe('scratch files with a shared database (PostgreSQL): DATA_DIR may be shared by other processes', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ database: 'postgres' });
  });
  afterAll(() => server?.close());

  it('a stale file of a merge still active elsewhere stays; once the merge ended it goes; a fresh one stays', async () => {
    const user = await server.signUp();
    const templateId = await templateWithSheet(server, user.token, peopleCsv(3));
    const request = mergeRequest();
    expect((await startMerge(server, user.token, templateId, request)).status).toBe(202);
    expect((await waitForMerge(server, user.token, templateId, request.mergeId)).status).toBe('completed');

    const tmp = path.join(server.ctx.config.DATA_DIR, 'tmp');
    await mkdir(tmp, { recursive: true });
    const stale = path.join(tmp, `${request.mergeId}-1.zip.partial`);
    const fresh = path.join(tmp, `AbCdEfGhIjKlMnOpQrSt-1.zip.partial`);
    await writeFile(stale, 'x');
    await writeFile(fresh, 'x');
    const tenMinutesAgo = new Date(Date.now() - 10 * 60_000);
    await utimes(stale, tenMinutesAgo, tenMinutesAgo);
    // As if another process were still making it (the row says generating).
    await server.ctx.db.query("UPDATE merges SET status = 'generating' WHERE id = $1", [request.mergeId]);
    expect((await sweepScratch(server.ctx)).removed).toEqual([]);
    await server.ctx.db.query("UPDATE merges SET status = 'completed' WHERE id = $1", [request.mergeId]);
    expect((await sweepScratch(server.ctx)).removed).toEqual([stale]);
    expect(await readdir(tmp)).toEqual([path.basename(fresh)]);
  });
});
