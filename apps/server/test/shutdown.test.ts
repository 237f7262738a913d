/**
 * SIGTERM during a merge, on `sheaf serve` as a user runs it (its own process, the embedded database
 * in DATA_DIR): the process stops taking work, hands the merge's job back and exits within a few
 * seconds, also when the merge's file system does not answer (DATA_DIR/tmp frozen with fsfreeze: the
 * write never returns). The next start goes on with the merge from the documents written (attempt 1
 * again: handed back, not left to a lease running out) and completes it. After SIGKILL the next start
 * resumes it too, from at least the progress shown before the kill.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { TEST_PASSWORD } from './harness.ts';
import { download, mergeRequest, peopleCsv, startMerge, templateWithSheet, waitForMerge } from './merge-support.ts';
import { httpServer, startSheaf, type SheafProcess } from './process-support.ts';

const ROWS = 400;
/** What a user would notice: SIGTERM to exit (or to its last line, while a write hangs), in ms. */
const PROMPT_EXIT_MS = 5_000;

/** An ext4 image mounted on `dir` (fsfreeze needs a file system that supports it); undefined when not allowed here. */
function mountLoopFs(dir: string): (() => void) | undefined {
  const image = path.join(mkdtempSync(path.join(tmpdir(), 'sheaf-loopfs-')), 'fs.img');
  try {
    writeFileSync(image, '');
    execFileSync('truncate', ['-s', '64M', image]);
    execFileSync('mkfs.ext4', ['-q', image], { stdio: 'pipe' });
    execFileSync('mount', ['-o', 'loop', image, dir], { stdio: 'pipe' });
  } catch {
    rmSync(path.dirname(image), { recursive: true, force: true });
    return undefined;
  }
  return () => {
    execFileSync('umount', [dir]);
    rmSync(path.dirname(image), { recursive: true, force: true });
  };
}

const probeDir = mkdtempSync(path.join(tmpdir(), 'sheaf-loopfs-probe-'));
const unmountProbe = mountLoopFs(probeDir);
unmountProbe?.();
rmSync(probeDir, { recursive: true, force: true });
if (!unmountProbe) console.warn('shutdown: the frozen-disk case is skipped: mounting a loop file system is not allowed here');

