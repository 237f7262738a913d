/**
 * merges announces `merge.completed` inside its completing transaction (events/bus.ts): a subscriber
 * writes with the same handle and sees the merge completed and charged; when it fails, the whole
 * completion rolls back (nothing charged, nothing announced as done) and the job's retry completes it
 * once. This is what lets the mailing create its row and first job atomically without merges
 * importing the email module.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { EventBus } from '../src/events/bus.ts';
import type { MergeCompleted } from '../src/modules/merges/index.ts';
import { forEachDatabase, startTestServer, type TestServer } from './harness.ts';
import { counterOf, mergeRequest, peopleCsv, startMerge, templateWithSheet, waitForMerge } from './merge-support.ts';

it('runs subscribers in order, and the first that throws stops the rest and reaches the emitter', async () => {
  const bus = new EventBus();
  const seen: string[] = [];
  bus.on('merge.stopped', ({ mergeId }) => void seen.push(`a:${mergeId}`));
  const off = bus.on('merge.stopped', () => {
    throw new Error('refused');
  });
  bus.on('merge.stopped', ({ mergeId }) => void seen.push(`c:${mergeId}`));
  await expect(bus.emit('merge.stopped', { ownerId: 'o', mergeId: 'm1', reason: 'cancel' })).rejects.toThrow('refused');
  expect(seen).toEqual(['a:m1']);
  off();
  await bus.emit('merge.stopped', { ownerId: 'o', mergeId: 'm2', reason: 'delete' });
  expect(seen).toEqual(['a:m1', 'a:m2', 'c:m2']);
});

forEachDatabase((database) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ database });
  });
  afterAll(() => server?.close());

  it('merge.completed runs inside the completing transaction; a failing subscriber rolls the completion back', async () => {
    const user = await server.signUp();
    const templateId = await templateWithSheet(server, user.token, peopleCsv(3));
    const request = mergeRequest();
    const calls: Array<{ status: string; counter: number }> = [];
    const off = server.ctx.events.on('merge.completed', async ({ tx, merge, documents }: MergeCompleted) => {
      if (merge.id !== request.mergeId) return;
      const [row] = await tx.query<{ status: string; counter: number }>(
        'SELECT m.status, u.counter FROM merges m JOIN users u ON u.id = m.owner_id WHERE m.id = $1',
        [merge.id],
      );
      calls.push(row!);
      expect(documents).toBe(3);
      if (calls.length === 1) throw new Error('subscriber failed once');
    });
    try {
      await startMerge(server, user.token, templateId, request);
      const merge = await waitForMerge(server, user.token, templateId, request.mergeId);
      expect(merge.status).toBe('completed');
      // Both runs saw the merge completed and charged through the transaction's handle...
      expect(calls).toEqual([{ status: 'completed', counter: 3 }, { status: 'completed', counter: 3 }]);
      // ...and the failed one left nothing behind: charged once.
      expect(await counterOf(server, user.uid)).toBe(3);
    } finally {
      off();
    }
  });
});
