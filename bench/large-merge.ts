/**
 * `npx tsx large-merge.ts [--rows 100000] [--range-rows 2000] [--encrypted] [--only 1,2,3]`: one large
 * separate-documents merge through the HTTP API of real `sheaf` processes, made
 *
 *   single job      one `sheaf worker`, MERGE_RANGE_ROWS above the row count: one job makes the ZIP
 *   1 worker        one `sheaf worker` making the merge's ranges one after another
 *   2 workers       two `sheaf worker` processes sharing the ranges
 *
 * each behind `sheaf serve --no-jobs`, on the machine's PostgreSQL (a fresh database per set-up;
 * DATABASE_ADMIN_URL, default postgres://postgres@127.0.0.1:5432/postgres) and one shared BLOB_DIR.
 * Timed from the start request to the merge completed; the ZIP is then checked (unzip -t, one entry
 * per row). The template is the small one-page test PDF (fixtures/generated/corpus/classic-xref.pdf)
 * so that 100,000 documents fit on the disk twice (parts, then the ZIP). Nothing is asserted.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { processTreeRss } from './process-rss.ts';
import { ROOT, api, freePort, startSheaf, stopAll, upload, waitUntilAnswering } from './service-support.ts';

const PASSWORD = 'Bench-passw0rd!-large';

const { values } = parseArgs({
  options: {
    rows: { type: 'string', default: '100000' },
    'range-rows': { type: 'string', default: '2000' },
    template: { type: 'string', default: path.join(ROOT, 'fixtures/generated/corpus/classic-xref.pdf') },
    only: { type: 'string' },
    /** Per-row passwords: every document costs a key derivation and its encryption (CPU-bound work). */
    encrypted: { type: 'boolean', default: false },
  },
});
const ROWS = Number(values.rows);
const RANGE_ROWS = Number(values['range-rows']);

const placeholder = (id: string, column: string, relativeY: number) => ({
  id, column, type: 'text', typeSettings: {}, pageNumber: 1, relativeX: 0.1, relativeY, relativeWidth: 0.6, relativeHeight: 0.05, relativeFontSize: 0.02,
  fontFamily: 'Helvetica', align: 'left', fontStyle: 'normal', textDecoration: 'none', fill: '#000000',
});

function csv(rows: number): string {
  const lines = ['First,Last'];
  for (let n = 1; n <= rows; n++) lines.push(`Given${n},Family${n}`);
  return `${lines.join('\n')}\n`;
}

interface Outcome {
  setup: string;
  seconds: number;
  ranges: number;
  zipMb: number;
  entries: number;
  processes: Array<{ name: string; peakRssMb: number }>;
}

