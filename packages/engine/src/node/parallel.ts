/**
 * Large separate-documents merges across worker threads. Each worker prepares the same merge (same
 * fonts, same object numbers, so identical shared bytes) and makes the documents of its batches;
 * the caller receives them in order, as from PreparedMerge.documents(). Backpressure: a worker runs
 * at most two batches ahead of the consumer.
 */
import { Worker } from 'node:worker_threads';
import { availableParallelism } from 'node:os';
import { SheafError, type ErrorCode, type ErrorParams } from '@sheaf/shared';
import { toTransferableSheet } from '../sheet/transfer.ts';
import type { MergeInput, RowIssue } from '../merge/types.ts';
import type { OutputDocument } from '../merge/index.ts';
import type { WorkerMessage, WorkerRequest } from './mergeWorker.ts';
import { tsBootstrap } from './guarded.ts';

export interface ParallelOptions {
  /** Default: the machine's cores. */
  workers?: number;
  /** Documents per batch (default 32). */
  batchSize?: number;
  /** The first document to make (a resumed merge); the documents before it are not made. */
  start?: number;
}

export interface ParallelMerge {
  documents: AsyncGenerator<OutputDocument>;
  /** Rows skipped, complete once `documents` is exhausted. */
  issues: RowIssue[];
}

export function mergeDocumentsInParallel(input: MergeInput, options: ParallelOptions = {}): ParallelMerge {
  const count = Math.max(1, options.workers ?? availableParallelism());
  const batchSize = options.batchSize ?? 32;
  const issues: RowIssue[] = [];
  return { documents: run(input, count, batchSize, options.start ?? 0, issues), issues };
}

async function* run(input: MergeInput, count: number, batchSize: number, start: number, issues: RowIssue[]): AsyncGenerator<OutputDocument> {
  const { sheet, ...rest } = input;
  const workers = Array.from({ length: count }, (_, index) => startWorker({ ...rest, sheet: toTransferableSheet(sheet), partition: { index, count, batchSize, start } }));
  try {
    // Each worker's shared prefix (identical bytes in practice; kept apart so nothing depends on it).
    const prefixes: Uint8Array[][] = workers.map(() => []);
    for (let batch = 0; ; batch++) {
      const worker = workers[batch % count]!;
      const message = await worker.next();
      if (message.type === 'error') throw new SheafError(message.code as ErrorCode, message.params as ErrorParams);
      if (message.type === 'done') {
        // Batches are dealt round-robin: the first worker out of batches means all are done.
        issues.push(...message.issues);
        for (const other of workers) if (other !== worker) issues.push(...(await other.drain()));
        issues.sort((a, b) => a.rowNumber - b.rowNumber);
        return;
      }
      if (message.prefix.length) prefixes[batch % count] = message.prefix;
      worker.credit();
      for (const document of message.documents) {
        const chunks = document.sharedPrefixChunks ? [...prefixes[batch % count]!, ...document.chunks] : document.chunks;
        yield { ...document, chunks };
      }
    }
  } finally {
    for (const worker of workers) worker.stop();
  }
}

function startWorker(request: WorkerRequest) {
  const worker = workerFor(new URL('./mergeWorker.ts', import.meta.url), request);
  const queue: WorkerMessage[] = [];
  let waiting: ((message: WorkerMessage) => void) | undefined;
  const deliver = (message: WorkerMessage) => {
    if (waiting) {
      const resolve = waiting;
      waiting = undefined;
      resolve(message);
    } else queue.push(message);
  };
  worker.on('message', deliver);
  worker.on('error', (error) => deliver({ type: 'error', code: 'generic/technical-error', params: { detail: error.message } }));
  const next = () => (queue.length ? Promise.resolve(queue.shift()!) : new Promise<WorkerMessage>((resolve) => (waiting = resolve)));
  return {
    next,
    credit: () => worker.postMessage('credit'),
    async drain(): Promise<RowIssue[]> {
      const message = await next();
      if (message.type === 'error') throw new SheafError(message.code as ErrorCode, message.params as ErrorParams);
      return message.type === 'done' ? message.issues : [];
    },
    stop: () => void worker.terminate(),
  };
}

/** From the sources (.ts) a worker runs through tsx; from the compiled build (.mjs, see scripts/build-server.mjs) directly. */
function workerFor(entry: URL, request: WorkerRequest): Worker {
  if (!entry.pathname.endsWith('.ts')) return new Worker(entry, { workerData: request });
  return new Worker(tsBootstrap(entry), { eval: true, workerData: request });
}
