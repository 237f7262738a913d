/**
 * The server with its files on an S3-compatible store (s3rver started here): a template and its sheet
 * uploaded, a merge made and downloaded through the API, every file in the bucket and none in BLOB_DIR,
 * deleting through the API empties the bucket's folders, and a mailing sends each row the document it
 * reads out of the ZIP in the bucket. With S3_PRESIGNED_DOWNLOADS the download
 * link redirects to a signed link on the bucket that downloads under the merge's file name.
 */
import { readdir } from 'node:fs/promises';
import { ListObjectsCommand } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DeferredS3BlobStore } from '../src/adapters/blobs/index.ts';
import { S3BlobStore } from '../src/adapters/blobs/s3.ts';
import { startTestServer } from './harness.ts';
import { emailingTemplate, enterprise, mailingReport, parseMail, pdfText, recipientsCsv, smtpSender, startEmailMerge, startMailSink, waitForMailing, type MailSink } from './mail-support.ts';
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
  let sink: MailSink;

  beforeAll(async () => {
    [s3, sink] = await Promise.all([startTestS3(), startMailSink()]);
    server = await startTestServer({ database: 'pglite', config: { ...s3.config, SMTP_ALLOW_PRIVATE_HOSTS: true } });
    bucket = new S3BlobStore(s3.settings);
  });
  afterAll(async () => {
    await server?.close();
    await Promise.all([s3?.close(), sink?.close()]);
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
    // The PDF under its file id (blobLayout.template.pdf), one file.
    const pdfKeys = [...templateKeys.keys()].filter((key) => /^templates\/[^/]+\/template-[^/]+\.pdf$/.test(key));
    expect(pdfKeys.map((key) => templateKeys.get(key))).toEqual([TEMPLATE_PDF.length]);
    expect([...templateKeys.keys()].filter((key) => key.startsWith(`templates/${templateId}/spreadsheet`))).toHaveLength(1);
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

  it('mails each row its own document read from the ZIP in the bucket, with the static attachment frozen there', async () => {
    const user = await server.signUp();
    await enterprise(server, user.uid);
    const senderId = await smtpSender(server, user.token, sink);
    const templateId = await emailingTemplate(server, user.token, senderId, recipientsCsv(3));
    const terms = Buffer.from('%PDF-1.4 terms and conditions');
    const attached = await server.inject('POST', `/templates/${templateId}/attachments`, { token: user.token, file: { name: 'Terms.pdf', bytes: terms, type: 'application/pdf' } });
    expect(attached.status).toBe(201);
    const { mergeId, response } = await startEmailMerge(server, user.token, templateId);
    expect(response.status, JSON.stringify(response.json)).toBe(202);
    expect(await waitForMailing(server, user.token, templateId, mergeId)).toMatchObject({ status: 'completed', mailingStatus: 'completed' });

    const report = await mailingReport(server, user.token, templateId, mergeId);
    expect(report.events.map((event) => event.status)).toEqual(['accepted', 'accepted', 'accepted']);
    for (const event of report.events) {
      const mail = sink.accepted.find((received) => received.messageId.startsWith(`${event.messageId}@`))!;
      const parsed = await parseMail(mail.raw);
      const row = Number(/Given(\d+)/.exec(parsed.subject ?? '')![1]);
      expect(mail.rcptTo).toEqual([`person${row}@example.com`]);
      expect(parsed.attachments.map((attachment) => attachment.filename)).toEqual([expect.stringMatching(/\.pdf$/), 'Terms.pdf']);
      const text = pdfText(parsed.attachments[0]!.content);
      expect(text).toContain(`Given${row}`);
      for (const other of [1, 2, 3].filter((n) => n !== row)) expect(text).not.toContain(`Given${other}`);
      expect(parsed.attachments[1]!.content.equals(terms)).toBe(true);
    }
    const mergeKeys = await keysUnder(`merges/${mergeId}/`);
    expect(mergeKeys.has(`merges/${mergeId}/mailing-index.jsonl`)).toBe(true);
    expect(mergeKeys.get(`merges/${mergeId}/attachments/Terms%2Epdf`)).toBe(terms.length);
    expect(await filesUnder(server.config.BLOB_DIR)).toEqual([]);
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
