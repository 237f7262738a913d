/**
 * A merge whose worker thread dies for a reason other than memory (an unexpected exit, an uncaught
 * error) ends "error" with merge/worker-failed and the catalogue's message, charges nothing, and the
 * server goes on answering; the next merge is made by live workers. The workers are the real ones,
 * started from a folder that makes them die after their first batch (packages/engine/src/node/test-support.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatErrorMessage } from '@sheaf/shared';
import { dyingMergeWorkers, MERGE_WORKER_DIES, type MergeWorkerDeath } from '../../../packages/engine/src/node/test-support.ts';
import { startTestServer } from './harness.ts';
import { counterOf, mergeRequest, peopleCsv, setPlan, startMerge, templateWithSheet, waitForMerge, type TestServer } from './merge-support.ts';

/** Enough rows for several batches of 32 documents. */
const ROWS = 300;

describe('a merge whose worker dies mid-merge', () => {
  let server: TestServer;
  let faults: ReturnType<typeof dyingMergeWorkers>;
  const builds = process.env.SHEAF_PREBUILT_WORKERS;

  beforeAll(async () => {
    faults = dyingMergeWorkers();
    process.env.SHEAF_PREBUILT_WORKERS = faults.dir;
    server = await startTestServer({ database: 'pglite' });
  });
  afterAll(async () => {
    await server?.close();
    if (builds === undefined) delete process.env.SHEAF_PREBUILT_WORKERS;
    else process.env.SHEAF_PREBUILT_WORKERS = builds;
    delete process.env[MERGE_WORKER_DIES];
    faults?.remove();
  });

  it('fails with merge/worker-failed, charges nothing, the server answers, and the next merge completes', async () => {
    const user = await server.signUp();
    await setPlan(server, user.uid, 'Enterprise', -1_000);
    const templateId = await templateWithSheet(server, user.token, peopleCsv(ROWS));

    // One after the other: a failed merge's workers end, so the next one starts its own (that die too).
    for (const dies of ['exit', 'throw'] satisfies MergeWorkerDeath[]) {
      process.env[MERGE_WORKER_DIES] = dies;
      const request = mergeRequest();
      expect((await startMerge(server, user.token, templateId, request)).status).toBe(202);
      const merge = await waitForMerge(server, user.token, templateId, request.mergeId);
      expect(merge, `a worker that ${dies}s`).toMatchObject({ status: 'error', downloadUrl: null });
      expect(merge.error).toMatchObject({ code: 'merge/worker-failed', message: formatErrorMessage('merge/worker-failed') });
      expect(await counterOf(server, user.uid)).toBe(-1_000);
      expect((await fetch(new URL('/healthz', server.url))).status).toBe(200);
      expect((await server.inject('GET', '/users/me', { token: user.token })).status).toBe(200);
    }

    delete process.env[MERGE_WORKER_DIES];
    const request = mergeRequest();
    await startMerge(server, user.token, templateId, request);
    expect(await waitForMerge(server, user.token, templateId, request.mergeId)).toMatchObject({ status: 'completed', done: ROWS, total: ROWS });
    expect(await counterOf(server, user.uid)).toBe(-1_000 + ROWS);
  }, 120_000);
});