/** Whether a thread of `pid` waits in the kernel uninterruptibly (state D: a write to the frozen file system). */
function blockedInKernel(pid: number): boolean {
  return readdirSync(`/proc/${pid}/task`).some((task) => {
    const stat = readFileSync(`/proc/${pid}/task/${task}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).startsWith('D');
  });
}

describe('sheaf serve on SIGTERM during a merge', () => {
  let dataDir: string;
  const cleanups: Array<() => void | Promise<unknown>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
    if (dataDir) await rm(dataDir, { recursive: true, force: true, maxRetries: 5 });
  });

  const env = () => ({ DATA_DIR: dataDir, SECRET_KEY: 'k'.repeat(43), MIN_RESPONSE_MS: '0', LOG_LEVEL: 'info', INBOUND_SMTP_PORT: 'off', MIN_FREE_MB: '0' });

  async function serve(): Promise<{ process: SheafProcess; http: ReturnType<typeof httpServer> }> {
    const process = startSheaf(['serve', '--port', '0'], env());
    cleanups.push(() => process.stop(1_000));
    const url = (await process.waitFor(/Sheaf is running at (http:\/\/\S+)/, 120_000))[1]!;
    return { process, http: httpServer(url) };
  }

  /** An Enterprise account (per-row passwords), a template with ROWS rows, and its merge started and under way. */
  async function mergeUnderWay(http: ReturnType<typeof httpServer>) {
    const email = `owner-${randomBytes(4).toString('hex')}@example.com`;
    const registered = await http.inject('POST', '/users/register', { body: { firstName: 'Pat', lastName: 'Doe', email, password: TEST_PASSWORD, confirmPassword: TEST_PASSWORD } });
    expect(registered.status, JSON.stringify(registered.json)).toBe(201);
    const plan = startSheaf(['users', 'set-plan', email, 'Enterprise'], env());
    expect(await plan.exited, plan.output()).toBe(0);
    const token = ((await http.inject('POST', '/users/login', { body: { email, password: TEST_PASSWORD } })).json as { token: string }).token;
    const templateId = await templateWithSheet(http, token, peopleCsv(ROWS));
    const request = mergeRequest({ fileNamePattern: '{{Last}}-{{First}}', passwordProtection: { readPassword: 'open{{Code}}', modifyPassword: 'Owner123' } });
    expect((await startMerge(http, token, templateId, request)).status).toBe(202);
    const underWay = await waitForMerge(http, token, templateId, request.mergeId, (merge) => merge.status === 'generating' && merge.done >= ROWS / 8);
    return { token, templateId, mergeId: request.mergeId, done: underWay.done };
  }

  /** The next start goes on with the merge (handed back: attempt 1) and completes it, every row's document once. */
  async function completesAfterRestart(merge: { token: string; templateId: string; mergeId: string; done: number }, attempt = 1) {
    const { process, http } = await serve();
    const done = await waitForMerge(http, merge.token, merge.templateId, merge.mergeId, undefined, 120_000);
    expect(done).toMatchObject({ status: 'completed', done: ROWS, total: ROWS, error: null });
    const resumed = process.logLines().find((line) => line.msg === 'merge resumed' && line.mergeId === merge.mergeId);
    expect(resumed).toMatchObject({ attempt });
    expect(resumed!.documents).toBeGreaterThanOrEqual(merge.done);
    const zip = path.join(dataDir, 'check.zip');
    writeFileSync(zip, (await download(http, done.downloadUrl!)).bytes);
    expect(execFileSync('unzip', ['-tq', zip], { encoding: 'utf8' })).toMatch(/No errors detected/);
    const names = execFileSync('unzip', ['-Z1', zip], { encoding: 'utf8' }).split('\n').filter(Boolean);
    expect(new Set(names)).toEqual(new Set(Array.from({ length: ROWS }, (_, i) => `Family${i + 1}-Given${i + 1}.pdf`)));
    expect(names).toHaveLength(ROWS);
  }

  it('exits within seconds, its merge handed back; the next start completes the merge', async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'sheaf-shutdown-'));
    const { process, http } = await serve();
    const merge = await mergeUnderWay(http);
    const signalled = performance.now();
    process.child.kill('SIGTERM');
    expect(await process.exited).toBe(0);
    const seconds = (performance.now() - signalled) / 1000;
    expect(seconds * 1000).toBeLessThan(PROMPT_EXIT_MS);
    expect(process.logLines().some((line) => line.msg === 'job handed back' && line.jobId === merge.mergeId)).toBe(true);
    await completesAfterRestart(merge);
  }, 300_000);

  it('after SIGKILL mid-merge, the next start resumes the merge from at least the progress shown (its lease taken back: attempt 2)', async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'sheaf-shutdown-'));
    const { process, http } = await serve();
    const merge = await mergeUnderWay(http);
    process.child.kill('SIGKILL');
    await process.exited;
    await completesAfterRestart(merge, 2);
  }, 300_000);

  it.skipIf(!unmountProbe)('stops within seconds while the merge\'s write hangs (a frozen disk), and exits once the write returns', async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'sheaf-shutdown-'));
    const tmp = path.join(dataDir, 'tmp');
    await mkdir(tmp);
    const unmount = mountLoopFs(tmp)!;
    cleanups.push(unmount);
    const { process, http } = await serve();
    const merge = await mergeUnderWay(http);
    execFileSync('fsfreeze', ['-f', tmp]);
    let frozen = true;
    const thaw = () => {
      if (frozen) execFileSync('fsfreeze', ['-u', tmp]);
      frozen = false;
    };
    cleanups.push(thaw);
    // The merge's next write waits in the kernel (uninterruptibly: no signal ends it, SIGKILL neither).
    await vi.waitFor(() => expect(blockedInKernel(process.child.pid!)).toBe(true), { timeout: 10_000, interval: 20 });
    const signalled = performance.now();
    process.child.kill('SIGTERM');
    await process.waitFor(/"msg":"shut down"/, 30_000);
    expect(performance.now() - signalled).toBeLessThan(PROMPT_EXIT_MS);
    expect(process.logLines().some((line) => line.msg === 'job handed back' && line.jobId === merge.mergeId)).toBe(true);
    // The process ends as soon as the kernel lets the stuck write return.
    thaw();
    expect(await process.exited).toBe(0);
    await completesAfterRestart(merge);
  }, 300_000);
});
