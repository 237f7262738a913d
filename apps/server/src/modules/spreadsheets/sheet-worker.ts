/** Worker side of reading an uploaded spreadsheet: the engine's readSheet, answered as plain arrays. */
import { readSheet } from '@sheaf/engine';
import { serveTasks } from '../../workers/pool.ts';
import { toTransferableSheet, type TransferableSheet } from './sheet-transfer.ts';

export interface SheetReadRequest {
  bytes: Uint8Array;
  /** The header row's number, or 'auto' to find it (the engine's readSheet). */
  headerRow: number | 'auto';
  fileName: string;
}

async function read(request: SheetReadRequest): Promise<TransferableSheet> {
  return toTransferableSheet(readSheet(request.bytes, { headerRow: request.headerRow, fileName: request.fileName }));
}

serveTasks(read, 'sheet/corrupt');
