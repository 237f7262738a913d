/**
 * Cold start, measured from outside the process as a user meets it (start-up included):
 * - a one-row `sheaf merge` (the compiled command, bin/sheaf.mjs) beside a plain Node script doing the
 *   same with pdf-lib (cold-start/pdf-lib-one-row.mjs), runs interleaved, medians;
 * - `sheaf serve` on the embedded defaults (PGlite, a fresh data folder): time from spawn to the first
 *   HTTP answer, and the resident memory of its whole process tree at rest (after a quiet period).
 *
 * `npx tsx cold-start.ts [--runs N]` (here) runs it alone; `npx tsx run.ts --only cold-start` adds it to
 * the report. SHEAF_BIN=<path> measures another entry point (e.g. an older bin for a before/after).
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { BENCH_DIR, benchRow, prepareBenchInputs } from './fixtures.ts';
import { processTreeCpuSeconds, processTreeRss, trackPeakRss } from './process-rss.ts';
import { ROOT as REPO_ROOT, SHEAF, freePort } from './service-support.ts';
import { BENCH_FIELDS, type BenchResult, type BenchRow } from './types.ts';

export const SHEAF_BIN = path.resolve(process.env.SHEAF_BIN ?? SHEAF);
const PEER_SCRIPT = path.join(BENCH_DIR, 'cold-start/pdf-lib-one-row.mjs');
const PAGE = { width: 595.28, height: 841.89 };
/** How long `sheaf serve` stays idle before its memory is read ("at rest"): twice, the second is reported. */
const REST_MS = [5_000, 10_000];
const RSS_SAMPLE_MS = 100;

export const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

export interface TimedRun {
  seconds: number;
  /** Highest RSS of the process tree seen (sampled every 100 ms). */
  peakRssMb: number;
  stdout: string;
  stderr: string;
}

