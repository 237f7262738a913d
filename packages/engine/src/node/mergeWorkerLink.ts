/**
 * The caller's side of one merge worker thread (mergeWorker.ts): its messages in order, and every way
 * it can end turned into an error the merge reports. Running out of its heap cap is `merge/too-complex`;
 * any other death (an uncaught error, an exit) is `merge/worker-failed`. The caller's process goes on.
 * A worker whose merge ended well is kept warm for the next merge (a few, for a minute), so a merge
 * does not pay for starting a thread and loading the engine each time.
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { SheafError, type ErrorCode, type ErrorParams } from '@sheaf/shared';
import type { WorkerCommand, WorkerMessage, WorkerRequest } from './mergeWorker.ts';
import { tsBootstrap, workerEntry } from './workerEntry.ts';
import { LOWER_PRIORITY_SOURCE } from './threadPriority.ts';

export class MergeWorkerLink {
  private readonly worker: Worker;
  private readonly queue: WorkerMessage[] = [];
  private waiter: { resolve: (message: WorkerMessage) => void; reject: (error: unknown) => void } | undefined;
  private failure: unknown;
  idleTimer: NodeJS.Timeout | undefined;

  constructor(readonly maxMemoryMb: number) {
    this.worker = workerFor(new URL('./mergeWorker.ts', import.meta.url), maxMemoryMb);
    this.worker.on('message', (message: WorkerMessage) => this.deliver(message));
    this.worker.on('error', (error: Error & { code?: string }) => {
      this.fail(error.code === 'ERR_WORKER_OUT_OF_MEMORY' ? new SheafError('merge/too-complex', {}, { cause: error }) : new SheafError('merge/worker-failed', {}, { cause: error }));
    });
    // A worker never ends by itself (it waits for the next command): an exit we did not ask for is a crash.
    this.worker.on('exit', (code) => this.fail(new SheafError('merge/worker-failed', {}, { cause: new Error(`merge worker exited with code ${code}`) })));
  }

  /** The next message; an error the worker reported, or its death, rejects. */
  async receive(): Promise<Exclude<WorkerMessage, { type: 'error' }>> {
    const message = this.queue.length ? this.queue.shift()! : await this.nextMessage();
    if (message.type !== 'error') return message;
    if (message.code) throw new SheafError(message.code as ErrorCode, message.params as ErrorParams);
    throw new Error(`merge worker: ${message.detail}`);
  }

  /** Alive, and nothing of its last merge left unread: it can take another merge. */
  get reusable(): boolean {
    return this.failure === undefined && this.queue.length === 0 && this.waiter === undefined;
  }

  prepare(request: WorkerRequest): void {
    this.send({ type: 'prepare', request });
  }

  send(command: WorkerCommand): void {
    this.worker.postMessage(command);
  }

  /** Whether the worker keeps the process alive: not while it only waits, kept for a next request. */
  keepsProcessAlive(keep: boolean): void {
    if (keep) this.worker.ref();
    else this.worker.unref();
  }

  /** Ends the worker now (a cancelled merge, a finished one); whoever waits on it gets `reason`. */
  stop(reason: unknown = new Error('merge worker stopped')): void {
    this.fail(reason);
    void this.worker.terminate();
  }

  private nextMessage(): Promise<WorkerMessage> {
    if (this.failure !== undefined) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => (this.waiter = { resolve, reject }));
  }

  private deliver(message: WorkerMessage): void {
    const waiter = this.waiter;
    this.waiter = undefined;
    if (waiter) waiter.resolve(message);
    else this.queue.push(message);
  }

  private fail(error: unknown): void {
    if (this.failure !== undefined) return; // the first cause wins ('error' is followed by 'exit')
    this.failure = error;
    const waiter = this.waiter;
    this.waiter = undefined;
    waiter?.reject(error);
  }
}

const warm: MergeWorkerLink[] = [];
/** A warm worker no merge took for this long ends (its memory goes back). */
const WARM_MS = 60_000;

/** A warm worker with this heap cap, or a new one. */
export function takeMergeWorker(maxMemoryMb: number): MergeWorkerLink {
  for (let index = warm.length - 1; index >= 0; index--) {
    const link = warm[index]!;
    if (!link.reusable) warm.splice(index, 1); // died while waiting
    else if (link.maxMemoryMb === maxMemoryMb) {
      warm.splice(index, 1);
      clearTimeout(link.idleTimer);
      link.keepsProcessAlive(true);
      return link;
    }
  }
  return new MergeWorkerLink(maxMemoryMb);
}

/** Keeps a worker whose merge ended well for the next merge (at most one per core); ends the others. */
export function giveBackMergeWorker(link: MergeWorkerLink): void {
  if (!link.reusable || warm.length >= availableParallelism()) {
    link.stop();
    return;
  }
  link.send({ type: 'release' });
  link.keepsProcessAlive(false);
  link.idleTimer = setTimeout(() => {
    const index = warm.indexOf(link);
    if (index >= 0) warm.splice(index, 1);
    link.stop();
  }, WARM_MS);
  link.idleTimer.unref();
  warm.push(link);
}

/** From the sources (.ts) a worker runs through tsx; from the compiled build (.mjs, see scripts/build-server.mjs) directly. */
function workerFor(source: URL, maxMemoryMb: number): Worker {
  const entry = workerEntry(source);
  const resourceLimits = { maxOldGenerationSizeMb: maxMemoryMb };
  if (!entry.pathname.endsWith('.ts')) return new Worker(entry, { resourceLimits });
  return new Worker(LOWER_PRIORITY_SOURCE + tsBootstrap(entry), { eval: true, resourceLimits });
}
