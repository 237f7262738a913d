/**
 * `npm run bench`: every workload's candidates (peers and Sheaf) in one run, each in its own child
 * process, then rates, ratios and a markdown table (bench/results.json, bench/results.md).
 *
 * Flags: --rows N (per-row documents, default 1,000), --full (100,000 rows combined and sheet-read),
 * --combined-rows N, --sheet-rows N, --disk-mb N (default 256), --send-rows N (default 2,000),
 * --only per-row,combined,sheet-read,disk-write,send,cold-start,cli,login-bytes,api-load,large-merge,auth-load,word-pdf,data-check
 */
import { execFile, spawn } from 'node:child_process';
import { mkdir, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { BENCH_DIR, prepareBenchInputs, WORK_DIR, type BenchInputs } from './fixtures.ts';
import { DISK_WRITE_SCRIPT, peerCandidates } from './peers/index.ts';
import { rateResults, writeReport } from './report.ts';
import { sheafCandidates } from './sheaf.ts';
import type { BenchCandidate, BenchResult, PdfWorkload } from './types.ts';

const CHILD_TIMEOUT_MS = 15 * 60 * 1000;
const WORKLOADS = ['disk-write', 'per-row', 'combined', 'sheet-read', 'send', 'cold-start', 'cli', 'login-bytes', 'api-load', 'large-merge', 'auth-load', 'word-pdf', 'data-check'] as const;
/**
 * Whole-service workloads: real `sheaf` processes (API, workers) or a browser, each script printing its
 * own table (set-ups side by side, RSS per process) rather than one tool's BenchResult.
 */
const SERVICE_SCRIPTS: Record<string, string[]> = {
  'login-bytes': ['login-bytes.ts'],
  'api-load': ['api-load.ts', '--merges', '20', '--rows', '1000'],
  'large-merge': ['large-merge.ts', '--rows', '100000'],
  'auth-load': ['auth-load.ts', '--connections', '50', '--seconds', '20'],
  // 300 rows: the plain way's one LibreOffice run takes minutes already (3,000: `npx tsx word-pdf.ts --rows 3000`).
  'word-pdf': ['word-pdf.ts', '--rows', '300'],
  // The data check (docs/data-check.md): 100,000 x 20 through the API; first issue, whole check, RSS.
  'data-check': ['data-check.ts', '--rows', '100000'],
};

function parseOptions(argv: string[]) {
  const { values } = parseArgs({
    args: argv,
    options: {
      rows: { type: 'string', default: '1000' },
      full: { type: 'boolean', default: false },
      'combined-rows': { type: 'string' },
      'sheet-rows': { type: 'string' },
      'disk-mb': { type: 'string', default: '256' },
      'send-rows': { type: 'string', default: '2000' },
      only: { type: 'string', default: WORKLOADS.join(',') },
    },
  });
  const only = new Set(values.only.split(','));
  for (const name of only) if (!(WORKLOADS as readonly string[]).includes(name)) throw new Error(`--only: unknown workload "${name}"`);
  const count = (value: string | undefined, fallback: number) => {
    const parsed = Number(value ?? fallback);
    if (!Number.isInteger(parsed) || parsed < 1) throw new Error(`not a positive row count: ${value}`);
    return parsed;
  };
  return {
    perRowRows: count(values.rows, 1000),
    combinedRows: count(values['combined-rows'], values.full ? 100_000 : 2_000),
    sheetRows: count(values['sheet-rows'], values.full ? 100_000 : 20_000),
    diskMb: count(values['disk-mb'], 256),
    sendRows: count(values['send-rows'], 2000),
    only,
  };
}

/** Runs one child script under tsx and parses the BenchResult it prints as its last stdout line. */
function runChild(script: string, args: readonly string[]): Promise<BenchResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], { cwd: BENCH_DIR, stdio: ['ignore', 'pipe', 'inherit'] });
    let stdout = '';
    child.stdout.setEncoding('utf8').on('data', (text: string) => (stdout += text));
    const timer = setTimeout(() => child.kill('SIGKILL'), CHILD_TIMEOUT_MS);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      const last = stdout.trim().split('\n').pop() ?? '';
      if (code !== 0) return reject(new Error(`${script} exited with ${signal ?? code}`));
      try {
        resolve(JSON.parse(last) as BenchResult);
      } catch {
        reject(new Error(`${script} printed no BenchResult line: ${last.slice(0, 200)}`));
      }
    });
  });
}

const qpdfCheck = (file: string) =>
  new Promise<boolean>((resolve) => execFile('qpdf', ['--check', file], (error) => resolve(!error)));

/** Guards fairness: a candidate must write every document, and a valid one. */
async function outputProblem(candidate: BenchCandidate, outDir: string, count: number): Promise<string | undefined> {
  const files = (await readdir(outDir)).filter((name) => name.endsWith('.pdf')).sort();
  const expected = candidate.workload === 'per-row' && !candidate.inMemory ? count : 1;
  if (files.length !== expected) return `wrote ${files.length} PDF files, ${expected} expected`;
  if (!(await qpdfCheck(path.join(outDir, files[0]!)))) return `${files[0]} fails qpdf --check`;
  return undefined;
}

