/**
 * One worker of mergeDocumentsInParallel: prepares the merge, then sends one message per batch it
 * owns (empty batches too, so the consumer's round-robin stays in step), at most AHEAD unconsumed.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { isSheafError } from '@sheaf/shared';
import { useNativeCrypto } from './nativeCrypto.ts';
import { prepareMerge, type OutputDocument, type Partition } from '../merge/index.ts';
import { fromTransferableSheet, type TransferableSheet } from '../sheet/transfer.ts';
import type { MergeInput, RowIssue } from '../merge/types.ts';

export interface WorkerRequest extends Omit<MergeInput, 'sheet'> {
  sheet: TransferableSheet;
  partition: Partition;
}

export type WorkerMessage =
  | { type: 'batch'; prefix: Uint8Array[]; documents: OutputDocument[] }
  | { type: 'done'; issues: RowIssue[] }
  | { type: 'error'; code: string; params: Record<string, string | number> };

const AHEAD = 2;

async function main(request: WorkerRequest): Promise<void> {
  useNativeCrypto();
  const port = parentPort!;
  let credits = AHEAD;
  let wake: (() => void) | undefined;
  port.on('message', () => {
    credits++;
    wake?.();
  });
  try {
    const merge = await prepareMerge({ ...request, sheet: fromTransferableSheet(request.sheet) });
    const { index, count, batchSize, start = 0 } = request.partition;
    const batches = Math.ceil(Math.max(0, merge.documentCount - start) / batchSize);
    const documents = merge.documents(request.partition);
    let pending = documents.next();
    let prefixSent = false;
    for (let batch = index; batch < batches; batch += count) {
      const owned: OutputDocument[] = [];
      while (!pending.done && Math.floor((pending.value.index - start) / batchSize) === batch) {
        owned.push(pending.value);
        pending = documents.next();
      }
      while (credits === 0) await new Promise<void>((resolve) => (wake = resolve));
      credits--;
      // The shared prefix travels once; documents carry only their own bytes.
      const withPrefix = prefixSent ? undefined : owned.find((document) => document.sharedPrefixChunks > 0);
      const prefix = withPrefix ? withPrefix.chunks.slice(0, withPrefix.sharedPrefixChunks) : [];
      if (withPrefix) prefixSent = true;
      const slim = owned.map((document) => ({ ...document, chunks: document.chunks.slice(document.sharedPrefixChunks) }));
      port.postMessage({ type: 'batch', prefix, documents: slim } satisfies WorkerMessage);
    }
    port.postMessage({ type: 'done', issues: merge.issues } satisfies WorkerMessage);
  } catch (error) {
    const params = isSheafError(error) ? error.params : { detail: error instanceof Error ? error.message : String(error) };
    port.postMessage({ type: 'error', code: isSheafError(error) ? error.code : 'generic/technical-error', params } satisfies WorkerMessage);
  } finally {
    port.removeAllListeners('message');
  }
}

await main(workerData as WorkerRequest);
