/**
 * `npx tsx api-load.ts [--merges 20] [--rows 1000] [--users 5] [--workers 2]`: concurrent merges
 * through the HTTP API of real `sheaf` processes, as users would start them.
 *
 * Two set-ups in one run, on the same inputs:
 *   one process   `sheaf serve` on the embedded defaults (PGlite, in-process jobs)
 *   scaled out    `sheaf serve --no-jobs` + N `sheaf worker` processes sharing the machine's
 *                 PostgreSQL (a fresh database per run; DATABASE_ADMIN_URL, default
 *                 postgres://postgres@127.0.0.1:5432/postgres) and Redis when --redis is given
 * For each: documents per second from the first start request to the last merge completed, and the
 * peak RSS of every process. Nothing is asserted: this is a measurement, not a test.
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs, promisify } from 'node:util';
import pg from 'pg';
import { benchRow, prepareBenchInputs } from './fixtures.ts';
import { processTreeRss } from './process-rss.ts';
import { ROOT, SHEAF, api, freePort, startSheaf, stopAll, upload, waitUntilAnswering, type Proc } from './service-support.ts';

const PASSWORD = 'Bench-passw0rd!-load';
const run = promisify(execFile);

const { values } = parseArgs({
  options: {
    merges: { type: 'string', default: '20' },
    rows: { type: 'string', default: '1000' },
    users: { type: 'string', default: '5' },
    workers: { type: 'string', default: '2' },
    redis: { type: 'string' },
    /** Which set-ups to run: one (embedded defaults), scaled (PostgreSQL + workers). */
    setups: { type: 'string', default: 'one,scaled' },
  },
});
const MERGES = Number(values.merges);
const ROWS = Number(values.rows);
const USERS = Math.min(Number(values.users), MERGES);
const WORKERS = Number(values.workers);

function csv(rows: number): string {
  const lines = ['First,Last,Amount'];
  for (let i = 0; i < rows; i++) {
    const row = benchRow(i);
    lines.push([row.First, row.Last, row.Amount].map((value) => `"${value}"`).join(','));
  }
  return `${lines.join('\n')}\n`;
}

const placeholder = (id: string, column: string, relativeX: number, relativeY: number) => ({
  id, column, type: 'text', typeSettings: {}, pageNumber: 1, relativeX, relativeY, relativeWidth: 0.3, relativeHeight: 0.03, relativeFontSize: 0.016,
  fontFamily: 'Helvetica', align: 'left', fontStyle: 'normal', textDecoration: 'none', fill: '#000000',
});

interface Outcome {
  setup: string;
  documents: number;
  seconds: number;
  /** GET /users/me while the merges run, polled every 50 ms (ms). */
  latency: { p50: number; p99: number; max: number; count: number };
  processes: Array<{ name: string; peakRssMb: number }>;
}

/** Asks GET /users/me every 50 ms until stopped: how long a user waits for an answer while merges run. */
function probeLatency(url: string, token: string): { stop(): Promise<Outcome['latency']> } {
  const times: number[] = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      const started = performance.now();
      await api(url, 'GET', '/users/me', token);
      times.push(performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      const sorted = [...times].sort((a, b) => a - b);
      const at = (q: number) => Math.round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0);
      return { p50: at(0.5), p99: at(0.99), max: Math.round(sorted.at(-1) ?? 0), count: sorted.length };
    },
  };
}

