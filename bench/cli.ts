/**
 * The `sheaf` command's end-to-end figures (issue 10), each timed from outside the process (spawn to
 * exit, start-up included) beside a peer run the same way; one untimed warm-up run of each side, then
 * `--runs` runs interleaved (default 3), medians:
 * - cli-zip: `sheaf merge` of 3,000 rows into a .zip beside the pdf-lib per-row script (target >= 30x);
 * - cli-combined: `sheaf merge --combined` of 20,000 rows, 40,000 pages (target >= 20,000 pages/s),
 *   beside pdf-lib's combined script at its usual cap (peers/index.ts);
 * - cli-sheet: `sheaf merge --rows 2` of a 100,000 x 20 .xlsx (start-up and reading the sheet; one
 *   document) beside exceljs's streaming reader reading the whole sheet (target >= 3x).
 * Every output is checked (ZIP entries, PDF files, pages, rows read). The peers' scripts are bundled
 * into plain .mjs files first (.work/cli-peers/): under tsx they would pay a compiler's start that the
 * compiled `sheaf` does not.
 *
 * `npx tsx cli.ts [--runs N] [--only zip,combined,sheet]` (here) runs it alone; `npx tsx run.ts --only cli`
 * adds it to the report. SHEAF_BIN=<path> measures another entry point, as in cold-start.ts.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { build } from 'esbuild';
import { benchCsv, median, SHEAF_BIN, sheafPlaceholders, timeProcess, type TimedRun } from './cold-start.ts';
import { BENCH_DIR, benchRow, prepareBenchInputs, WORK_DIR } from './fixtures.ts';
import { combinedDocumentPath } from './peers/candidate.ts';
import { peerCandidates } from './peers/index.ts';
import { ROOT } from './service-support.ts';
import { benchWorkbook } from './sheet-read-data.ts';
import type { BenchResult } from './types.ts';

const ZIP_ROWS = 3_000;
const COMBINED_ROWS = 20_000;
const SHEET_ROWS = 100_000;
/** Pages of the bench template (fixtures.ts): a combined document has this many per row. */
const PAGES_PER_ROW = 2;
const FIGURES = ['zip', 'combined', 'sheet'] as const;
type FigureName = (typeof FIGURES)[number];
/** Per process: two runs at once (two sessions) must not delete each other's outputs. */
const OUT_DIR = path.join(WORK_DIR, `cli-out-${process.pid}`);
const PEER_OUT = path.join(OUT_DIR, 'peer');
/** The build `sheaf` runs (scripts/build-server.mjs): when it changes during a timed run, the run included a rebuild. */
const BUILD_STAMP = path.join(process.env.SHEAF_SERVER_DIST ?? path.join(ROOT, 'apps/server/dist'), 'current.json');
const REBUILD_RETRIES = 3;
const WARM_UP = 'warm-up';

interface Side {
  tool: string;
  /** Arguments of `node`. */
  args: string[];
  units: number;
  unitName: string;
  /** Looks at a run's output (untimed): what is wrong with it, or undefined. */
  check(run: TimedRun): string | undefined;
  /** The seconds the process's own clock gave its work (after start-up and reading its inputs). */
  ownSeconds(run: TimedRun): number | undefined;
  /** Said first in its note. */
  about?: string;
}

interface Figure {
  workload: string;
  peer: Side;
  sheaf: Side;
  /** The Sheaf row's figure beside its target. */
  verdict(ratio: number, sheafRate: number): string;
}

const counted = (what: string, got: number, wanted: number) => (got === wanted ? undefined : `${got} ${what}, ${wanted} expected`);

/** A number a command prints (NaN when it fails). */
function printedNumber(command: string, args: string[], pattern: RegExp): number {
  try {
    return Number(pattern.exec(execFileSync(command, args, { encoding: 'utf8', maxBuffer: 64 << 20, stdio: ['ignore', 'pipe', 'ignore'] }))?.[1]);
  } catch {
    return NaN;
  }
}
const zipEntries = (file: string) => printedNumber('unzip', ['-l', file], /(\d+) files?\s*$/);
const pdfPages = (file: string) => printedNumber('qpdf', ['--show-npages', file], /^(\d+)/);

