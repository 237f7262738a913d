/** The child-process pool that reads untrusted templates: reuse, a cap on all its memory, a deadline. */
import { afterAll, describe, expect, it, vi } from 'vitest';
import { SheafError } from '@sheaf/shared';
import { ChildPool } from '../src/workers/child-pool.ts';
import type { FixtureTask } from './child-pool-fixture.ts';

describe('the child-process pool', () => {
  const pool = new ChildPool<FixtureTask, number>(new URL('./child-pool-fixture.ts', import.meta.url), {
    timeoutMs: 8_000,
    maxMemoryMb: 256,
    timeoutError: () => new SheafError('template/timeout'),
    memoryError: () => new SheafError('template/too-complex'),
  }, 1);

  afterAll(() => pool.close());

  it('answers tasks in one child it keeps', async () => {
    const first = await pool.run({ kind: 'pid' });
    expect(first).not.toBe(process.pid);
    expect(await pool.run({ kind: 'pid' })).toBe(first);
  }, 30_000);

  it('ends a child whose buffers pass the cap, though its heap stays small, and starts another', async () => {
    const before = await pool.run({ kind: 'pid' });
    await expect(pool.run({ kind: 'hold', mb: 1024 })).rejects.toMatchObject({ code: 'template/too-complex' });
    const after = await pool.run({ kind: 'pid' });
    expect(after).not.toBe(before);
    await vi.waitFor(() => expect(() => process.kill(before, 0)).toThrow());
  }, 30_000);

  it('ends a child past its deadline', async () => {
    const started = performance.now();
    await expect(pool.run({ kind: 'hang' })).rejects.toMatchObject({ code: 'template/timeout' });
    expect(performance.now() - started).toBeLessThan(12_000);
    expect(await pool.run({ kind: 'pid' })).toBeGreaterThan(0);
  }, 30_000);
});
