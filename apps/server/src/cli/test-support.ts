/**
 * Helpers of the command-line tests: run `sheaf` as a user would (a child process of bin/sheaf.mjs),
 * and look at what it wrote with independent tools (unzip, qpdf, poppler).
 */
import { execFile, spawnSync } from 'node:child_process';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PlaceholderInput } from '@sheaf/shared';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
const BIN = path.join(REPO_ROOT, 'apps/server/bin/sheaf.mjs');

/** A generated fixture's path (scripts/fixtures/*, run by the vitest global setup). */
export function fixture(name: string): string {
  return path.resolve(REPO_ROOT, 'fixtures/generated', name);
}

export interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** Child processes run two at a time: the machine has two cores, shared with other test files. */
const MAX_PARALLEL = 2;
let running = 0;
const waiting: (() => void)[] = [];

async function slot<T>(work: () => Promise<T>): Promise<T> {
  if (running >= MAX_PARALLEL) await new Promise<void>((resolve) => waiting.push(resolve));
  running++;
  try {
    return await work();
  } finally {
    running--;
    waiting.shift()?.();
  }
}

/** `sheaf ARGS...` in `cwd`; never throws for a non-zero exit, which the tests assert on. */
export function sheaf(args: readonly string[], cwd: string = REPO_ROOT): Promise<Run> {
  return slot(
    () =>
      new Promise((resolve, reject) => {
        execFile(process.execPath, [BIN, ...args], { cwd, timeout: 60_000, encoding: 'utf8', maxBuffer: 16 << 20 }, (error, stdout, stderr) => {
          if (error && typeof error.code !== 'number') reject(error);
          else resolve({ code: error ? (error.code as number) : 0, stdout, stderr });
        });
      }),
  );
}

/** A temporary folder per test file; `remove` in afterAll. */
export async function scratch(prefix: string): Promise<{ dir: string; sub: (name: string) => Promise<string>; remove: () => Promise<void> }> {
  const dir = await mkdtemp(path.join(tmpdir(), `sheaf-cli-${prefix}-`));
  let count = 0;
  return {
    dir,
    /** A fresh empty folder inside, so each test sees only what its own run wrote. */
    sub: async (name) => mkdtemp(path.join(dir, `${name}-${++count}-`)),
    remove: () => rm(dir, { recursive: true, force: true }),
  };
}

/** A text placeholder with sensible defaults; fields given override them. */
export function textPlaceholder(id: string, column: string, relativeY: number, extra: Partial<PlaceholderInput> = {}): PlaceholderInput {
  return { id, column, pageNumber: 1, relativeX: 0.1, relativeY, relativeWidth: 0.6, relativeHeight: 0.04, relativeFontSize: 0.02, ...extra };
}

export async function writeJson(dir: string, name: string, value: unknown): Promise<string> {
  const file = path.join(dir, name);
  await writeFile(file, JSON.stringify(value));
  return file;
}

export async function filesIn(dir: string): Promise<string[]> {
  return (await readdir(dir)).sort();
}

export interface ToolResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a checking tool; UTF-8 locale so unzip prints non-ASCII entry names as they are. */
export function tool(command: string, args: readonly string[]): ToolResult {
  const result = spawnSync(command, args, { encoding: 'utf8', env: { ...process.env, LC_ALL: 'C.UTF-8' }, maxBuffer: 64 << 20 });
  if (result.error) throw result.error;
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** Extracts a .zip into `dir` with unzip; returns the entry names in archive order. */
export function unzip(zip: string, dir: string): string[] {
  const extracted = tool('unzip', ['-q', '-o', zip, '-d', dir]);
  if (extracted.code !== 0) throw new Error(`unzip failed: ${extracted.stderr}`);
  return tool('unzip', ['-Z1', zip]).stdout.split('\n').filter(Boolean);
}

const passwordArgs = (password?: string) => (password === undefined ? [] : [`--password=${password}`]);

/** qpdf --check: 0 is clean; 2 is an error, e.g. "invalid password". */
export function qpdfCheck(file: string, password?: string): ToolResult {
  return tool('qpdf', [...passwordArgs(password), '--check', file]);
}

export function pdfText(file: string, options: { page?: number; password?: string } = {}): string {
  const pages = options.page === undefined ? [] : ['-f', String(options.page), '-l', String(options.page)];
  const password = options.password === undefined ? [] : ['-upw', options.password];
  const result = tool('pdftotext', [...pages, ...password, file, '-']);
  if (result.code !== 0) throw new Error(`pdftotext failed: ${result.stderr}`);
  return result.stdout;
}

export function pageCount(file: string, password?: string): number {
  const info = tool('pdfinfo', [...(password === undefined ? [] : ['-upw', password]), file]);
  const pages = /^Pages:\s+(\d+)/m.exec(info.stdout);
  if (!pages) throw new Error(`pdfinfo failed: ${info.stderr}`);
  return Number(pages[1]);
}

/** pdfinfo's "Page size" line of each page, e.g. "612 x 792 pts (letter)". */
export function pageSizes(file: string): string[] {
  const info = tool('pdfinfo', ['-f', '1', '-l', '9999', file]).stdout;
  return [...info.matchAll(/^Page\s+\d+ size:\s+(.+)$/gm)].map((match) => match[1]!.trim());
}
