/**
 * Runs tasks on untrusted bytes in child processes with a deadline and a memory cap that counts
 * everything the process holds (heap, ArrayBuffers, native allocations of pdf.js and the canvas), as
 * a worker thread's heap cap does not: a PDF stream unpacking to 1 GiB passed a 1 GB heap cap with 2.5
 * GB resident. The cap is checked on the child's resident size a few times a second; a child over it,
 * or past its deadline, is killed and its task fails with a catalogue error. Children are reused (one
 * costs about a second to start); one left large by its last task is ended, so memory returns to its
 * baseline after hostile input.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { ErrorCode } from '@sheaf/shared';
import { workerEntry } from '@sheaf/engine/worker-entry';
import { answerTask, replyError, type TaskLimits, type TaskReply } from './task-protocol.ts';

/** maxMemoryMb is the resident memory of one child, all of it. */
export type ChildLimits = TaskLimits;

/** How often a busy child's resident size is read. */
const MEMORY_CHECK_MS = 50;
/** A child still this large after a task is ended rather than kept. */
const KEEP_BELOW_MB = 300;
/** A child idle this long is ended: its memory (150-200 MB with pdf.js loaded) goes back. */
const IDLE_MS = 120_000;
const PAGE_SIZE = 4096;

interface Job {
  id: number;
  input: unknown;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

interface Slot {
  child: ChildProcess;
  job?: Job;
  timer?: NodeJS.Timeout;
  watch?: NodeJS.Timeout;
  idle?: NodeJS.Timeout;
}

let nextJobId = 1;

/** A few reusable child processes of one module; each runs one task at a time, the rest wait in line. */
export class ChildPool<In, Out> {
  private readonly slots: Slot[] = [];
  private readonly waiting: Job[] = [];
  private started = false;

  constructor(private readonly entry: URL, private readonly limits: ChildLimits, private readonly size = 2) {}

  run(input: In): Promise<Out> {
    return new Promise<Out>((resolve, reject) => {
      this.waiting.push({ id: nextJobId++, input, resolve: resolve as (value: unknown) => void, reject });
      this.dispatch();
    });
  }

  /** Ends every child (tests, shutdown); tasks in flight fail. */
  close(): void {
    for (const slot of [...this.slots]) this.fail(slot, new Error('closed'));
  }

  private dispatch(): void {
    // Starting a child holds the event loop for a moment (tens of ms, more on a busy machine): start
    // them all with the first task, so later tasks find one waiting rather than start one.
    if (!this.started) {
      this.started = true;
      while (this.slots.length < this.size) this.spawn();
    }
    while (this.waiting.length) {
      let slot = this.slots.find((candidate) => !candidate.job);
      if (!slot && this.slots.length < this.size) slot = this.spawn();
      if (!slot) return;
      this.start(slot, this.waiting.shift()!);
    }
  }

  private spawn(): Slot {
    const file = fileURLToPath(workerEntry(this.entry));
    // The V8 heap is capped too, so JavaScript garbage fails as "too complex" before the hard kill.
    const execArgv = [`--max-old-space-size=${this.limits.maxMemoryMb}`];
    if (file.endsWith('.ts')) execArgv.push('--import', import.meta.resolve('tsx'));
    const child = fork(file, [], { execArgv, serialization: 'advanced', stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    const slot: Slot = { child };
    this.rest(slot);
    child.on('message', (reply: TaskReply<Out>) => {
      const job = slot.job;
      if (!job || reply.id !== job.id) return;
      this.finish(slot);
      if (reply.ok) job.resolve(reply.value);
      else job.reject(replyError(reply));
    });
    child.on('error', (error) => this.fail(slot, error));
    child.on('exit', (code, signal) => {
      // A V8 heap overflow aborts the process: that is the memory cap too.
      const memory = signal === 'SIGABRT' || signal === 'SIGTRAP' || code === 134;
      this.fail(slot, memory ? this.limits.memoryError() : new Error(`child process exited (${signal ?? code})`));
    });
    this.slots.push(slot);
    return slot;
  }

  private start(slot: Slot, job: Job): void {
    clearTimeout(slot.idle);
    slot.job = job;
    busy(slot.child);
    slot.timer = setTimeout(() => this.fail(slot, this.limits.timeoutError()), this.limits.timeoutMs);
    slot.watch = setInterval(() => {
      if (residentMb(slot.child.pid) > this.limits.maxMemoryMb) this.fail(slot, this.limits.memoryError());
    }, MEMORY_CHECK_MS);
    slot.watch.unref();
    slot.child.send({ id: job.id, input: job.input });
  }

  private finish(slot: Slot): void {
    clearTimeout(slot.timer);
    clearInterval(slot.watch);
    slot.job = undefined;
    if (residentMb(slot.child.pid) > KEEP_BELOW_MB) this.fail(slot, undefined);
    else this.rest(slot);
    this.dispatch();
  }

  /** The child is beyond use (deadline, memory, crash, left large): fail its task and end it. */
  private fail(slot: Slot, error: unknown): void {
    const index = this.slots.indexOf(slot);
    if (index < 0) return;
    this.slots.splice(index, 1);
    clearTimeout(slot.timer);
    clearInterval(slot.watch);
    clearTimeout(slot.idle);
    const job = slot.job;
    slot.job = undefined;
    slot.child.kill('SIGKILL');
    job?.reject(error);
    this.dispatch();
  }

  /** An idle child must not keep the server's process alive, and ends after a while unused. */
  private rest(slot: Slot): void {
    slot.child.unref();
    slot.child.channel?.unref();
    slot.idle = setTimeout(() => this.fail(slot, undefined), IDLE_MS);
    slot.idle.unref();
  }
}

/** A busy child is waited for. */
function busy(child: ChildProcess): void {
  child.ref();
  child.channel?.ref();
}

/** The process's resident size in MB (Linux), or 0 when it cannot be read. */
export function residentMb(pid: number | undefined): number {
  if (pid === undefined) return 0;
  try {
    const pages = Number(readFileSync(`/proc/${pid}/statm`, 'latin1').split(' ')[1]);
    return Number.isFinite(pages) ? (pages * PAGE_SIZE) / 1_048_576 : 0;
  } catch {
    return 0;
  }
}

/** Child side: answers every task sent to this process with `task`'s result or its catalogue error. */
export function serveChildTasks<In, Out>(task: (input: In) => Promise<Out>, fallbackCode: ErrorCode): void {
  process.on('message', async ({ id, input }: { id: number; input: In }) => {
    process.send!(await answerTask(task, id, input, fallbackCode));
  });
  // The parent going away ends the child too.
  process.on('disconnect', () => process.exit(0));
}
