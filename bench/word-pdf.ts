/**
 * `npx tsx word-pdf.ts [--rows 300,3000] [--only plain,sheaf,sheaf-2] [--page-of-n]` (here): one PDF per row from a Word
 * template, Sheaf beside the careful plain way (README.md#word-templates-to-pdf). Each side runs in
 * its own child process (word-pdf/plain.ts, word-pdf/sheaf.ts); the peak RSS is its whole process
 * tree's, LibreOffice included, sampled from /proc while it runs. Prints a table with docs/s and the
 * ratio for each row count, and the load average before and after. `--page-of-n`: the letter with a
 * footer "Page X of N" (each document's own page count: Sheaf converts each batch twice).
 */
import { spawn } from 'node:child_process';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { BENCH_DIR, prepareBenchInputs, WORK_DIR } from './fixtures.ts';
import { trackPeakRss } from './process-rss.ts';
import { wordBenchTemplate, type WordPdfResult } from './word-pdf/template.ts';

/** Each side's script and its extra arguments ('sheaf-2': two batches converting at once). */
const SIDES = { plain: ['word-pdf/plain.ts'], sheaf: ['word-pdf/sheaf.ts'], 'sheaf-2': ['word-pdf/sheaf.ts', '2'] } as const;
const RSS_SAMPLE_MS = 200;

const { values } = parseArgs({ options: { rows: { type: 'string', default: '300' }, only: { type: 'string', default: 'plain,sheaf,sheaf-2' }, 'page-of-n': { type: 'boolean', default: false } } });
const rowCounts = values.rows.split(',').map(Number);
if (rowCounts.some((count) => !Number.isInteger(count) || count < 1)) throw new Error(`--rows: not row counts: ${values.rows}`);
const sides = values.only.split(',') as (keyof typeof SIDES)[];
for (const side of sides) if (!(side in SIDES)) throw new Error(`--only: unknown side "${side}" (plain, sheaf, sheaf-2)`);

/** Runs one side; its result line and the peak RSS of its process tree. */
async function runSide([script, ...extra]: readonly string[], args: string[]): Promise<WordPdfResult & { peakRssMb: number }> {
  const child = spawn(process.execPath, ['--import', 'tsx', script!, ...args, ...extra], { cwd: BENCH_DIR, stdio: ['ignore', 'pipe', 'inherit'] });
  let stdout = '';
  child.stdout.setEncoding('utf8').on('data', (text: string) => (stdout += text));
  const peakRssMb = trackPeakRss(child.pid!, RSS_SAMPLE_MS);
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  const peak = peakRssMb();
  if (code !== 0) throw new Error(`${script} exited with ${code}`);
  return { ...(JSON.parse(stdout.trim().split('\n').pop()!) as WordPdfResult), peakRssMb: peak };
}

const load = () => os.loadavg().map((value) => value.toFixed(1)).join(' / ');
await mkdir(WORK_DIR, { recursive: true });
const templatePath = path.join(WORK_DIR, 'word-letter.docx');
await writeFile(templatePath, wordBenchTemplate({ pageOfN: values['page-of-n'] }));
const inputs = await prepareBenchInputs(Math.max(...rowCounts));
const loadBefore = load();
const lines = [
  '| rows | tool | documents | seconds | docs/s | fill s | LibreOffice s | peak RSS MB (process tree) | note |',
  '| ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |',
];
const ratios: string[] = [];
for (const rows of rowCounts) {
  const rates: Partial<Record<keyof typeof SIDES, number>> = {};
  for (const side of sides) {
    const outDir = path.join(WORK_DIR, `word-pdf-${side}-${rows}`);
    await rm(outDir, { recursive: true, force: true });
    await mkdir(outDir, { recursive: true });
    process.stderr.write(`word-pdf: ${side}, ${rows} rows (load ${load()})\n`);
    try {
      const result = await runSide(SIDES[side], [templatePath, inputs.rowsPath, String(rows), outDir]);
      rates[side] = result.documents / result.seconds;
      const warm = result.warmUpSeconds === undefined ? '' : `pool warmed before timing (${result.warmUpSeconds.toFixed(1)} s)`;
      const note = [warm, result.note].filter(Boolean).join('; ');
      lines.push(`| ${rows} | ${result.tool} | ${result.documents} | ${result.seconds.toFixed(1)} | ${rates[side]!.toFixed(1)} | ${result.fillSeconds.toFixed(1)} | ${result.convertSeconds.toFixed(1)} | ${result.peakRssMb} | ${note} |`);
    } catch (error) {
      lines.push(`| ${rows} | ${side} | | | | | | | failed: ${(error as Error).message} |`);
    } finally {
      await rm(outDir, { recursive: true, force: true });
    }
  }
  for (const side of ['sheaf', 'sheaf-2'] as const) {
    if (rates.plain && rates[side]) ratios.push(`${rows} rows: ${side} ${(rates[side] / rates.plain).toFixed(1)}x the plain way's docs/s`);
  }
}
const template = values['page-of-n'] ? 'the letter with a "Page X of N" footer' : 'the letter';
console.log([`template: ${template}`, ...lines, '', ...ratios, `load average (1 / 5 / 15 min) before: ${loadBefore}, after: ${load()}; ${os.cpus().length} CPUs`].join('\n'));
