/** One measured candidate of one workload. Ratios are computed against the workload's baseline. */
export interface BenchResult {
  workload: string; // e.g. "per-row", "combined", "sheet-read", "disk-write"
  tool: string; // e.g. "sheaf", "pdf-lib", "@pdfme/generator", "exceljs", "SheetJS", "disk"
  units: number; // documents, pages or rows processed
  unitName: string; // "docs", "pages", "rows", "MB"
  seconds: number;
  bytesOut?: number; // total bytes written, where output is produced
  peakRssMb: number; // peak resident memory of the process that did the work
  note?: string;
}

/** The workloads a candidate script can run (sheet-read has its own harness in sheet-read.ts). */
export type PdfWorkload = 'per-row' | 'combined';

/**
 * One candidate of a PDF workload, run as its own child process so its peak RSS is its own:
 *   node --import tsx <script> <template.pdf> <rows.json> <count> <outDir>
 * with the bench/ folder as working directory. The script reads the template and the rows (not timed),
 * then, timed: produces `count` documents (per-row: one PDF file per row in outDir) or one combined PDF
 * of `count` rows (combined: outDir/combined.pdf), writes them to outDir, and prints exactly one
 * BenchResult as a JSON line on stdout (the last stdout line; anything else goes to stderr).
 * rows.json is an array of BenchRow with at least `count` entries.
 */
export interface BenchCandidate {
  workload: PdfWorkload;
  tool: string;
  /** Path of the script, relative to bench/. */
  script: string;
  /** Caps the row count for slow tools, so the whole bench stays within a few minutes. */
  maxRows?: number;
  /** Makes every document but writes only the first (for the check): the engine's own speed. */
  inMemory?: boolean;
}

/** One data row of the bench's mail merge. */
export interface BenchRow {
  First: string;
  Last: string;
  Amount: string;
}

/** Where the template shows a row's value: PDF points from the page's bottom-left corner, 0-based page. */
export interface BenchField {
  column: keyof BenchRow;
  page: number;
  x: number;
  y: number;
  size: number;
  /** Box width and height for tools that lay text out in a box (pdfme). */
  width: number;
  height: number;
}

/** The template's 3 placeholders: all on page 1 (an A4 letter; page 2 is static). */
export const BENCH_FIELDS: readonly BenchField[] = [
  { column: 'First', page: 0, x: 88, y: 652, size: 12, width: 60, height: 16 },
  { column: 'Last', page: 0, x: 150, y: 652, size: 12, width: 200, height: 16 },
  { column: 'Amount', page: 0, x: 400, y: 520, size: 14, width: 120, height: 18 },
];
