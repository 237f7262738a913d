/**
 * `sheaf` (bin/sheaf.mjs) runs the compiled server: it builds it when the build is missing or older
 * than the sources, then loads only JavaScript from the build (no TypeScript compiler), in the main
 * thread and in its worker threads. Each run here builds into its own scratch folder
 * (SHEAF_SERVER_DIST), so the repository's apps/server/dist is left alone.
 *
 * What a process loads is read from a module hook registered with --import: it records the URL of
 * every module loaded, in the main thread and in every worker (workers inherit --import), and the file
 * of every CommonJS require() (which module hooks do not see on Node 20).
 */
import { execFile, fork, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '..');
const BIN = path.join(root, 'apps/server/bin/sheaf.mjs');
const TEMPLATE = path.join(root, 'fixtures/generated/corpus/classic-xref.pdf');
let scratch: string;
let dist: string;
let hookImport: string;

beforeAll(async () => {
  // Inside the repository (.tmp/ is ignored): the build's external packages resolve from node_modules above it.
  await mkdir(path.join(root, 'apps/server/.tmp'), { recursive: true });
  scratch = await mkdtemp(path.join(root, 'apps/server/.tmp/build-test-'));
  dist = path.join(scratch, 'dist');
  const hooks = path.join(scratch, 'hooks.mjs');
  await writeFile(
    hooks,
    `import { appendFileSync } from 'node:fs';
export async function load(url, context, next) {
  appendFileSync(process.env.SHEAF_TEST_LOADED, url + '\\n');
  return next(url, context);
}
`,
  );
  const register = path.join(scratch, 'register.mjs');
  await writeFile(
    register,
    `import { appendFileSync } from 'node:fs';
import Module, { register } from 'node:module';
register(${JSON.stringify(pathToFileURL(hooks).href)});
const load = Module._load;
Module._load = function (request, parent, isMain) {
  const loaded = load.apply(this, arguments);
  if (!Module.isBuiltin(request)) appendFileSync(process.env.SHEAF_TEST_LOADED, 'require:' + Module._resolveFilename(request, parent, isMain) + '\\n');
  return loaded;
};
`,
  );
  hookImport = pathToFileURL(register).href;
});
afterAll(async () => rm(scratch, { recursive: true, force: true }));

interface Run {
  code: number;
  stderr: string;
  /** Every module URL the process and its workers loaded. */
  loaded: string[];
}

let runs = 0;
function sheaf(args: string[]): Promise<Run> {
  const loadedFile = path.join(scratch, `loaded-${++runs}.txt`);
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      ['--import', hookImport, BIN, ...args],
      { cwd: scratch, timeout: 90_000, encoding: 'utf8', env: { ...process.env, SHEAF_SERVER_DIST: dist, SHEAF_TEST_LOADED: loadedFile } },
      async (error, _stdout, stderr) => {
        if (error && typeof error.code !== 'number') return reject(error);
        const loaded = existsSync(loadedFile) ? (await readFile(loadedFile, 'utf8')).split('\n').filter(Boolean) : [];
        resolve({ code: error ? (error.code as number) : 0, stderr, loaded });
      },
    );
  });
}

const currentBuild = async () => JSON.parse(await readFile(path.join(dist, 'current.json'), 'utf8')) as { dir: string; sourcesMtime: number };

/** No TypeScript source and no tsx: only the build, node_modules and Node's own modules. */
function expectCompiledOnly(loaded: string[]): void {
  const ours = loaded.filter((url) => url.startsWith('file:') && !url.includes('/node_modules/'));
  expect(loaded.filter((url) => url.includes('/node_modules/tsx/'))).toEqual([]);
  expect(ours.filter((url) => url.endsWith('.ts'))).toEqual([]);
  expect(ours.some((url) => url.startsWith(pathToFileURL(dist).href))).toBe(true);
}

async function mergeInputs(rows: number): Promise<{ csv: string; placeholders: string; dir: string }> {
  const dir = await mkdtemp(path.join(scratch, 'merge-'));
  const csv = path.join(dir, 'rows.csv');
  await writeFile(csv, `Name\n${Array.from({ length: rows }, (_, i) => `Person ${i + 1}`).join('\n')}\n`);
  const placeholders = path.join(dir, 'placeholders.json');
  await writeFile(placeholders, JSON.stringify([{ id: 'n', column: 'Name', pageNumber: 1, relativeX: 0.1, relativeY: 0.1, relativeWidth: 0.6, relativeHeight: 0.04 }]));
  return { csv, placeholders, dir };
}

