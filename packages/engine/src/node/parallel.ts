/**
 * Merges in worker threads, so the caller's thread (a server's event loop) only writes what comes
 * back. Each worker prepares the same merge (same fonts, same object numbers, so identical shared
 * bytes) under a heap cap, then makes the documents of the batches dealt to it round-robin; the
 * caller receives them in order, as from PreparedMerge.documents(), their bytes transferred, not
 * copied (a batch's in one array), each with its CRC-32 computed there. Backpressure: a worker runs
 * at most two batches ahead of the consumer, so memory stays flat.
 * A combined document is made by one worker and streamed back in pieces the same way.
 */
import { availableParallelism } from 'node:os';
import { toTransferableSheet } from '../sheet/transfer.ts';
import type { MergeInput, RowIssue } from '../merge/types.ts';
import type { OutputDocument } from '../merge/index.ts';
import { giveBackMergeWorker, takeMergeWorker, type MergeWorkerLink } from './mergeWorkerLink.ts';
import { packSheet } from './packedSheet.ts';
import { isBundledFallbackFonts } from './fonts.ts';
import type { WorkerRequest } from './mergeWorker.ts';

export interface ParallelOptions {
  /** Worker threads for separate documents (default: the machine's cores); a combined document uses one. */
  workers?: number;
  /** Documents per batch (default 32). */
  batchSize?: number;
  /** The first document to make (a resumed merge); the documents before it are not made. */
  start?: number;
  /** Heap cap of each worker (default 2,048 MB); reaching it fails the merge with `merge/too-complex`. */
  maxMemoryMb?: number;
  /** Aborting ends the workers at once, wherever they are (preparing, making, waiting). */
  signal?: AbortSignal;
}

export interface ParallelMerge {
  documents: AsyncGenerator<OutputDocument>;
  /** Rows skipped, complete once `documents` is exhausted. */
  issues: RowIssue[];
}

/** A merge prepared in worker threads; `close()` ends them (a merge kept for its next range calls it last). */
export interface ThreadedMerge {
  readonly documentCount: number;
  readonly rowCount: number;
  readonly isCombined: boolean;
  /** True once the workers are gone (closed, aborted or failed): nothing more can be asked. */
  readonly closed: boolean;
  /** The separate documents from `start` to before `end` (default: all), in order. One call at a time. */
  documents(range?: { start?: number; end?: number }, signal?: AbortSignal): ParallelMerge;
  /** The combined document's bytes, in order. */
  combined(signal?: AbortSignal): { chunks: AsyncGenerator<Uint8Array>; issues: RowIssue[] };
  /** Ends the merge: its workers go back warm for the next merge when it ended well, else they end. */
  close(): void;
  /** Kept idle for a later request: the workers no longer keep the process alive until asked again. */
  idle(): void;
}

export const DEFAULT_MERGE_MEMORY_MB = 2048;