async function runCandidate(candidate: BenchCandidate, rows: number, inputs: BenchInputs): Promise<BenchResult> {
  const count = Math.min(rows, candidate.maxRows ?? rows);
  const outDir = path.join(WORK_DIR, `out-${candidate.tool.replace(/[^a-z0-9]+/gi, '-').replace(/^-|-$/g, '')}`);
  await rm(outDir, { recursive: true, force: true });
  await mkdir(outDir, { recursive: true });
  try {
    const result = await runChild(candidate.script, [inputs.templatePath, inputs.rowsPath, String(count), outDir]);
    const problem = await outputProblem(candidate, outDir, count);
    return problem ? { ...result, note: `INVALID OUTPUT: ${problem}` } : result;
  } catch (error) {
    const note = `failed: ${(error as Error).message}`;
    return { workload: candidate.workload, tool: candidate.tool, units: 0, unitName: '', seconds: 0, peakRssMb: 0, note };
  } finally {
    await rm(outDir, { recursive: true, force: true }); // per-row outputs run to hundreds of MB
  }
}

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2));
  const candidates = [...peerCandidates, ...sheafCandidates];
  const inputs = await prepareBenchInputs(Math.max(options.perRowRows, options.combinedRows));
  const rowsFor: Record<PdfWorkload, number> = { 'per-row': options.perRowRows, combined: options.combinedRows };
  const results: BenchResult[] = [];
  const record = (result: BenchResult) => {
    results.push(result);
    process.stderr.write(`${result.workload} ${result.tool}: ${result.units} ${result.unitName} in ${result.seconds.toFixed(2)} s${result.note ? ` (${result.note})` : ''}\n`);
  };

  if (options.only.has('disk-write')) {
    await mkdir(WORK_DIR, { recursive: true });
    record(await runChild(DISK_WRITE_SCRIPT, [WORK_DIR, String(options.diskMb)]));
  }
  for (const workload of ['per-row', 'combined'] as const) {
    if (!options.only.has(workload)) continue;
    for (const candidate of candidates.filter((each) => each.workload === workload)) {
      record(await runCandidate(candidate, rowsFor[workload], inputs));
    }
  }
  if (options.only.has('sheet-read')) {
    try {
      // Loaded on demand: the sheet harness brings exceljs and SheetJS, which the PDF workloads never need.
      const { benchSheetRead } = await import('./sheet-read.ts');
      for (const result of await benchSheetRead(options.sheetRows)) record(result);
    } catch (error) {
      // Keep the minutes of PDF measurements already taken: report the failure in the table instead.
      record({ workload: 'sheet-read', tool: 'sheet-read.ts', units: 0, unitName: '', seconds: 0, peakRssMb: 0, note: `failed: ${(error as Error).message}` });
    }
  }

  if (options.only.has('send')) {
    try {
      // Loaded on demand: the send harness brings the server's email modules and nodemailer.
      const { benchSend } = await import('./send.ts');
      for (const result of await benchSend(options.sendRows)) record(result);
    } catch (error) {
      record({ workload: 'send', tool: 'send.ts', units: 0, unitName: '', seconds: 0, peakRssMb: 0, note: `failed: ${(error as Error).message}` });
    }
  }

  if (options.only.has('cold-start')) {
    try {
      // Start-up as a user meets it: the compiled `sheaf` (bin/sheaf.mjs) from outside, beside a plain pdf-lib script.
      const { benchColdStart } = await import('./cold-start.ts');
      for (const result of await benchColdStart()) record(result);
    } catch (error) {
      record({ workload: 'cold-start', tool: 'cold-start.ts', units: 0, unitName: '', seconds: 0, peakRssMb: 0, note: `failed: ${(error as Error).message}` });
    }
  }

  if (options.only.has('cli')) {
    try {
      // The `sheaf` command's end-to-end figures (3,000-row ZIP, 40,000 combined pages, a 100,000-row sheet), start-up included.
      const { benchCli } = await import('./cli.ts');
      for (const result of await benchCli()) record(result);
    } catch (error) {
      record({ workload: 'cli', tool: 'cli.ts', units: 0, unitName: '', seconds: 0, peakRssMb: 0, note: `failed: ${(error as Error).message}` });
    }
  }

  for (const [workload, [script, ...args]] of Object.entries(SERVICE_SCRIPTS)) {
    if (!options.only.has(workload)) continue;
    process.stderr.write(`${workload}: ${script} ${args.join(' ')}\n`);
    const child = spawn(process.execPath, ['--import', 'tsx', script!, ...args], { cwd: BENCH_DIR, stdio: ['ignore', 'inherit', 'inherit'] });
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    if (code !== 0) process.stderr.write(`${workload} failed (exit ${code}); the other workloads' results follow\n`);
  }

  const markdown = await writeReport(BENCH_DIR, {
    generatedAt: new Date().toISOString(),
    machine: {
      cpus: os.cpus().length,
      cpuModel: os.cpus()[0]?.model ?? 'unknown',
      memoryMb: Math.round(os.totalmem() / 1024 / 1024),
      node: process.version,
      loadAverage: os.loadavg(),
    },
    options: { ...options, only: [...options.only] },
    templateBytes: inputs.templateBytes,
    results: rateResults(results, inputs.templateBytes),
  });
  process.stdout.write(markdown);
}

await main();
