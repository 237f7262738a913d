/**
 * A merge made in ranges with the files on S3 (s3rver, with part copy): the parts and manifests go
 * to the bucket, the ZIP is composed there from them, and the parts are gone once it is complete.
 */
import { ListObjectsCommand } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { S3BlobStore } from '../src/adapters/blobs/s3.ts';
import { startTestServer } from './harness.ts';
import { download, mergeRequest, pdfsInZip, peopleCsv, setPlan, startMerge, templateWithSheet, waitForMerge, type TestServer } from './merge-support.ts';
import { startTestS3, type TestS3 } from './s3-server.ts';

describe('a merge made in ranges, files on S3', () => {
  let s3: TestS3;
  let server: TestServer;
  let bucket: S3BlobStore;

  beforeAll(async () => {
    s3 = await startTestS3({ partCopy: true });
    server = await startTestServer({ database: 'pglite', config: { ...s3.config, MERGE_RANGE_ROWS: 3, MERGE_CONCURRENCY: 2 } });
    bucket = new S3BlobStore(s3.settings);
  });
  afterAll(async () => {
    await server?.close();
    await s3?.close();
  });

  const keysUnder = async (prefix: string) =>
    ((await bucket.client.send(new ListObjectsCommand({ Bucket: s3.settings.bucket, Prefix: prefix }))).Contents ?? []).map((object) => object.Key!);

  it('composes the ZIP in the bucket from the ranges\' parts: every row its own document', async () => {
    const user = await server.signUp();
    await setPlan(server, user.uid, 'Enterprise');
    const templateId = await templateWithSheet(server, user.token, peopleCsv(8));
    const request = mergeRequest({ fileNamePattern: '{{Last}}-{{First}}' });
    expect((await startMerge(server, user.token, templateId, request)).status).toBe(202);
    const merge = await waitForMerge(server, user.token, templateId, request.mergeId);
    expect(merge).toMatchObject({ status: 'completed', total: 8, done: 8 });
    const [{ count }] = await server.ctx.db.query<{ count: number }>('SELECT count(*)::int AS count FROM merge_ranges WHERE merge_id = $1', [request.mergeId]) as [{ count: number }];
    expect(count).toBe(3);

    const file = await download(server, merge.downloadUrl!);
    expect(file.status).toBe(200);
    const pdfs = pdfsInZip(file.bytes);
    expect(pdfs.map((pdf) => pdf.name)).toEqual(Array.from({ length: 8 }, (_, i) => `Family${i + 1}-Given${i + 1}.pdf`));
    for (const [i, pdf] of pdfs.entries()) expect(pdf.text).toContain(`Given${i + 1}`);
    await vi.waitFor(async () => expect(await keysUnder(`merges/${request.mergeId}/`)).toEqual([`merges/${request.mergeId}/${merge.fileName}`]), { timeout: 5_000, interval: 50 });
  });
});
