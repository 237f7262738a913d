/** A child process for child-pool.test.ts: tasks that answer, hold memory outside the V8 heap, or hang. */
import { serveChildTasks } from '../src/workers/child-pool.ts';

export type FixtureTask = { kind: 'pid' } | { kind: 'hold'; mb: number } | { kind: 'hang' };

const held: Buffer[] = [];

serveChildTasks(async (task: FixtureTask) => {
  if (task.kind === 'pid') return process.pid;
  if (task.kind === 'hold') {
    // Buffers live outside the V8 heap: a worker thread's heap cap never sees them.
    for (let mb = 0; mb < task.mb; mb += 16) {
      held.push(Buffer.alloc(16 * 1_048_576, 1));
      await new Promise((resolve) => setImmediate(resolve));
    }
    return process.pid;
  }
  return new Promise<number>(() => undefined);
}, 'generic/something-wrong');
