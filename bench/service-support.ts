/**
 * What the whole-service workloads share: real `sheaf` processes (the compiled command, as users run
 * it), free ports, and the HTTP API called as the web app calls it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import path from 'node:path';
import { BENCH_DIR } from './fixtures.ts';

export const ROOT = path.resolve(BENCH_DIR, '..');
export const SHEAF = path.join(ROOT, 'apps/server/bin/sheaf.mjs');

export async function freePort(): Promise<number> {
  const server = createServer();
  const port = await new Promise<number>((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as { port: number }).port)));
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export interface Proc {
  name: string;
  child: ChildProcess;
  /** Highest RSS of its process tree seen so far (the workload samples it). */
  peakRss: number;
}

/** `sheaf <args>`; its log lines (stdout) are shown with `showLogs`, its errors (stderr) always. */
export function startSheaf(name: string, args: string[], env: Record<string, string>, { showLogs = false } = {}): Proc {
  const child = spawn(process.execPath, [SHEAF, ...args], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', showLogs ? 'inherit' : 'ignore', 'inherit'] });
  return { name, child, peakRss: 0 };
}

export async function waitUntilAnswering(url: string, proc: Proc): Promise<void> {
  for (let i = 0; i < 600; i++) {
    if (proc.child.exitCode !== null) throw new Error(`${proc.name} exited with ${proc.child.exitCode}`);
    const response = await fetch(`${url}/v1/config`).catch(() => undefined);
    if (response?.ok) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${proc.name} did not answer`);
}

/** SIGTERM to each, resolved once all have exited. */
export async function stopAll(procs: Proc[]): Promise<void> {
  await Promise.all(procs.map((proc) => new Promise<void>((resolve) => {
    if (proc.child.exitCode !== null) return resolve();
    proc.child.once('exit', () => resolve());
    proc.child.kill('SIGTERM');
  })));
}

/** One API call; an error answer throws with its body. */
export async function api(base: string, method: string, urlPath: string, token?: string, body?: unknown) {
  const response = await fetch(`${base}/v1${urlPath}`, {
    method,
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body instanceof FormData || body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body instanceof FormData ? body : body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (response.status >= 400) throw new Error(`${method} ${urlPath}: ${response.status} ${text.slice(0, 300)}`);
  return text ? JSON.parse(text) : undefined;
}

export function upload(name: string, bytes: Uint8Array, type: string): FormData {
  const form = new FormData();
  form.set('file', new Blob([bytes], { type }), name);
  return form;
}
