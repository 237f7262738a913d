/**
 * Runs tasks on untrusted bytes in worker threads with a deadline and a heap cap, so a hostile PDF or
 * spreadsheet ends in a catalogue error instead of blocking or exhausting the server. Workers are
 * kept and reused (starting one loads the engine again); a worker that overran its deadline or its
 * heap is terminated and replaced by a fresh one.
 *
 * Entries are given as `new URL('./x-worker.ts', import.meta.url)`: from the sources (tsx: tests,
 * development) that is the .ts file and the worker registers tsx; in the compiled server the build
 * (scripts/build-server.mjs) rewrites it to the bundled x-worker.mjs, which starts as plain JavaScript.
 */
import { Worker, parentPort } from 'node:worker_threads';
import { availableParallelism } from 'node:os';
import type { ErrorCode } from '@sheaf/shared';
import { tsBootstrap, workerEntry } from '@sheaf/engine/worker-entry';
import { answerTask, replyError, type TaskLimits, type TaskReply } from './task-protocol.ts';

/** maxMemoryMb is the V8 heap of one worker (ArrayBuffers are not counted: child-pool.ts counts all). */
export type WorkerLimits = TaskLimits;

interface Job {
  input: unknown;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

interface Slot {
  worker: Worker;
  job?: Job;
  timer?: NodeJS.Timeout;
}

let nextJobId = 1;

/** A few reusable workers of one module; each runs one task at a time, the rest wait in line. */
export class WorkerPool<In, Out> {
  private readonly slots: Slot[] = [];
  private readonly waiting: Job[] = [];
  private readonly size: number;

  constructor(private readonly entry: URL, private readonly limits: WorkerLimits, size = Math.min(2, availableParallelism())) {
    this.size = Math.max(1, size);
  }

  run(input: In): Promise<Out> {
    return new Promise<Out>((resolve, reject) => {
      this.waiting.push({ input, resolve: resolve as (value: unknown) => void, reject });
      this.dispatch();
    });
  }

  private dispatch(): void {
    while (this.waiting.length) {
      let slot = this.slots.find((candidate) => !candidate.job);
      if (!slot && this.slots.length < this.size) slot = this.spawn();
      if (!slot) return;
      this.start(slot, this.waiting.shift()!);
    }
  }

  private spawn(): Slot {
    const resourceLimits = { maxOldGenerationSizeMb: this.limits.maxMemoryMb };
    const entry = workerEntry(this.entry);
    const worker = entry.pathname.endsWith('.ts') ? new Worker(tsBootstrap(entry), { eval: true, resourceLimits }) : new Worker(entry, { resourceLimits });
    worker.unref(); // an idle worker must not keep the process alive
    const slot: Slot = { worker };
    worker.on('message', (reply: TaskReply<Out>) => {
      const job = slot.job;
      if (!job) return;
      this.finish(slot);
      if (reply.ok) job.resolve(reply.value);
      else job.reject(replyError(reply));
    });
    worker.on('error', (error: Error & { code?: string }) => {
      this.fail(slot, error.code === 'ERR_WORKER_OUT_OF_MEMORY' ? this.limits.memoryError() : error);
    });
    worker.on('exit', (code) => this.fail(slot, new Error(`worker exited with code ${code}`)));
    this.slots.push(slot);
    return slot;
  }

  private start(slot: Slot, job: Job): void {
    slot.job = job;
    slot.timer = setTimeout(() => this.fail(slot, this.limits.timeoutError()), this.limits.timeoutMs);
    slot.worker.postMessage({ id: nextJobId++, input: job.input });
  }

  private finish(slot: Slot): void {
    clearTimeout(slot.timer);
    slot.job = undefined;
    this.dispatch();
  }

  /** The worker is beyond use (deadline, heap, crash): fail its task and drop it. */
  private fail(slot: Slot, error: unknown): void {
    const index = this.slots.indexOf(slot);
    if (index < 0) return;
    this.slots.splice(index, 1);
    clearTimeout(slot.timer);
    const job = slot.job;
    slot.job = undefined;
    void slot.worker.terminate();
    job?.reject(error);
    this.dispatch();
  }
}

/** Worker side: answers every task posted to this worker with `task`'s result or its catalogue error. */
export function serveTasks<In, Out>(task: (input: In) => Promise<Out>, fallbackCode: ErrorCode): void {
  parentPort!.on('message', async ({ id, input }: { id: number; input: In }) => {
    parentPort!.postMessage(await answerTask(task, id, input, fallbackCode));
  });
}
