/**
 * The server with its files on an S3-compatible store (s3rver started here): a template and its sheet
 * uploaded, a merge made and downloaded through the API, every file in the bucket and none in BLOB_DIR,
 * and deleting through the API empties the bucket's folders. With S3_PRESIGNED_DOWNLOADS the download
 * link redirects to a signed link on the bucket that downloads under the merge's file name.
 */
import { readdir } from 'node:fs/promises';
import { ListObjectsCommand } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DeferredS3BlobStore } from '../src/adapters/blobs/index.ts';
import { S3BlobStore } from '../src/adapters/blobs/s3.ts';
import { startTestServer } from './harness.ts';
import { download, mergeRequest, pdfsInZip, peopleCsv, setPlan, startMerge, TEMPLATE_PDF, templateWithSheet, waitForMerge, type TestServer } from './merge-support.ts';
import { startTestS3, type TestS3 } from './s3-server.ts';

/** Every file below `dir` (none when it does not exist). */
async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return [];
    throw error;
  });
  return entries.filter((entry) => entry.isFile()).map((entry) => entry.name);
}

describe('files on S3', () => {
  let s3: TestS3;
  let server: TestServer;
  let bucket: S3BlobStore;

  beforeAll(async () => {
    s3 = await startTestS3();
    server = await startTestServer({ database: 'pglite', config: s3.config });
    bucket = new S3BlobStore(s3.settings);
  });
  afterAll(async () => {
    await server?.close();
    await s3?.close();
  });

  async function keysUnder(prefix: string): Promise<Map<string, number>> {
    const page = await bucket.client.send(new ListObjectsCommand({ Bucket: s3.settings.bucket, Prefix: prefix }));
    return new Map((page.Contents ?? []).map((object) => [object.Key!, object.Size ?? -1]));
  }

  it('keeps templates, sheets and merge results in the bucket and serves them from there', async () => {
    expect(server.ctx.blobs).toBeInstanceOf(DeferredS3BlobStore);
    const user = await server.signUp();
    await setPlan(server, user.uid, 'Pro');
    const templateId = await templateWithSheet(server, user.token, peopleCsv(3));

    const template = await server.inject('GET', `/templates/${templateId}/download`, { token: user.token });
    expect(template.status).toBe(200);
    expect(Buffer.from(template.body).equals(TEMPLATE_PDF)).toBe(true);

    const request = mergeRequest({ fileNamePattern: '{{Last}}-{{First}}', customName: 'Zeugnisse März' });
    expect((await startMerge(server, user.token, templateId, request)).status).toBe(202);
    const merge = await waitForMerge(server, user.token, templateId, request.mergeId);
    expect(merge).toMatchObject({ status: 'completed', fileName: 'Zeugnisse März.zip' });

    const file = await download(server, merge.downloadUrl!);
    expect(file.status, file.bytes.toString().slice(0, 300)).toBe(200);
    expect(file.headers.get('content-disposition')).toContain("filename*=UTF-8''Zeugnisse%20M%C3%A4rz.zip");
    expect(file.bytes.length).toBe(merge.fileSize);
    const pdfs = pdfsInZip(file.bytes);
    expect(pdfs.map((pdf) => pdf.name)).toEqual(['Family1-Given1.pdf', 'Family2-Given2.pdf', 'Family3-Given3.pdf']);
    pdfs.forEach((pdf, index) => expect(pdf.text).toContain(`Given${index + 1}`));

    const templateKeys = await keysUnder(`templates/${templateId}/`);
    expect(templateKeys.get(`templates/${templateId}/template.pdf`)).toBe(TEMPLATE_PDF.length);
    expect(templateKeys.has(`templates/${templateId}/spreadsheet`)).toBe(true);
    const mergeKeys = await keysUnder(`merges/${request.mergeId}/`);
    expect(mergeKeys.get(`merges/${request.mergeId}/Zeugnisse März.zip`)).toBe(merge.fileSize);
    expect(await filesUnder(server.config.BLOB_DIR)).toEqual([]);

    // Deleting through the API deletes in the bucket.
    const deletedFiles = await server.inject('DELETE', `/templates/${templateId}/merges/${request.mergeId}/files`, { token: user.token });
    expect(deletedFiles.status).toBe(200);
    expect([...(await keysUnder(`merges/${request.mergeId}/`)).keys()]).toEqual([]);
    expect((await download(server, merge.downloadUrl!)).status).toBe(410);

    expect((await server.inject('DELETE', `/templates/${templateId}`, { token: user.token })).status).toBe(200);
    expect([...(await keysUnder(`templates/${templateId}/`)).keys()]).toEqual([]);
  }, 120_000);
});

describe('merge downloads by signed bucket links (S3_PRESIGNED_DOWNLOADS)', () => {
  let s3: TestS3;
  let server: TestServer;

  beforeAll(async () => {
    s3 = await startTestS3();
    server = await startTestServer({ database: 'pglite', config: { ...s3.config, S3_PRESIGNED_DOWNLOADS: true } });
  });
  afterAll(async () => {
    await server?.close();
    await s3?.close();
  });

  it('redirects to a short-lived link on the bucket that downloads the ZIP under its name; deleted files still answer 410', async () => {
    const user = await server.signUp();
    await setPlan(server, user.uid, 'Pro');
    const templateId = await templateWithSheet(server, user.token, peopleCsv(2));
    const request = mergeRequest({ customName: 'Zeugnisse März' });
    expect((await startMerge(server, user.token, templateId, request)).status).toBe(202);
    const merge = await waitForMerge(server, user.token, templateId, request.mergeId);
    expect(merge.status).toBe('completed');

    const answer = await fetch(new URL(merge.downloadUrl!, server.url), { redirect: 'manual' });
    expect(answer.status).toBe(302);
    expect(answer.headers.get('cache-control')).toBe('private, no-store');
    const location = new URL(answer.headers.get('location')!);
    expect(location.origin).toBe(s3.config.S3_ENDPOINT);
    expect(location.searchParams.get('X-Amz-Expires')).toBe('300');
    expect(location.searchParams.get('X-Amz-Signature')).toMatch(/^[0-9a-f]{64}$/);
    expect(location.href).not.toContain(s3.config.S3_SECRET_ACCESS_KEY);

    // What a browser's <a href download> does: follow the redirect.
    const file = await download(server, merge.downloadUrl!);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-disposition')).toContain("filename*=UTF-8''Zeugnisse%20M%C3%A4rz.zip");
    expect(file.headers.get('content-type')).toContain('application/zip');
    expect(file.bytes.length).toBe(merge.fileSize);
    expect(pdfsInZip(file.bytes)).toHaveLength(2);

    expect((await server.inject('DELETE', `/templates/${templateId}/merges/${request.mergeId}/files`, { token: user.token })).status).toBe(200);
    expect((await fetch(new URL(merge.downloadUrl!, server.url), { redirect: 'manual' })).status).toBe(410);
  }, 120_000);
});