async function runSetup(setup: string, workers: number, rangeRows: number): Promise<Outcome> {
  const admin = new pg.Client({ connectionString: process.env.DATABASE_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres' });
  await admin.connect();
  const database = `sheaf_large_${randomBytes(4).toString('hex')}`;
  await admin.query(`CREATE DATABASE ${database}`);
  const databaseUrl = `postgres://postgres@127.0.0.1:5432/${database}`;
  const dataDir = await mkdtemp(path.join(tmpdir(), 'sheaf-large-'));
  const port = await freePort();
  const env = {
    DATA_DIR: dataDir, BLOB_DIR: path.join(dataDir, 'files'), PORT: String(port), HOST: '127.0.0.1', PUBLIC_URL: `http://127.0.0.1:${port}`,
    MIN_RESPONSE_MS: '0', LOG_LEVEL: 'error', INBOUND_SMTP_PORT: 'off', SECRET_KEY: randomBytes(32).toString('base64url'),
    DATABASE_URL: databaseUrl, MERGE_CONCURRENCY: '1', MERGE_RANGE_ROWS: String(rangeRows),
  };
  const procs = [startSheaf('serve --no-jobs', ['serve', '--no-jobs'], env, { showLogs: true })];
  const sampler = setInterval(() => {
    for (const proc of procs) if (proc.child.pid) proc.peakRss = Math.max(proc.peakRss, processTreeRss(proc.child.pid));
  }, 200);
  const client = new pg.Client({ connectionString: databaseUrl });
  try {
    const url = `http://127.0.0.1:${port}`;
    await waitUntilAnswering(url, procs[0]!);
    for (let w = 1; w <= workers; w++) procs.push(startSheaf(`worker ${w}`, ['worker'], { ...env, DATA_DIR: path.join(dataDir, `worker-${w}`) }, { showLogs: true }));
    await client.connect();
    const email = `large-${randomBytes(3).toString('hex')}@example.com`;
    const { token } = await api(url, 'POST', '/users/register', undefined, { firstName: 'Large', lastName: 'Merge', email, password: PASSWORD, confirmPassword: PASSWORD });
    // Enterprise allows 10,000 documents a month: a counter below zero leaves room for the bench's merge.
    await client.query(`UPDATE users SET billing_plan = 'Enterprise', counter = $2 WHERE email = $1`, [email, -ROWS]);
    const { id: templateId } = await api(url, 'POST', '/templates', token, upload('Letter.pdf', await readFile(values.template), 'application/pdf'));
    await api(url, 'PATCH', `/templates/${templateId}/placeholders`, token, { placeholders: [placeholder('first', 'First', 0.2), placeholder('last', 'Last', 0.3)] });
    await api(url, 'POST', `/templates/${templateId}/excel`, token, upload('rows.csv', Buffer.from(csv(ROWS)), 'text/csv'));

    const mergeId = `large${randomBytes(8).toString('hex').slice(0, 15)}`; // 20 letters and digits, as the API asks
    const started = performance.now();
    await api(url, 'POST', `/templates/${templateId}/merge`, token, {
      mergeId, isCombinedOutput: false, isKeepFormOutput: true, isOnlyPlaceholdersOutput: false, isTryRepair: false, isCompressedOutput: true,
      rowsData: { startRow: 2, endRow: 1_000_000 }, fileNamePattern: '{{Last}}',
      ...(values.encrypted ? { passwordProtection: { readPassword: 'open{{First}}', modifyPassword: 'Owner123' } } : {}),
    });
    let state;
    for (;;) {
      state = await api(url, 'GET', `/templates/${templateId}/merges/${mergeId}`, token);
      if (state.status === 'completed') break;
      if (!['queued', 'generating'].includes(state.status)) throw new Error(`merge ended ${state.status}: ${JSON.stringify(state.error)}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const seconds = (performance.now() - started) / 1000;
    const [{ count }] = (await client.query('SELECT count(*)::int AS count FROM merge_ranges WHERE merge_id = $1', [mergeId])).rows;
    // Checked outside the timing: a valid ZIP with one entry per row.
    const zip = path.join(dataDir, 'check.zip');
    await writeFile(zip, Buffer.from(await (await fetch(new URL(state.downloadUrl, url))).arrayBuffer()));
    execFileSync('unzip', ['-tq', zip], { maxBuffer: 256 * 1024 * 1024 });
    const entries = execFileSync('unzip', ['-Z1', zip], { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 }).split('\n').filter(Boolean).length;
    return {
      setup, seconds, ranges: count, zipMb: state.fileSize / 1024 / 1024, entries,
      processes: procs.map((proc) => ({ name: proc.name, peakRssMb: Math.round(proc.peakRss / 1024 / 1024) })),
    };
  } finally {
    clearInterval(sampler);
    await client.end().catch(() => undefined);
    await stopAll(procs);
    await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    await admin.end();
    await rm(dataDir, { recursive: true, force: true });
  }
}

const setups: Array<[string, number, number]> = [
  ['single job, 1 worker', 1, 1_000_000],
  [`ranges of ${RANGE_ROWS}, 1 worker`, 1, RANGE_ROWS],
  [`ranges of ${RANGE_ROWS}, 2 workers`, 2, RANGE_ROWS],
];
const only = values.only?.split(',').map(Number);
const outcomes: Outcome[] = [];
for (const [index, [setup, workers, rangeRows]] of setups.entries()) {
  if (only && !only.includes(index + 1)) continue;
  outcomes.push(await runSetup(setup, workers, rangeRows));
  console.error(`done: ${setup}`);
}
console.log(`\nOne separate-documents merge of ${ROWS.toLocaleString('en-US')} rows${values.encrypted ? ' (per-row passwords)' : ''} through the API (serve --no-jobs + workers, PostgreSQL, local BLOB_DIR); load average at the end ${(await import('node:os')).loadavg().map((n) => n.toFixed(1)).join(' ')}\n`);
console.log('| set-up | ranges | seconds | docs/s | ZIP MB | entries | peak RSS per process (MB) |');
console.log('| --- | ---: | ---: | ---: | ---: | ---: | --- |');
for (const outcome of outcomes) {
  const rss = outcome.processes.map((proc) => `${proc.name}: ${proc.peakRssMb}`).join(', ');
  console.log(`| ${outcome.setup} | ${outcome.ranges} | ${outcome.seconds.toFixed(1)} | ${(ROWS / outcome.seconds).toFixed(0)} | ${outcome.zipMb.toFixed(0)} | ${outcome.entries} | ${rss} |`);
}
