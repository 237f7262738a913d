/**
 * One sheet-read measurement in a process of its own, so its peak RSS is its own:
 *   node --import tsx sheet-read-child.ts <tool> <file.xlsx>
 * The tool's modules are loaded and the file read into memory before the clock starts; the clock
 * stops once every row has been read. Prints one BenchResult as JSON on its last stdout line.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import type { BenchResult } from './types.ts';

export const SHEET_TOOLS = ['exceljs', 'SheetJS', 'sheaf', 'sheaf, every cell as text'] as const;
export type SheetTool = (typeof SHEET_TOOLS)[number];

interface Measured {
  /** Data rows (the header row not counted). */
  rows: number;
  /** Non-empty cells the tool handed over, when it hands cells over. */
  cells?: number;
}
type Reader = (bytes: Buffer) => Promise<Measured> | Measured;

const loaders: Record<SheetTool, () => Promise<Reader>> = {
  /** exceljs's streaming reader, caching shared strings and styles (without styles dates stay numbers). */
  exceljs: async () => {
    const { default: ExcelJS } = await import('exceljs');
    return async (bytes) => {
      const options = { sharedStrings: 'cache', styles: 'cache', worksheets: 'emit', hyperlinks: 'ignore', entries: 'ignore' } as const;
      const reader = new ExcelJS.stream.xlsx.WorkbookReader(Readable.from([bytes]), options);
      let rows = 0;
      let cells = 0;
      for await (const worksheet of reader) {
        for await (const row of worksheet) {
          rows++;
          for (const value of row.values as unknown[]) if (value !== undefined && value !== null) cells++;
        }
        break; // the first sheet only, like the others
      }
      return { rows: rows - 1, cells };
    };
  },
  SheetJS: async () => {
    const XLSX = await import('@e965/xlsx');
    return (bytes) => {
      const workbook = XLSX.read(bytes, { type: 'buffer', dense: true, sheets: 0 });
      const data = (workbook.Sheets[workbook.SheetNames[0]!]!['!data'] ?? []) as (unknown[] | undefined)[];
      let cells = 0;
      for (const row of data) if (row) for (const cell of row) if (cell) cells++;
      return { rows: data.length - 1, cells };
    };
  },
  // The sheet module alone, as a sheet-reading worker loads it (the engine's entry also loads pdf-lib).
  sheaf: async () => {
    const { readSheet } = await import('../packages/engine/src/sheet/index.ts');
    return (bytes) => ({ rows: readSheet(bytes).rowCount });
  },
  /** Sheaf's read plus every cell formatted as Excel shows it, which SheetJS does while reading. */
  'sheaf, every cell as text': async () => {
    const { readSheet } = await import('../packages/engine/src/sheet/index.ts');
    return (bytes) => {
      const sheet = readSheet(bytes);
      let cells = 0;
      for (let row = 0; row < sheet.rowCount; row++) {
        for (let column = 0; column < sheet.headers.length; column++) if (sheet.text(row, column) !== '') cells++;
      }
      return { rows: sheet.rowCount, cells };
    };
  },
};

async function main(): Promise<void> {
  const [tool, file] = process.argv.slice(2) as [SheetTool, string | undefined];
  if (!SHEET_TOOLS.includes(tool) || !file) throw new Error('usage: sheet-read-child.ts <tool> <file.xlsx>');
  const read = await loaders[tool]();
  const bytes = readFileSync(file);
  const start = performance.now();
  const cpuStart = process.cpuUsage();
  const measured = await read(bytes);
  const seconds = (performance.now() - start) / 1000;
  const cpu = process.cpuUsage(cpuStart);
  // CPU time (all threads) beside wall time: on a shared, loaded machine it is the steadier figure.
  const notes = [`${((cpu.user + cpu.system) / 1e6).toFixed(2)} s CPU`];
  if (measured.cells !== undefined) notes.push(`${measured.cells.toLocaleString('en-US')} cells`);
  const result: BenchResult = {
    workload: 'sheet-read',
    tool,
    units: measured.rows,
    unitName: 'rows',
    seconds,
    peakRssMb: process.resourceUsage().maxRSS / 1024,
    note: notes.join(', '),
  };
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
