/**
 * `npm start` is the README's first command: it must serve the app, and a SIGTERM to it (what a
 * process manager or `kill` sends) must stop the server too, not leave it running without its parent.
 * The web app is built by the test run's global setup, so `npm start` here only serves.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '..');
const dirs: string[] = [];
afterAll(async () => Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true }))));

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
    probe.on('error', reject);
  });
}

async function answers(port: number): Promise<boolean> {
  try {
    await fetch(`http://127.0.0.1:${port}/v1/docs/json`, { signal: AbortSignal.timeout(2_000) });
    return true;
  } catch {
    return false;
  }
}

async function until(condition: () => Promise<boolean>, what: string, timeoutMs = 90_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

it('SIGTERM to `npm start` stops the server it started', async () => {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'sheaf-start-'));
  dirs.push(dataDir);
  const port = await freePort();
  const npm = spawn('npm', ['start', '--silent'], {
    cwd: root,
    env: { ...process.env, NODE_ENV: 'production', DATA_DIR: dataDir, PORT: String(port), INBOUND_SMTP_PORT: 'off', LOG_LEVEL: 'warn' },
    stdio: 'ignore',
  });
  const npmExit = new Promise<void>((resolve) => npm.on('exit', () => resolve()));
  try {
    await until(() => answers(port), 'the server answers');
    npm.kill('SIGTERM');
    await npmExit;
    await until(async () => !(await answers(port)), 'the server stops answering', 20_000);
    // Nothing of ours still holds the data folder's lock: a second start can take it at once.
    const again = spawn('npm', ['start', '--silent'], {
      cwd: root,
      env: { ...process.env, NODE_ENV: 'production', DATA_DIR: dataDir, PORT: String(port), INBOUND_SMTP_PORT: 'off', LOG_LEVEL: 'warn' },
      stdio: 'ignore',
    });
    await until(() => answers(port), 'a second start serves the same data folder');
    again.kill('SIGTERM');
    await new Promise<void>((resolve) => again.on('exit', () => resolve()));
    await until(async () => !(await answers(port)), 'the second server stops', 20_000);
  } finally {
    if (npm.pid && alive(npm.pid)) npm.kill('SIGKILL');
  }
}, 200_000);
