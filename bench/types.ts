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
