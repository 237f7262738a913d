/**
 * A server "restarted" inside a test: a new server on the same DATA_DIR and database (PostgreSQL, or a
 * PGlite snapshot carried over as a disk would), its log lines kept; and a ZIP checked with unzip.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { expect } from 'vitest';
import { openPglite } from '../src/adapters/db/pglite.ts';
import { startServer, type RunningServer } from '../src/boot.ts';
import { loadConfig, type ConfigOverrides } from '../src/config.ts';
import { createLogger } from '../src/http/logger.ts';
import type { InjectOptions } from './harness.ts';
import type { MergeServer } from './merge-support.ts';

/** A new server process on the same data (the same DATA_DIR, and database or PGlite snapshot). */
export async function restart(shared: ConfigOverrides, snapshot: Blob | undefined, logged: Array<Record<string, unknown>>): Promise<MergeServer & Pick<RunningServer, 'close'>> {
  const config = loadConfig({}, { PORT: 0, HOST: '127.0.0.1', MIN_RESPONSE_MS: 0, LOG_LEVEL: 'info', DATABASE_URL: 'memory://', ...shared });
  const db = snapshot ? await openPglite('memory://', { loadDataDir: snapshot }) : undefined;
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n')) if (line.startsWith('{')) logged.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  const server = await startServer(config, { db, log: createLogger({ LOG_LEVEL: 'info' }, stream) });
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

/** Checks the ZIP with `unzip -t` and hands `check` its entry names and a reader of one entry's text. */
export function inZip(bytes: Buffer, check: (entries: string[], textOf: (name: string, password: string) => string) => void): void {
  const dir = mkdtempSync(path.join(tmpdir(), 'sheaf-restart-'));
  const file = path.join(dir, 'merge.zip');
  writeFileSync(file, bytes);
  try {
    expect(execFileSync('unzip', ['-tq', file], { encoding: 'utf8' })).toMatch(/No errors detected/);
    const entries = execFileSync('unzip', ['-Z1', file], { encoding: 'utf8' }).split('\n').filter(Boolean);
    check(entries, (name, password) => {
      const pdf = path.join(dir, 'document.pdf');
      writeFileSync(pdf, execFileSync('unzip', ['-p', file, name], { maxBuffer: 64 * 1024 * 1024 }));
      return execFileSync('pdftotext', ['-upw', password, pdf, '-'], { encoding: 'utf8' });
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
