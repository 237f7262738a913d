/** One account cannot see or touch another account's merges; download links are bearer-free but unforgeable. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Merge } from '@sheaf/shared';
import { forEachDatabase, startTestServer } from './harness.ts';
import { download, mergeRequest, peopleCsv, startMerge, templateWithSheet, waitForMerge, type TestServer } from './merge-support.ts';

forEachDatabase((database) => {
  describe('merge isolation', () => {
    let server: TestServer;
    let alice: Awaited<ReturnType<TestServer['signUp']>>;
    let bob: Awaited<ReturnType<TestServer['signUp']>>;
    let templateId: string;
    let merge: Merge;

    beforeAll(async () => {
      server = await startTestServer({ database });
      alice = await server.signUp();
      bob = await server.signUp();
      templateId = await templateWithSheet(server, alice.token, peopleCsv(2));
      const request = mergeRequest();
      expect((await startMerge(server, alice.token, templateId, request)).status).toBe(202);
      merge = await waitForMerge(server, alice.token, templateId, request.mergeId);
      expect(merge.status).toBe('completed');
    });
    afterAll(async () => {
      await server.close();
    });

    const path = () => `/templates/${templateId}/merges/${merge.mergeId}`;

    it('answers 404 to another user for every merge call', async () => {
      const calls: [string, string][] = [
        ['GET', `/templates/${templateId}/merges`],
        ['GET', path()],
        ['PATCH', `${path()}/cancel`],
        ['DELETE', `${path()}/files`],
        ['DELETE', path()],
      ];
      for (const [method, url] of calls) {
        const response = await server.inject(method, url, { token: bob.token });
        expect(response.status, `${method} ${url}`).toBe(404);
      }
      const started = await startMerge(server, bob.token, templateId, mergeRequest());
      expect(started.status).toBe(404);
      expect(started.json).toMatchObject({ code: 'template/not-found' });
      // Reusing Alice's merge id on Bob's own template does not reveal or return her merge.
      const bobTemplate = await templateWithSheet(server, bob.token, peopleCsv(1));
      const reused = await startMerge(server, bob.token, bobTemplate, mergeRequest({ mergeId: merge.mergeId }));
      expect(reused.status).toBe(404);
      expect(reused.json).toMatchObject({ code: 'merge/not-found' });

      // Alice's merge is untouched by all of it.
      const mine = await server.inject('GET', path(), { token: alice.token });
      expect(mine.json).toMatchObject({ status: 'completed', filesDeleted: false });
      const templates = await server.inject('GET', '/templates', { token: bob.token });
      expect(JSON.stringify(templates.json)).not.toContain(merge.mergeId);
    });

    it('downloads with the link alone, but not with a forged or altered token', async () => {
      const good = await download(server, merge.downloadUrl!);
      expect(good.status).toBe(200);
      expect(good.bytes.subarray(0, 2).toString()).toBe('PK');

      const token = merge.downloadUrl!.split('/').pop()!;
      const flipped = token.slice(0, -2) + (token.at(-2) === 'A' ? 'B' : 'A') + token.at(-1);
      const forged = [
        flipped,
        // The same claims for Bob's id, signed by nobody.
        `${Buffer.from(JSON.stringify({ alg: 'none' })).toString('base64url')}.${Buffer.from(JSON.stringify({ m: merge.mergeId, o: bob.uid })).toString('base64url')}.`,
        'not-a-token',
      ];
      for (const bad of forged) {
        const response = await download(server, `/v1/files/${encodeURIComponent(bad)}`);
        expect([400, 410], bad).toContain(response.status);
        expect(JSON.parse(response.bytes.toString())).toMatchObject({ code: 'merge/link-expired' });
        expect(response.bytes.subarray(0, 2).toString()).not.toBe('PK');
      }
    });
  });
});