/** One child process `node <args>`, timed from spawn to exit; throws on a non-zero exit. */
export async function timeProcess(args: string[]): Promise<TimedRun> {
  const started = performance.now();
  const child = spawn(process.execPath, args, { cwd: REPO_ROOT, env: { ...process.env, NODE_ENV: 'production' }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (text: string) => (stdout += text));
  child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
  const peakRssMb = trackPeakRss(child.pid!, RSS_SAMPLE_MS);
  let peak = 0;
  const code = await new Promise<number | string | null>((resolve, reject) => {
    child.once('error', reject).once('close', (status, signal) => resolve(status ?? signal));
  }).finally(() => (peak = peakRssMb()));
  const seconds = (performance.now() - started) / 1000;
  if (code !== 0) throw new Error(`${args.join(' ')} exited with ${code}: ${stderr.slice(0, 500)}`);
  return { seconds, peakRssMb: peak, stdout, stderr };
}

/** Rows as a CSV for `sheaf merge` (every field quoted: the amounts hold commas). */
export function benchCsv(rows: readonly BenchRow[]): string {
  const quote = (value: string) => `"${value.replaceAll('"', '""')}"`;
  return `First,Last,Amount\n${rows.map((row) => [row.First, row.Last, row.Amount].map(quote).join(',')).join('\n')}\n`;
}

/**
 * The bench template's 3 fields as Sheaf placeholders (relative to the page, from its top-left);
 * `columns` renames the headings for a sheet that names them otherwise.
 */
export function sheafPlaceholders(columns: Partial<Record<keyof BenchRow, string>> = {}) {
  return BENCH_FIELDS.map((field, index) => ({
    id: `f${index}`,
    column: columns[field.column] ?? field.column,
    pageNumber: field.page + 1,
    relativeX: field.x / PAGE.width,
    relativeY: (PAGE.height - field.y - field.height) / PAGE.height,
    relativeWidth: field.width / PAGE.width,
    relativeHeight: field.height / PAGE.height,
    relativeFontSize: field.size / PAGE.height,
  }));
}


export async function benchOneRowMerge(runs: number): Promise<BenchResult[]> {
  const { templatePath } = await prepareBenchInputs(1);
  const dir = await mkdtemp(path.join(os.tmpdir(), 'sheaf-cold-'));
  try {
    const row = benchRow(0);
    const files = {
      fields: path.join(dir, 'fields.json'),
      row: path.join(dir, 'row.json'),
      csv: path.join(dir, 'rows.csv'),
      placeholders: path.join(dir, 'placeholders.json'),
    };
    await writeFile(files.fields, JSON.stringify(BENCH_FIELDS));
    await writeFile(files.row, JSON.stringify(row));
    await writeFile(files.csv, benchCsv([row]));
    await writeFile(files.placeholders, JSON.stringify(sheafPlaceholders()));
    const peer = [PEER_SCRIPT, templatePath, files.fields, files.row, path.join(dir, 'peer.pdf')];
    const sheaf = [SHEAF_BIN, 'merge', templatePath, files.csv, '--placeholders', files.placeholders, '--out', path.join(dir, 'sheaf.zip')];
    // One untimed run each: builds the command when its sources changed, warms the file cache.
    await timeProcess(peer);
    await timeProcess(sheaf);
    const peerTimes: number[] = [];
    const sheafTimes: number[] = [];
    for (let i = 0; i < runs; i++) {
      peerTimes.push((await timeProcess(peer)).seconds);
      sheafTimes.push((await timeProcess(sheaf)).seconds);
    }
    const peerSeconds = median(peerTimes);
    const sheafSeconds = median(sheafTimes);
    const spread = (times: number[]) => `median of ${runs}, ${Math.min(...times).toFixed(2)}-${Math.max(...times).toFixed(2)} s`;
    return [
      { workload: 'cold-start', tool: 'pdf-lib script, one row', units: 1, unitName: 'merges', seconds: peerSeconds, peakRssMb: 0, note: spread(peerTimes) },
      {
        workload: 'cold-start',
        tool: 'sheaf merge, one row',
        units: 1,
        unitName: 'merges',
        seconds: sheafSeconds,
        peakRssMb: 0,
        note: `${(sheafSeconds / peerSeconds).toFixed(2)}x the script's time (target <= 2x); ${spread(sheafTimes)}`,
      },
    ];
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * Starts `sheaf serve` on `dataDir`: seconds to its first HTTP answer and its tree's RSS at rest. A fresh
 * folder includes creating the database (PostgreSQL's initdb, seconds); a restart opens it.
 */
async function serveStart(dataDir: string, start: 'first start' | 'restart'): Promise<BenchResult> {
  const port = await freePort();
  const started = performance.now();
  const server = spawn(process.execPath, [SHEAF_BIN, 'serve', '--port', String(port), '--data-dir', dataDir], {
    cwd: REPO_ROOT,
    env: { ...process.env, NODE_ENV: 'production', INBOUND_SMTP_PORT: 'off', LOG_LEVEL: 'warn' },
    stdio: 'ignore',
  });
  const exited = new Promise<void>((resolve) => server.on('exit', () => resolve()));
  try {
    let answeredAt = 0;
    let cpuSeconds = 0;
    while (!answeredAt) {
      if (server.exitCode !== null) throw new Error(`sheaf serve exited with ${server.exitCode}`);
      if (performance.now() - started > 60_000) throw new Error('sheaf serve did not answer within 60 s');
      try {
        await fetch(`http://127.0.0.1:${port}/healthz`, { signal: AbortSignal.timeout(1_000) });
        answeredAt = performance.now();
        cpuSeconds = processTreeCpuSeconds(server.pid!);
      } catch {
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    }
    const restMb: number[] = [];
    for (const ms of REST_MS) {
      await new Promise((resolve) => setTimeout(resolve, answeredAt + ms - performance.now()));
      restMb.push(Math.round(processTreeRss(server.pid!) / 1024 / 1024));
    }
    return {
      workload: 'serve-start', // no baseline: a ratio to the merge script would mean nothing
      tool: `sheaf serve, ${start}`,
      units: 1,
      unitName: 'starts',
      seconds: (answeredAt - started) / 1000,
      peakRssMb: restMb.at(-1)!,
      note:
        `process tree RSS at rest ${restMb.join(' / ')} MB ${REST_MS.map((ms) => ms / 1000).join(' / ')} s after the first answer (target <= 200); ` +
        `target <= 1.5 s; ${cpuSeconds.toFixed(2)} CPU s until the answer (the load changes this less)`,
    };
  } finally {
    server.kill('SIGTERM');
    await exited;
  }
}

/** `sheaf serve` on a new data folder, then `restarts` times again on the same folder: the median restart. */
export async function benchServeStart(restarts = 5): Promise<BenchResult[]> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'sheaf-cold-serve-'));
  try {
    const first = await serveStart(dataDir, 'first start');
    const runs: BenchResult[] = [];
    for (let i = 0; i < restarts; i++) runs.push(await serveStart(dataDir, 'restart'));
    const sorted = [...runs].sort((a, b) => a.seconds - b.seconds);
    const middle = sorted[Math.floor(sorted.length / 2)]!;
    const spread = `median of ${restarts}, ${sorted[0]!.seconds.toFixed(2)}-${sorted.at(-1)!.seconds.toFixed(2)} s, RSS at rest ${Math.min(...runs.map((run) => run.peakRssMb))}-${Math.max(...runs.map((run) => run.peakRssMb))} MB`;
    return [first, { ...middle, note: `${spread}; this run: ${middle.note}` }];
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}

export async function benchColdStart(runs = 5): Promise<BenchResult[]> {
  return [...(await benchOneRowMerge(runs)), ...(await benchServeStart(runs))];
}

if (process.argv[1] === import.meta.filename) {
  const { values } = parseArgs({ options: { runs: { type: 'string', default: '5' }, 'serve-only': { type: 'boolean', default: false } } });
  const results = values['serve-only'] ? await benchServeStart(Number(values.runs)) : await benchColdStart(Number(values.runs));
  for (const result of results) {
    process.stdout.write(`${result.tool}: ${result.seconds.toFixed(3)} s${result.note ? ` (${result.note})` : ''}\n`);
  }
}