/** Starts the workers and waits until each has prepared the merge (parsed the template, planned the rows). */
export async function prepareMergeInWorkers(input: MergeInput, options: ParallelOptions = {}): Promise<ThreadedMerge> {
  options.signal?.throwIfAborted();
  const count = input.options?.isCombinedOutput ? 1 : Math.max(1, options.workers ?? availableParallelism());
  const { sheet, fallbackFonts, ...rest } = input;
  // Copying megabytes of fonts to each worker holds this thread: the bundled ones each worker reads itself.
  const bundled = isBundledFallbackFonts(fallbackFonts);
  const request: WorkerRequest = { ...rest, fallbackFonts: bundled ? undefined : fallbackFonts, sheet: await packSheet(toTransferableSheet(sheet)) };
  const links: MergeWorkerLink[] = [];
  const merge = new WorkerMerge(links, options.batchSize ?? 32);
  const onAbort = () => merge.terminate(options.signal!.reason);
  options.signal?.addEventListener('abort', onAbort, { once: true });
  try {
    // One at a time, the event loop let in between: each start copies the request.
    for (let index = 0; index < count; index++) {
      options.signal?.throwIfAborted();
      const link = takeMergeWorker(options.maxMemoryMb ?? DEFAULT_MERGE_MEMORY_MB);
      links.push(link);
      link.prepare(request);
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
    const replies = await Promise.all(links.map((link) => link.receive()));
    const prepared = replies[0]!;
    if (prepared.type !== 'prepared') throw new Error(`merge worker answered ${prepared.type} before it was prepared`);
    merge.prepared(prepared);
    return merge;
  } catch (error) {
    merge.terminate(error);
    throw error;
  } finally {
    options.signal?.removeEventListener('abort', onAbort);
  }
}

/** The separate documents of a merge made in worker threads, the workers ended when they are done. */
export function mergeDocumentsInParallel(input: MergeInput, options: ParallelOptions = {}): ParallelMerge {
  const issues: RowIssue[] = [];
  async function* run(): AsyncGenerator<OutputDocument> {
    const merge = await prepareMergeInWorkers(input, options);
    try {
      const made = merge.documents({ start: options.start }, options.signal);
      yield* made.documents;
      issues.push(...made.issues);
    } finally {
      merge.close();
    }
  }
  return { documents: run(), issues };
}

class WorkerMerge implements ThreadedMerge {
  documentCount = 0;
  rowCount = 0;
  isCombined = false;
  closed = false;
  private busy = false;
  /** The shared prefix as first received: later workers' equal prefixes become these same arrays, so a ZIP writer sums its CRC once. */
  private sharedPrefix: Uint8Array[] | undefined;

  constructor(
    private readonly links: MergeWorkerLink[],
    private readonly batchSize: number,
  ) {}

  prepared(facts: { documentCount: number; rowCount: number; isCombined: boolean }): void {
    ({ documentCount: this.documentCount, rowCount: this.rowCount, isCombined: this.isCombined } = facts);
  }

  /** A merge that ended well gives its workers back warm; one in the middle of a request ends them. */
  close(): void {
    if (this.closed) return;
    if (this.busy) return this.terminate();
    this.closed = true;
    for (const link of this.links) giveBackMergeWorker(link);
  }

  /** Ends the workers now, wherever they are (an abort, a failure, a consumer that stopped early). */
  terminate(reason?: unknown): void {
    this.closed = true;
    for (const link of this.links) link.stop(reason);
  }

  idle(): void {
    for (const link of this.links) link.keepsProcessAlive(false);
  }

  documents(range: { start?: number; end?: number } = {}, signal?: AbortSignal): ParallelMerge {
    const issues: RowIssue[] = [];
    return { documents: this.guarded(signal, () => this.runDocuments(range.start ?? 0, range.end, issues)), issues };
  }

  combined(signal?: AbortSignal): { chunks: AsyncGenerator<Uint8Array>; issues: RowIssue[] } {
    const issues: RowIssue[] = [];
    return { chunks: this.guarded(signal, () => this.runCombined(issues)), issues };
  }

  /**
   * One command at a time; an abort ends the workers at once (a waiting consumer gets the abort's
   * reason); a consumer that stops early or fails leaves workers in the middle of a command: ended too.
   */
  private async *guarded<T>(signal: AbortSignal | undefined, run: () => AsyncGenerator<T>): AsyncGenerator<T> {
    if (this.closed) throw new Error('the merge workers are closed');
    if (this.busy) throw new Error('the merge workers are busy with another request');
    signal?.throwIfAborted();
    this.busy = true;
    for (const link of this.links) link.keepsProcessAlive(true);
    const onAbort = () => this.terminate(signal!.reason);
    signal?.addEventListener('abort', onAbort, { once: true });
    let finished = false;
    try {
      yield* run();
      finished = true;
    } finally {
      signal?.removeEventListener('abort', onAbort);
      this.busy = false;
      if (!finished) this.terminate();
    }
    signal?.throwIfAborted();
  }

  private async *runDocuments(start: number, end: number | undefined, issues: RowIssue[]): AsyncGenerator<OutputDocument> {
    const { links, batchSize } = this;
    const count = links.length;
    links.forEach((link, index) => link.send({ type: 'documents', partition: { index, count, batchSize, start, end } }));
    // Each worker's shared prefix (identical bytes in practice; kept per worker so nothing depends on it).
    const prefixes: Uint8Array[][] = links.map(() => []);
    for (let batch = 0; ; batch++) {
      const link = links[batch % count]!;
      const message = await link.receive();
      if (message.type === 'done') {
        // Batches are dealt round-robin: the first worker out of batches means all are done.
        issues.push(...message.issues);
        for (const other of links) if (other !== link) issues.push(...(await doneOf(other)));
        issues.sort((a, b) => a.rowNumber - b.rowNumber);
        return;
      }
      if (message.type !== 'batch') throw new Error(`merge worker sent ${message.type} among documents`);
      if (message.prefix.length) prefixes[batch % count] = this.samePrefix(message.prefix);
      link.send({ type: 'credit' });
      const prefix = prefixes[batch % count]!;
      let at = 0;
      for (const { ownLength, shared, ...document } of message.documents) {
        const own = message.bytes.subarray(at, (at += ownLength));
        yield { ...document, chunks: shared ? [...prefix, own] : [own], sharedPrefixChunks: shared ? prefix.length : 0 };
      }
    }
  }

  private async *runCombined(issues: RowIssue[]): AsyncGenerator<Uint8Array> {
    const link = this.links[0]!;
    link.send({ type: 'combined' });
    for (;;) {
      const message = await link.receive();
      if (message.type === 'done') {
        issues.push(...message.issues);
        return;
      }
      if (message.type !== 'chunks') throw new Error(`merge worker sent ${message.type} in a combined document`);
      link.send({ type: 'credit' });
      yield message.bytes;
    }
  }

  private samePrefix(prefix: Uint8Array[]): Uint8Array[] {
    const first = this.sharedPrefix;
    const equal = first && first.length === prefix.length && first.every((chunk, i) => Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength).equals(prefix[i]!));
    if (equal) return first;
    this.sharedPrefix ??= prefix;
    return prefix;
  }
}

/** The issues of a worker that has no batch left to send. */
async function doneOf(link: MergeWorkerLink): Promise<RowIssue[]> {
  for (;;) {
    const message = await link.receive();
    if (message.type === 'done') return message.issues;
  }
}
