/** Reads spreadsheet bytes in a worker thread with a deadline and a heap cap (uploads reach 25 MB). */
import type { SheetData } from '@sheaf/engine';
import { SheafError } from '@sheaf/shared';
import { WorkerPool } from '../../workers/pool.ts';
import { fromTransferableSheet, type TransferableSheet } from './sheet-transfer.ts';
import type { SheetReadRequest } from './sheet-worker.ts';

// 25 MB of .xlsx take a few seconds and a few hundred MB; the caps leave room and stop runaways.
const sheetWorkers = new WorkerPool<SheetReadRequest, TransferableSheet>(new URL('./sheet-worker.ts', import.meta.url), {
  timeoutMs: 120_000,
  maxMemoryMb: 1536,
  timeoutError: () => new SheafError('sheet/limits-exceeded', { detail: 'it takes too long to read' }),
  memoryError: () => new SheafError('sheet/limits-exceeded', { detail: 'it needs too much memory to read' }),
});

export async function readSheetSafely(bytes: Uint8Array, headerRow: number | 'auto', fileName: string): Promise<SheetData> {
  // Checked here too, so an empty upload does not start a worker.
  if (bytes.length === 0) throw new SheafError('sheet/empty-file');
  return fromTransferableSheet(await sheetWorkers.run({ bytes, headerRow, fileName }));
}
