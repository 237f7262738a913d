/** The worker pool's guard rails: a task that spins or eats memory fails with its error, the pool carries on. */
import { describe, expect, it } from 'vitest';
import { SheafError } from '@sheaf/shared';
import { WorkerPool } from './pool.ts';

// A plain-JavaScript worker: doubles numbers, spins forever on 'spin', allocates without end on 'hog'.
const source = `import { parentPort } from 'node:worker_threads';
parentPort.on('message', ({ id, input }) => {
  if (input === 'spin') for (;;) {}
  if (input === 'hog') { const kept = []; for (;;) kept.push(new Array(1e6).fill(Math.random())); }
  parentPort.postMessage({ id, ok: true, value: input * 2 });
});`;
const entry = new URL(`data:text/javascript,${encodeURIComponent(source)}`);

const pool = () => new WorkerPool<number | string, number>(entry, {
  timeoutMs: 1_500,
  maxMemoryMb: 32,
  timeoutError: () => new SheafError('template/timeout'),
  memoryError: () => new SheafError('template/too-complex'),
}, 1);

describe('WorkerPool', () => {
  it('answers tasks in order and reuses its worker', async () => {
    const workers = pool();
    expect(await Promise.all([workers.run(1), workers.run(2), workers.run(21)])).toEqual([2, 4, 42]);
  });

  it('ends a task that runs past its deadline with the timeout error, then serves the next one', async () => {
    const workers = pool();
    await expect(workers.run('spin')).rejects.toMatchObject({ code: 'template/timeout' });
    expect(await workers.run(5)).toBe(10);
  });

  it('ends a task that exhausts the heap with the memory error, then serves the next one', async () => {
    const workers = pool();
    await expect(workers.run('hog')).rejects.toMatchObject({ code: 'template/too-complex' });
    expect(await workers.run(7)).toBe(14);
  });
});
