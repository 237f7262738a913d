/**
 * The sheet-read workload: a realistic N x 20 .xlsx (generated once into .work/) read by exceljs's
 * streaming reader (the baseline), SheetJS and Sheaf, each in its own child process so peak RSS is
 * the tool's own. A tool that reads a different number of rows than the sheet holds is marked.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SHEET_TOOLS, type SheetTool } from './sheet-read-child.ts';
import { benchWorkbook } from './sheet-read-data.ts';
import type { BenchResult } from './types.ts';

const BENCH_DIR = path.dirname(fileURLToPath(import.meta.url));
const WORK_DIR = path.join(BENCH_DIR, '.work');
const CHILD_SCRIPT = path.join(BENCH_DIR, 'sheet-read-child.ts');
const CHILD_TIMEOUT_MS = 10 * 60 * 1000;

export async function benchSheetRead(rows = 100_000): Promise<BenchResult[]> {
  const file = await benchWorkbook(WORK_DIR, rows);
  const results: BenchResult[] = [];
  for (const tool of SHEET_TOOLS) {
    let result: BenchResult;
    try {
      result = await runChild(tool, file);
      if (result.units !== rows) result = { ...result, note: `WRONG ROW COUNT: ${result.units} read, ${rows} expected` };
    } catch (error) {
      result = { workload: 'sheet-read', tool, units: 0, unitName: 'rows', seconds: 0, peakRssMb: 0, note: `failed: ${(error as Error).message}` };
    }
    results.push(result);
  }
  return results;
}

function runChild(tool: SheetTool, file: string): Promise<BenchResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', CHILD_SCRIPT, tool, file], { cwd: BENCH_DIR, stdio: ['ignore', 'pipe', 'inherit'] });
    let stdout = '';
    child.stdout.setEncoding('utf8').on('data', (text: string) => (stdout += text));
    const timer = setTimeout(() => child.kill('SIGKILL'), CHILD_TIMEOUT_MS);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (code !== 0) return reject(new Error(`${tool} exited with ${signal ?? code}`));
      try {
        resolve(JSON.parse(stdout.trim().split('\n').pop() ?? '') as BenchResult);
      } catch {
        reject(new Error(`${tool} printed no result`));
      }
    });
  });
}

// `npx tsx sheet-read.ts [rows]` runs this workload alone.
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  for (const result of await benchSheetRead(Number(process.argv[2] ?? 100_000))) console.log(JSON.stringify(result));
}
