/**
 * A full disk is the user's error to see, not ours to retry: ENOSPC, EDQUOT and EIO from any write
 * become the catalogue's 'generic/storage-full' (507), so a merge ends cleanly instead of being tried
 * again three times, and an upload answers it instead of a 500. New merges and uploads are refused
 * while the data folder's file system has less than MIN_FREE_MB free, which keeps room for the database.
 */
import { statfs } from 'node:fs/promises';
import { SheafError, isSheafError } from '@sheaf/shared';

const STORAGE_FULL_CODES = new Set(['ENOSPC', 'EDQUOT', 'EIO']);

/** True when `error` (or an error it wraps) is a write failing for want of room. */
export function isStorageFull(error: unknown): boolean {
  for (let depth = 0; error && typeof error === 'object' && depth < 5; depth++) {
    if (isSheafError(error)) return error.code === 'generic/storage-full';
    const code = (error as { code?: unknown }).code;
    if (typeof code === 'string' && STORAGE_FULL_CODES.has(code)) return true;
    error = (error as { cause?: unknown }).cause;
  }
  return false;
}

export function storageFullError(cause?: unknown): SheafError {
  return new SheafError('generic/storage-full', {}, { cause });
}

/** The error as the user should see it: a full disk becomes 'generic/storage-full', anything else is kept. */
export function asStorageError(error: unknown): unknown {
  return !isSheafError(error) && isStorageFull(error) ? storageFullError(error) : error;
}

/** Megabytes free to this process on the file system holding `dir` (undefined when it cannot be read). */
export async function freeMegabytes(dir: string): Promise<number | undefined> {
  try {
    const stats = await statfs(dir);
    return (stats.bavail * stats.bsize) / (1024 * 1024);
  } catch {
    return undefined; // a folder not made yet, or a platform without statfs: no floor to check
  }
}

/** Throws 'generic/storage-full' when the data folder has less than `minFreeMb` free. */
export async function requireFreeSpace(config: { DATA_DIR: string; MIN_FREE_MB: number }): Promise<void> {
  if (config.MIN_FREE_MB <= 0) return;
  const free = await freeMegabytes(config.DATA_DIR);
  if (free !== undefined && free < config.MIN_FREE_MB) throw storageFullError();
}