/** The BenchResult line a peer script prints last (bench/types.ts). */
function peerLine(run: TimedRun): BenchResult | undefined {
  try {
    return JSON.parse(run.stdout.trim().split('\n').pop()!) as BenchResult;
  } catch {
    return undefined;
  }
}
const peerSeconds = (run: TimedRun) => peerLine(run)?.seconds;
/** `sheaf merge` ends with "... -> OUT (SIZE) in 1.23 s": the time after reading and preparing the merge. */
const sheafSeconds = (run: TimedRun) => Number(/ in (\d+(?:\.\d+)?) s\s*$/.exec(run.stderr)?.[1] ?? NaN) || undefined;

/** Writes `name` in .work/ once: the inputs are deterministic, cached as fixtures.ts caches its own. */
async function cached(name: string, make: () => string): Promise<string> {
  const file = path.join(WORK_DIR, name);
  if (!existsSync(file)) {
    await writeFile(`${file}.${process.pid}.tmp`, make());
    await rename(`${file}.${process.pid}.tmp`, file);
  }
  return file;
}

/** The peers' TypeScript bundled into plain .mjs files (their packages stay in node_modules). */
async function compilePeers<Name extends string>(scripts: Record<Name, string>): Promise<Record<Name, string>> {
  const outdir = path.join(WORK_DIR, 'cli-peers');
  await build({
    entryPoints: Object.fromEntries(Object.entries<string>(scripts).map(([name, script]) => [name, path.join(BENCH_DIR, script)])),
    outdir,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    packages: 'external',
    platform: 'node',
    format: 'esm',
    target: 'node20',
    logLevel: 'warning',
    // sheet-read-child.ts loads Sheaf's sheet reader for its sheaf tools only: the exceljs reader runs here.
    plugins: [{ name: 'no-engine', setup: (plugin) => plugin.onResolve({ filter: /\/packages\/engine\// }, (args) => ({ path: args.path, external: true })) }],
  });
  return Object.fromEntries(Object.keys(scripts).map((name) => [name, path.join(outdir, `${name}.mjs`)])) as Record<Name, string>;
}

async function figures(only: ReadonlySet<FigureName>): Promise<Figure[]> {
  const { rowsPath: zipRowsPath } = await prepareBenchInputs(ZIP_ROWS);
  const { templatePath, rowsPath } = await prepareBenchInputs(COMBINED_ROWS);
  const rows = (count: number) => Array.from({ length: count }, (_, i) => benchRow(i));
  const peerOf = (workload: string) => peerCandidates.find((candidate) => candidate.workload === workload && candidate.tool === 'pdf-lib')!;
  const peers = await compilePeers({ perRow: peerOf('per-row').script, combined: peerOf('combined').script, sheet: 'sheet-read-child.ts' });
  const placeholders = await cached('cli-placeholders.json', () => JSON.stringify(sheafPlaceholders()));
  const sheafMerge = (data: string, placeholderFile: string, out: string, ...flags: string[]) => [SHEAF_BIN, 'merge', templatePath, data, '--placeholders', placeholderFile, '--out', out, ...flags];
  const zipOut = path.join(OUT_DIR, 'sheaf.zip');
  const list: Figure[] = [];

  if (only.has('zip')) {
    const csv = await cached(`cli-rows-${ZIP_ROWS}.csv`, () => benchCsv(rows(ZIP_ROWS)));
    list.push({
      workload: 'cli-zip',
      peer: {
        tool: 'pdf-lib per-row script',
        args: [peers.perRow, templatePath, zipRowsPath, String(ZIP_ROWS), PEER_OUT],
        units: ZIP_ROWS,
        unitName: 'docs',
        check: () => counted('PDF files', readdirSync(PEER_OUT).filter((name) => name.endsWith('.pdf')).length, ZIP_ROWS),
        ownSeconds: peerSeconds,
      },
      sheaf: { tool: 'sheaf merge, .zip', args: sheafMerge(csv, placeholders, zipOut), units: ZIP_ROWS, unitName: 'docs', check: () => counted('ZIP entries', zipEntries(zipOut), ZIP_ROWS), ownSeconds: sheafSeconds },
      verdict: (ratio) => `${ratio.toFixed(1)}x the script's docs/s (target >= 30x)`,
    });
  }

  if (only.has('combined')) {
    const csv = await cached(`cli-rows-${COMBINED_ROWS}.csv`, () => benchCsv(rows(COMBINED_ROWS)));
    const peerRows = Math.min(COMBINED_ROWS, peerOf('combined').maxRows ?? COMBINED_ROWS);
    const pdfOut = path.join(OUT_DIR, 'sheaf.pdf');
    list.push({
      workload: 'cli-combined',
      peer: {
        tool: 'pdf-lib combined script',
        about: `${peerRows.toLocaleString('en-US')} rows (its cap in peers/index.ts)`,
        args: [peers.combined, templatePath, rowsPath, String(peerRows), PEER_OUT],
        units: peerRows * PAGES_PER_ROW,
        unitName: 'pages',
        check: () => counted('pages', pdfPages(combinedDocumentPath(PEER_OUT)), peerRows * PAGES_PER_ROW),
        ownSeconds: peerSeconds,
      },
      sheaf: {
        tool: 'sheaf merge --combined',
        args: sheafMerge(csv, placeholders, pdfOut, '--combined'),
        units: COMBINED_ROWS * PAGES_PER_ROW,
        unitName: 'pages',
        check: () => counted('pages', pdfPages(pdfOut), COMBINED_ROWS * PAGES_PER_ROW),
        ownSeconds: sheafSeconds,
      },
      verdict: (ratio, rate) => `${Math.round(rate).toLocaleString('en-US')} pages/s including start-up (target >= 20,000); ${ratio.toFixed(1)}x the script's pages/s`,
    });
  }

  if (only.has('sheet')) {
    const workbook = await benchWorkbook(WORK_DIR, SHEET_ROWS);
    // The sheet names the bench's columns otherwise (sheet-read-data.ts: SHEET_COLUMNS).
    const sheetPlaceholders = await cached('cli-sheet-placeholders.json', () => JSON.stringify(sheafPlaceholders({ First: 'First name', Last: 'Last name' })));
    list.push({
      workload: 'cli-sheet',
      peer: {
        tool: 'exceljs streaming reader, whole sheet',
        args: [peers.sheet, 'exceljs', workbook],
        units: SHEET_ROWS,
        unitName: 'rows',
        check: (run) => counted('rows read', peerLine(run)?.units ?? NaN, SHEET_ROWS),
        ownSeconds: peerSeconds,
      },
      // --rows 2 is Excel's row 2, the first data row: one document, so the time is start-up and the sheet.
      sheaf: { tool: 'sheaf merge --rows 2', args: sheafMerge(workbook, sheetPlaceholders, zipOut, '--rows', '2'), units: SHEET_ROWS, unitName: 'rows', check: () => counted('ZIP entries', zipEntries(zipOut), 1), ownSeconds: sheafSeconds },
      verdict: (ratio) => `${ratio.toFixed(2)}x exceljs's rows/s (target >= 3x)`,
    });
  }
  return list;
}

const buildStamp = () => (existsSync(BUILD_STAMP) ? readFileSync(BUILD_STAMP, 'utf8') : '');

async function measureFigure(figure: Figure, runs: number): Promise<BenchResult[]> {
  const problems = new Set<string>();
  let rebuilds = 0;
  /** One run of a side on an empty output folder, checked, its output deleted (hundreds of MB). */
  const measure = async (side: Side, label: string): Promise<TimedRun> => {
    for (let attempt = 0; ; attempt++) {
      await rm(OUT_DIR, { recursive: true, force: true });
      await mkdir(PEER_OUT, { recursive: true });
      const stamp = buildStamp();
      const run = await timeProcess(side.args)
        .then((done) => {
          const problem = side.check(done);
          if (problem) problems.add(`${side.tool}: ${problem}`);
          return done;
        })
        .finally(() => rm(OUT_DIR, { recursive: true, force: true }));
      process.stderr.write(`${figure.workload} ${side.tool} (${label}): ${run.seconds.toFixed(2)} s, load ${os.loadavg()[0]!.toFixed(1)}\n`);
      // Another session's edit rebuilt the server during this run: its time is not the command's.
      if (side !== figure.sheaf || label === WARM_UP || buildStamp() === stamp || attempt === REBUILD_RETRIES) return run;
      rebuilds++;
    }
  };
  await measure(figure.peer, WARM_UP);
  await measure(figure.sheaf, WARM_UP); // builds the server when its sources changed, warms the file cache
  const peerRuns: TimedRun[] = [];
  const sheafRuns: TimedRun[] = [];
  for (let i = 0; i < runs; i++) {
    peerRuns.push(await measure(figure.peer, `run ${i + 1}`));
    sheafRuns.push(await measure(figure.sheaf, `run ${i + 1}`));
  }
  const rate = (side: Side, sideRuns: TimedRun[]) => side.units / median(sideRuns.map((run) => run.seconds));
  const ratio = rate(figure.sheaf, sheafRuns) / rate(figure.peer, peerRuns);
  const invalid = problems.size ? [`INVALID OUTPUT: ${[...problems].join('; ')}`] : [];
  return [
    summary(figure.workload, figure.peer, peerRuns, invalid),
    summary(figure.workload, figure.sheaf, sheafRuns, [...invalid, figure.verdict(ratio, rate(figure.sheaf, sheafRuns)), ...(rebuilds ? [`${rebuilds} run(s) repeated: the server was rebuilt during them`] : [])]),
  ];
}

function summary(workload: string, side: Side, runs: TimedRun[], notes: string[]): BenchResult {
  const times = runs.map((run) => run.seconds);
  const own = runs.map((run) => side.ownSeconds(run)).filter((seconds) => seconds !== undefined);
  return {
    workload,
    tool: side.tool,
    units: side.units,
    unitName: side.unitName,
    seconds: median(times),
    peakRssMb: Math.max(...runs.map((run) => run.peakRssMb)),
    note: [
      ...(side.about ? [side.about] : []),
      ...notes,
      `spawn to exit, median of ${runs.length}, ${Math.min(...times).toFixed(2)}-${Math.max(...times).toFixed(2)} s`,
      ...(own.length ? [`${median(own).toFixed(2)} s by its own clock (after start-up and reading its inputs)`] : []),
    ].join('; '),
  };
}

export async function benchCli(runs = 3, only: readonly FigureName[] = FIGURES): Promise<BenchResult[]> {
  const results: BenchResult[] = [];
  for (const figure of await figures(new Set(only))) {
    try {
      results.push(...(await measureFigure(figure, runs)));
    } catch (error) {
      results.push({ workload: figure.workload, tool: figure.sheaf.tool, units: 0, unitName: '', seconds: 0, peakRssMb: 0, note: `failed: ${(error as Error).message}` });
    }
  }
  return results;
}

if (process.argv[1] === import.meta.filename) {
  const { values } = parseArgs({ options: { runs: { type: 'string', default: '3' }, only: { type: 'string', default: FIGURES.join(',') } } });
  const runs = Number(values.runs);
  if (!Number.isInteger(runs) || runs < 1) throw new Error(`--runs: not a positive whole number: ${values.runs}`);
  const only = values.only.split(',') as FigureName[];
  for (const name of only) if (!FIGURES.includes(name)) throw new Error(`--only: unknown figure "${name}" (${FIGURES.join(', ')})`);
  const load = () => os.loadavg().map((value) => value.toFixed(2)).join(' ');
  const loadBefore = load();
  for (const result of await benchCli(runs, only)) {
    const rate = result.seconds > 0 ? Math.round(result.units / result.seconds).toLocaleString('en-US') : '-';
    process.stdout.write(`${result.workload} ${result.tool}: ${result.units.toLocaleString('en-US')} ${result.unitName} in ${result.seconds.toFixed(2)} s (${rate} ${result.unitName}/s), peak RSS ${result.peakRssMb} MB; ${result.note}\n`);
  }
  process.stdout.write(`load average (1 / 5 / 15 min) before: ${loadBefore}; after: ${load()}; ${os.cpus().length} CPUs\n`);
}
