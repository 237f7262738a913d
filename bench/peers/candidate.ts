/**
 * The child side of the candidate contract (bench/types.ts, BenchCandidate): reads the arguments and
 * inputs, and prints the one BenchResult line with this process's own peak RSS.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { BenchResult, BenchRow } from '../types.ts';

export interface CandidateInput {
  template: Uint8Array<ArrayBuffer>;
  rows: BenchRow[];
  count: number;
  outDir: string;
}

export function readCandidateInput(argv: readonly string[] = process.argv.slice(2)): CandidateInput {
  const [templatePath, rowsPath, count, outDir] = argv;
  if (!templatePath || !rowsPath || !count || !outDir) {
    throw new Error('usage: <template.pdf> <rows.json> <count> <outDir>');
  }
  const rows = JSON.parse(readFileSync(rowsPath, 'utf8')) as BenchRow[];
  if (rows.length < Number(count)) throw new Error(`${rowsPath} holds ${rows.length} rows, ${count} asked`);
  return { template: new Uint8Array(readFileSync(templatePath)), rows, count: Number(count), outDir };
}

/** File name of row i's document in a per-row run. */
export function rowDocumentPath(outDir: string, i: number): string {
  return path.join(outDir, `row-${String(i + 1).padStart(6, '0')}.pdf`);
}

export function combinedDocumentPath(outDir: string): string {
  return path.join(outDir, 'combined.pdf');
}

/** Peak resident set size of this process so far (Linux reports ru_maxrss in KiB). */
export function peakRssMb(): number {
  return Math.round(process.resourceUsage().maxRSS / 1024);
}

/** Prints the result as the last stdout line, as the parent expects. */
export function printResult(result: Omit<BenchResult, 'peakRssMb'>): void {
  process.stdout.write(`${JSON.stringify({ ...result, peakRssMb: peakRssMb() })}\n`);
}
