/**
 * Turns raw BenchResults into rates and ratios against each workload's baseline, and writes them as
 * bench/results.json and a markdown table (bench/results.md, also printed).
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { BenchResult } from './types.ts';

/** The tool each workload is compared against (ratio 1.00). */
export const BASELINES: Readonly<Record<string, string>> = { 'per-row': 'pdf-lib', combined: 'pdf-lib', 'sheet-read': 'exceljs', send: 'nodemailer pool (8)', 'cold-start': 'pdf-lib script, one row', 'cli-zip': 'pdf-lib per-row script', 'cli-combined': 'pdf-lib combined script', 'cli-sheet': 'exceljs streaming reader, whole sheet' };

const MB = 1024 * 1024;
const WORKLOAD_ORDER = ['per-row', 'combined', 'sheet-read', 'send', 'cold-start', 'serve-start'];
const workloadRank = (workload: string) => (WORKLOAD_ORDER.includes(workload) ? WORKLOAD_ORDER.indexOf(workload) : WORKLOAD_ORDER.length);

export interface RatedResult extends BenchResult {
  /** units per second */
  rate: number;
  /** rate / the baseline tool's rate in the same workload */
  ratio?: number;
  /** MB of output written per second */
  mbPerSecond?: number;
  /** mbPerSecond as a share of the disk's own sequential write speed (per-row workload) */
  diskShare?: number;
  /** combined workload: output bytes beyond the template, per page */
  extraBytesPerPage?: number;
  failed?: boolean;
}

export interface BenchReport {
  generatedAt: string;
  machine: { cpus: number; cpuModel: string; memoryMb: number; node: string; loadAverage: number[] };
  options: Record<string, unknown>;
  templateBytes: number;
  results: RatedResult[];
}

/** Adds rates, baseline ratios, write speed and disk share to each result. */
export function rateResults(results: readonly BenchResult[], templateBytes: number): RatedResult[] {
  const rateOf = (result: BenchResult) => (result.seconds > 0 ? result.units / result.seconds : 0);
  const disk = results.find((result) => result.workload === 'disk-write' && result.units > 0);
  const diskMbPerSecond = disk ? disk.units / disk.seconds : undefined;
  return results.map((result) => {
    const rated: RatedResult = { ...result, rate: rateOf(result), failed: result.units === 0 || undefined };
    const baseline = results.find((other) => other.workload === result.workload && other.tool === BASELINES[result.workload]);
    if (baseline && rateOf(baseline) > 0) rated.ratio = rated.rate / rateOf(baseline);
    if (result.bytesOut !== undefined && result.seconds > 0) rated.mbPerSecond = result.bytesOut / MB / result.seconds;
    if (result.workload === 'per-row' && rated.mbPerSecond !== undefined && diskMbPerSecond) {
      rated.diskShare = rated.mbPerSecond / diskMbPerSecond;
    }
    if (result.workload === 'combined' && result.bytesOut !== undefined && result.units > 0) {
      rated.extraBytesPerPage = (result.bytesOut - templateBytes) / result.units;
    }
    return rated;
  });
}

const fixed = (value: number | undefined, digits: number) => (value === undefined ? '' : value.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits }));
const whole = (value: number | undefined) => fixed(value, 0);
const percent = (value: number | undefined) => (value === undefined ? '' : `${(value * 100).toFixed(0)} %`);

function workloadTable(workload: string, rows: readonly RatedResult[]): string {
  const unitName = rows.find((row) => !row.failed)?.unitName ?? 'units';
  const columns = ['tool', unitName, 'seconds', `${unitName}/s`, `vs ${BASELINES[workload] ?? 'baseline'}`, 'MB/s written'];
  if (workload === 'per-row') columns.push('bytes/doc', '% of disk');
  if (workload === 'combined') columns.push('extra bytes/page');
  columns.push('peak RSS MB', 'note');
  const lines = [`### ${workload}`, '', `| ${columns.join(' | ')} |`, `|${columns.map((_, i) => (i === 0 || i === columns.length - 1 ? ' --- ' : ' ---: ')).join('|')}|`];
  for (const row of rows) {
    const cells = [row.tool, whole(row.units), fixed(row.seconds, 2), whole(row.rate), row.ratio === undefined ? '' : `${fixed(row.ratio, 2)}x`, fixed(row.mbPerSecond, 1)];
    if (workload === 'per-row') cells.push(whole(row.bytesOut === undefined || !row.units ? undefined : row.bytesOut / row.units), percent(row.diskShare));
    if (workload === 'combined') cells.push(whole(row.extraBytesPerPage));
    cells.push(whole(row.peakRssMb), row.failed ? `FAILED ${row.note ?? ''}` : (row.note ?? ''));
    lines.push(`| ${cells.join(' | ')} |`);
  }
  return lines.join('\n');
}

export function reportMarkdown(report: BenchReport): string {
  const { machine } = report;
  const parts = [
    `## Sheaf benchmark, ${report.generatedAt}`,
    '',
    `${machine.cpus} x ${machine.cpuModel}, ${whole(machine.memoryMb)} MB RAM, Node ${machine.node}, load average ${machine.loadAverage.map((load) => load.toFixed(2)).join(' ')}. ` +
      `Template ${whole(report.templateBytes)} bytes. Each tool ran in its own process; ratios compare rates within one workload.`,
  ];
  const disk = report.results.find((result) => result.workload === 'disk-write');
  if (disk) parts.push('', `Disk sequential write (1 MB chunks, one fsync): ${fixed(disk.rate, 0)} MB/s over ${whole(disk.units)} MB.`);
  const workloads = [...new Set(report.results.map((result) => result.workload))]
    .filter((workload) => workload !== 'disk-write')
    .sort((a, b) => workloadRank(a) - workloadRank(b));
  for (const workload of workloads) {
    parts.push('', workloadTable(workload, report.results.filter((result) => result.workload === workload)));
  }
  return `${parts.join('\n')}\n`;
}

export async function writeReport(dir: string, report: BenchReport): Promise<string> {
  const markdown = reportMarkdown(report);
  await writeFile(path.join(dir, 'results.json'), `${JSON.stringify(report, null, 2)}\n`);
  await writeFile(path.join(dir, 'results.md'), markdown);
  return markdown;
}