async function measure(setup: string, procs: Proc[], url: string, setPlan: (email: string) => Promise<void>): Promise<Outcome> {
  const sampler = setInterval(() => {
    for (const proc of procs) if (proc.child.pid) proc.peakRss = Math.max(proc.peakRss, processTreeRss(proc.child.pid));
  }, 200);
  try {
    const template = await readFile((await prepareBenchInputs(1)).templatePath);
    const sheet = Buffer.from(csv(ROWS));
    const tokens: string[] = [];
    for (let u = 0; u < USERS; u++) {
      const email = `load-${u}-${randomBytes(3).toString('hex')}@example.com`;
      const registered = await api(url, 'POST', '/users/register', undefined, { firstName: 'Load', lastName: String(u), email, password: PASSWORD, confirmPassword: PASSWORD });
      await setPlan(email);
      tokens.push(registered.token as string);
    }
    // One template per merge: a template runs one merge at a time.
    const templates: Array<{ token: string; templateId: string }> = [];
    for (let i = 0; i < MERGES; i++) {
      const token = tokens[i % USERS]!;
      const { id: templateId } = await api(url, 'POST', '/templates', token, upload('Statement.pdf', template, 'application/pdf'));
      await api(url, 'PATCH', `/templates/${templateId}/placeholders`, token, {
        placeholders: [placeholder('first', 'First', 0.15, 0.2), placeholder('last', 'Last', 0.45, 0.2), placeholder('amount', 'Amount', 0.6, 0.35)],
      });
      await api(url, 'POST', `/templates/${templateId}/excel`, token, upload('rows.csv', sheet, 'text/csv'));
      templates.push({ token, templateId });
    }
    const started = performance.now();
    const probe = probeLatency(url, tokens[0]!);
    const merges = await Promise.all(templates.map(async ({ token, templateId }) => {
      const mergeId = randomBytes(10).toString('hex');
      await api(url, 'POST', `/templates/${templateId}/merge`, token, {
        mergeId, isCombinedOutput: false, isKeepFormOutput: true, isOnlyPlaceholdersOutput: false, isTryRepair: false, isCompressedOutput: true,
        rowsData: { startRow: 2, endRow: 1_000_000 },
      });
      return { token, templateId, mergeId };
    }));
    let documents = 0;
    for (const merge of merges) {
      for (;;) {
        const state = await api(url, 'GET', `/templates/${merge.templateId}/merges/${merge.mergeId}`, merge.token);
        if (state.status === 'completed') {
          documents += state.total;
          break;
        }
        if (!['queued', 'generating'].includes(state.status)) throw new Error(`merge ended ${state.status}: ${JSON.stringify(state.error)}`);
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    }
    const seconds = (performance.now() - started) / 1000;
    const latency = await probe.stop();
    return { setup, documents, seconds, latency, processes: procs.map((proc) => ({ name: proc.name, peakRssMb: Math.round(proc.peakRss / 1024 / 1024) })) };
  } finally {
    clearInterval(sampler);
  }
}


const baseEnv = (dataDir: string, port: number) => ({
  DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', PUBLIC_URL: `http://127.0.0.1:${port}`, MIN_RESPONSE_MS: '0', LOG_LEVEL: 'silent',
  INBOUND_SMTP_PORT: 'off', SECRET_KEY: randomBytes(32).toString('base64url'),
});

async function oneProcess(): Promise<Outcome> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'sheaf-load-one-'));
  const port = await freePort();
  const env = baseEnv(dataDir, port);
  const serve = startSheaf('sheaf serve', ['serve'], env);
  try {
    await waitUntilAnswering(`http://127.0.0.1:${port}`, serve);
    return await measure('one process (embedded defaults)', [serve], `http://127.0.0.1:${port}`, async (email) => {
      await run(process.execPath, [SHEAF, 'users', 'set-plan', email, 'Enterprise'], { cwd: ROOT, env: { ...process.env, ...env } });
    });
  } finally {
    await stopAll([serve]);
    await rm(dataDir, { recursive: true, force: true });
  }
}

async function scaledOut(): Promise<Outcome> {
  const admin = new pg.Client({ connectionString: process.env.DATABASE_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres' });
  await admin.connect();
  const database = `sheaf_load_${randomBytes(4).toString('hex')}`;
  await admin.query(`CREATE DATABASE ${database}`);
  const databaseUrl = `postgres://postgres@127.0.0.1:5432/${database}`;
  const dataDir = await mkdtemp(path.join(tmpdir(), 'sheaf-load-many-'));
  const port = await freePort();
  // Without S3 the processes share one files folder (as they would share a disk); each has its own scratch.
  const env = { ...baseEnv(dataDir, port), DATABASE_URL: databaseUrl, BLOB_DIR: path.join(dataDir, 'files'), ...(values.redis ? { REDIS_URL: values.redis } : {}) };
  const procs = [startSheaf('sheaf serve --no-jobs', ['serve', '--no-jobs'], env)];
  try {
    await waitUntilAnswering(`http://127.0.0.1:${port}`, procs[0]!);
    for (let w = 1; w <= WORKERS; w++) procs.push(startSheaf(`sheaf worker ${w}`, ['worker'], { ...env, DATA_DIR: path.join(dataDir, `worker-${w}`) }));
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      return await measure(`serve --no-jobs + ${WORKERS} workers (PostgreSQL${values.redis ? ', Redis' : ''})`, procs, `http://127.0.0.1:${port}`, async (email) => {
        await client.query(`UPDATE users SET billing_plan = 'Enterprise' WHERE email = $1`, [email]);
      });
    } finally {
      await client.end();
    }
  } finally {
    await stopAll(procs);
    await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    await admin.end();
    await rm(dataDir, { recursive: true, force: true });
  }
}

const setups = new Set(values.setups.split(','));
const outcomes = [...(setups.has('one') ? [await oneProcess()] : []), ...(setups.has('scaled') ? [await scaledOut()] : [])];
console.log(`\n${MERGES} merges of ${ROWS} rows each (${USERS} users), started at once through the API\n`);
console.log('| set-up | documents | seconds | docs/s | GET /users/me during the merges: p50 / p99 / max ms (n) | peak RSS per process (MB) |');
console.log('| --- | ---: | ---: | ---: | --- | --- |');
for (const outcome of outcomes) {
  const rss = outcome.processes.map((proc) => `${proc.name}: ${proc.peakRssMb}`).join(', ');
  console.log(`| ${outcome.setup} | ${outcome.documents} | ${outcome.seconds.toFixed(1)} | ${(outcome.documents / outcome.seconds).toFixed(0)} | ${outcome.latency.p50} / ${outcome.latency.p99} / ${outcome.latency.max} (${outcome.latency.count}) | ${rss} |`);
}
if (outcomes.length === 2) console.log(`\nscaled out / one process: ${((outcomes[1]!.documents / outcomes[1]!.seconds) / (outcomes[0]!.documents / outcomes[0]!.seconds)).toFixed(2)}x`);
