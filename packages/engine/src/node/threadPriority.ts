/**
 * Merge worker threads run below the event loop's CPU priority (Linux keeps a nice value per thread):
 * when the workers keep every core busy, the thread that answers HTTP still gets the CPU at once.
 * Elsewhere, or where it is refused, nothing changes. Threads and processes a worker starts inherit it.
 */
import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';

export const WORKER_NICE = 5;

export function lowerThreadPriority(): void {
  try {
    // /proc/thread-self names this thread: <pid>/task/<tid>; setpriority on a tid changes that thread only.
    setPriority(Number(readlinkSync('/proc/thread-self').split('/').pop()), WORKER_NICE);
  } catch {
    // not Linux, or not allowed: the worker runs at the process's priority
  }
}

/** The same, as source run first in a worker started from code (before tsx compiles the worker's modules). */
export const LOWER_PRIORITY_SOURCE = `try { process.getBuiltinModule('node:os').setPriority(Number(process.getBuiltinModule('node:fs').readlinkSync('/proc/thread-self').split('/').pop()), ${WORKER_NICE}); } catch {}\n`;
