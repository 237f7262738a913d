/**
 * Sheaf as separate processes for tests: `sheaf serve` / `sheaf worker` started as children (their
 * JSON log lines kept), and an `inject` over real HTTP so the merge helpers work against them.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { vi } from 'vitest';
import type { InjectOptions, InjectResponse, TestServer } from './harness.ts';

const ENTRY = path.join(path.dirname(fileURLToPath(import.meta.url)), 'sheaf-tsx.ts');
const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const COMPILED = path.join(REPO_ROOT, 'apps/server/bin/sheaf.mjs');

export interface SheafProcess {
  child: ChildProcess;
  /** Everything written to stdout and stderr so far. */
  output(): string;
  /** The JSON log lines written so far. */
  logLines(): Array<Record<string, unknown>>;
  /** Waits until the output matches; returns the match. */
  waitFor(pattern: RegExp, timeout?: number): Promise<RegExpExecArray>;
  /** Resolves with the exit code. */
  exited: Promise<number | null>;
  /** SIGTERM, then SIGKILL if it has not exited within `graceMs`. */
  stop(graceMs?: number): Promise<number | null>;
}

/** `compiled`: the built bin/sheaf.mjs (starts in a few seconds; built on first use when stale) instead of tsx. */
export function startSheaf(args: string[], env: Record<string, string>, options: { compiled?: boolean } = {}): SheafProcess {
  const entry = options.compiled ? [COMPILED] : ['--import', 'tsx', ENTRY];
  const child = spawn(process.execPath, [...entry, ...args], {
    cwd: REPO_ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let text = '';
  child.stdout!.on('data', (chunk: Buffer) => (text += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (text += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const logLines = () =>
    text
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  return {
    child,
    output: () => text,
    logLines,
    exited,
    waitFor: (pattern, timeout = 60_000) =>
      vi.waitFor(
        () => {
          if (child.exitCode !== null) throw new Error(`sheaf ${args.join(' ')} exited with ${child.exitCode}:\n${text}`);
          const match = pattern.exec(text);
          if (!match) throw new Error(`waiting for ${pattern} in:\n${text.slice(-2000)}`);
          return match;
        },
        { timeout, interval: 50 },
      ),
    async stop(graceMs = 20_000) {
      if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      const code = await exited;
      clearTimeout(timer);
      return code;
    },
  };
}

/** The harness's inject over real HTTP against `baseUrl` (paths without /v1). */
export function httpServer(baseUrl: string): Pick<TestServer, 'inject' | 'url'> & TestServer {
  const inject = async (method: string, urlPath: string, request: InjectOptions = {}): Promise<InjectResponse> => {
    const headers: Record<string, string> = { ...request.headers };
    if (request.token) headers.authorization = `Bearer ${request.token}`;
    let body: FormData | string | undefined;
    if (request.file) {
      const form = new FormData();
      form.append('file', new Blob([request.file.bytes], { type: request.file.type }), request.file.name);
      body = form;
    } else if (request.body !== undefined) {
      body = JSON.stringify(request.body);
      headers['content-type'] ??= 'application/json';
    }
    const url = new URL(`/v1${urlPath}`, baseUrl);
    for (const [key, value] of Object.entries(request.query ?? {})) url.searchParams.set(key, String(value));
    const response = await fetch(url, { method: method.toUpperCase(), headers, ...(body !== undefined ? { body } : {}) });
    const raw = new Uint8Array(await response.arrayBuffer());
    const type = response.headers.get('content-type') ?? '';
    return {
      status: response.status,
      json: type.includes('json') && raw.length ? JSON.parse(Buffer.from(raw).toString('utf8')) : undefined,
      body: raw,
      headers: Object.fromEntries(response.headers.entries()),
    };
  };
  // Only what the merge helpers use over HTTP; the rest of TestServer is not there.
  return { inject, url: baseUrl } as unknown as TestServer;
}