it('with no build, `sheaf merge` builds the server and runs it compiled, the template check worker too', async () => {
  const { csv, placeholders, dir } = await mergeInputs(1);
  const out = path.join(dir, 'out.zip');
  expect(existsSync(path.join(dist, 'current.json'))).toBe(false);
  const run = await sheaf(['merge', TEMPLATE, csv, '--placeholders', placeholders, '--out', out]);
  expect(run.code, run.stderr).toBe(0);
  expect(run.stderr).not.toContain('sheaf: building'); // the build says nothing when stderr is not a terminal
  expect(existsSync(path.join(dist, (await currentBuild()).dir, 'sheaf.mjs'))).toBe(true);
  expect(existsSync(out)).toBe(true);
  expectCompiledOnly(run.loaded);
  // Pure-JS packages are in the build: hundreds of files fewer to find and parse at start.
  expect(run.loaded.filter((url) => /\/node_modules\/(pdf-lib|zod|commander)\//.test(url))).toEqual([]);
  // The template is checked in a worker thread: from the build's own entry, not through tsx.
  expect(run.loaded.some((url) => url.endsWith('/guardedWorker.mjs'))).toBe(true);
}, 120_000);

it('rebuilds when the sources are newer than the build, and a parallel merge runs its workers from the build', async () => {
  const before = await currentBuild();
  await writeFile(path.join(dist, 'current.json'), JSON.stringify({ ...before, sourcesMtime: 0 })); // as if every source had changed since
  const { csv, placeholders, dir } = await mergeInputs(70);
  const out = path.join(dir, 'out.zip');
  // Password-protected merges of 64+ documents are made by worker threads (mergeWorker).
  const run = await sheaf(['merge', TEMPLATE, csv, '--placeholders', placeholders, '--out', out, '--password-read', 'secret']);
  expect(run.code, run.stderr).toBe(0);
  expect((await currentBuild()).dir).not.toBe(before.dir);
  expectCompiledOnly(run.loaded);
  if (os.availableParallelism() > 1) expect(run.loaded.some((url) => url.endsWith('/mergeWorker.mjs'))).toBe(true);
  const listing = await new Promise<string>((resolve, reject) => execFile('unzip', ['-Z1', out], (error, stdout) => (error ? reject(error) : resolve(stdout))));
  expect(listing.split('\n').filter((name) => name.endsWith('.pdf'))).toHaveLength(70);
  // A build that is up to date is used as it is: another one only if a source changed meanwhile.
  const latest = await currentBuild();
  const again = await sheaf(['merge', TEMPLATE, csv, '--placeholders', placeholders, '--out', path.join(dir, 'again.zip'), '--rows', '2']);
  expect(again.code, again.stderr).toBe(0);
  const after = await currentBuild();
  if (after.dir !== latest.dir) expect(after.sourcesMtime).toBeGreaterThan(latest.sourcesMtime);
}, 120_000);

/**
 * The npm packages a process loaded: from node_modules (imported or required), or bundled into the
 * build's chunks it loaded (each chunk's source map lists the files it holds).
 */
async function packagesLoaded(loaded: string[]): Promise<Set<string>> {
  const files = loaded.flatMap((entry) => (entry.startsWith('require:') ? [entry.slice('require:'.length)] : entry.startsWith('file:') ? [fileURLToPath(entry)] : []));
  const sources = [...files];
  for (const file of files) {
    if (file.startsWith(dist) && file.endsWith('.mjs')) sources.push(...(JSON.parse(await readFile(`${file}.map`, 'utf8')) as { sources: string[] }).sources);
  }
  const names = new Set<string>();
  for (const source of sources) {
    const match = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(source);
    if (match) names.add(match[1]!);
  }
  return names;
}

/** Packages `sheaf serve` loads on first use, never at start (bench/README.md "Cold start"). */
const NOT_AT_START = ['@e965/xlsx', 'nodemailer'];

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
    probe.on('error', reject);
  });
}

it('`sheaf serve` from the build answers HTTP, without loading SheetJS or nodemailer at start', async () => {
  const port = await freePort();
  const dataDir = await mkdtemp(path.join(scratch, 'data-'));
  const loadedFile = path.join(scratch, 'loaded-serve.txt');
  const server = spawn(process.execPath, ['--import', hookImport, BIN, 'serve', '--port', String(port), '--data-dir', dataDir], {
    cwd: scratch,
    env: { ...process.env, NODE_ENV: 'production', INBOUND_SMTP_PORT: 'off', LOG_LEVEL: 'warn', SHEAF_SERVER_DIST: dist, SHEAF_TEST_LOADED: loadedFile },
    stdio: 'ignore',
  });
  const exited = new Promise<void>((resolve) => server.on('exit', () => resolve()));
  try {
    const deadline = Date.now() + 90_000;
    let status = 0;
    while (!status) {
      if (server.exitCode !== null) throw new Error(`sheaf serve exited with ${server.exitCode}`);
      if (Date.now() > deadline) throw new Error('sheaf serve did not answer');
      status = await fetch(`http://127.0.0.1:${port}/v1/docs/json`, { signal: AbortSignal.timeout(2_000) }).then(
        (response) => response.status,
        () => 0,
      );
      if (!status) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(status).toBe(200);
    const loaded = (await readFile(loadedFile, 'utf8')).split('\n').filter(Boolean);
    expectCompiledOnly(loaded);
    const packages = await packagesLoaded(loaded);
    // What it must load (read from node_modules, and bundled): the list is read right.
    expect(packages).toContain('@electric-sql/pglite');
    expect(packages).toContain('zod');
    // A static import of either (in the engine's sheet readers, the mail adapters...) puts it back.
    expect(NOT_AT_START.filter((name) => packages.has(name))).toEqual([]);
  } finally {
    server.kill('SIGTERM');
    await exited;
  }
}, 120_000);

/** Builds now (as another process rebuilding after a `git pull` would), into the test's dist. */
function rebuild(): Promise<void> {
  return new Promise((resolve, reject) =>
    execFile(process.execPath, [path.join(root, 'scripts/build-server.mjs')], { env: { ...process.env, SHEAF_SERVER_DIST: dist }, timeout: 90_000 }, (error) =>
      error ? reject(error) : resolve(),
    ),
  );
}

it('a build a running `sheaf serve` uses is kept when replaced, however long ago; removed once no process uses it', async () => {
  const port = await freePort();
  const dataDir = await mkdtemp(path.join(scratch, 'data-'));
  const server = spawn(process.execPath, [BIN, 'serve', '--port', String(port), '--data-dir', dataDir], {
    cwd: scratch,
    env: { ...process.env, NODE_ENV: 'production', INBOUND_SMTP_PORT: 'off', LOG_LEVEL: 'warn', SHEAF_SERVER_DIST: dist },
    stdio: 'ignore',
  });
  const exited = new Promise<void>((resolve) => server.on('exit', () => resolve()));
  const served = path.join(dist, (await currentBuild()).dir);
  const answers = () => fetch(`http://127.0.0.1:${port}/healthz`, { signal: AbortSignal.timeout(2_000) }).then((response) => response.status, () => 0);
  const twoHoursAgo = new Date(Date.now() - 2 * 60 * 60 * 1000);
  try {
    const deadline = Date.now() + 90_000;
    while ((await answers()) !== 200) {
      if (server.exitCode !== null) throw new Error(`sheaf serve exited with ${server.exitCode}`);
      if (Date.now() > deadline) throw new Error('sheaf serve did not answer');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    await rebuild(); // the served build is replaced...
    expect((await currentBuild()).dir).not.toBe(path.basename(served));
    await utimes(served, twoHoursAgo, twoHoursAgo); // ...long ago, as far as its folder says
    await rebuild(); // and a later build cleans up
    expect(existsSync(path.join(served, 'sheaf.mjs'))).toBe(true);
    expect(await answers()).toBe(200);
  } finally {
    server.kill('SIGKILL'); // a crash: its record stays behind, naming a process that is gone
    await exited;
  }
  await rebuild();
  expect(existsSync(served)).toBe(false);
}, 180_000);

it('the template reader (pdf.js and canvas in a child process) renders a thumbnail from the build', async () => {
  // Built by the tests above; the entry is the bundled pdf-worker.mjs that workers/child-pool.ts forks.
  const entry = path.join(dist, (await currentBuild()).dir, 'pdf-worker.mjs');
  const child = fork(entry, [], { serialization: 'advanced', stdio: ['ignore', 'ignore', 'pipe', 'ipc'] });
  try {
    const bytes = new Uint8Array(await readFile(TEMPLATE));
    const reply = await new Promise<{ ok: boolean; value?: { png: Uint8Array } }>((resolve, reject) => {
      child.once('message', (message) => resolve(message as { ok: boolean; value?: { png: Uint8Array } }));
      child.once('exit', (code) => reject(new Error(`pdf-worker exited with ${code}`)));
      child.send({ id: 1, input: { kind: 'thumbnail', bytes, width: 120 } });
    });
    expect(reply.ok).toBe(true);
    expect(Buffer.from(reply.value!.png.subarray(0, 8)).toString('hex')).toBe('89504e470d0a1a0a'); // a PNG
  } finally {
    child.kill();
  }
}, 60_000);
