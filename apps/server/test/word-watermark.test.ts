/**
 * The Free plan's watermark on Word output through the HTTP API (docs/plans.md#watermark,
 * docs/word-templates.md#watermark): a Free user's merge of a Word template carries it on every page
 * of its PDFs and in its DOCX files; a Pro user's does not. LibreOffice prints the WordArt as
 * outlines, so the PDFs' pages are looked at (pdftoppm) rather than read with pdftotext.
 * Skipped where LibreOffice is not installed.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { strFromU8, unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FREE_PLAN_WATERMARK, type TemplateDetail } from '@sheaf/shared';
import { inkIn, render } from '../../../packages/engine/src/merge/test-pixels.ts';
import { startTestServer, type TestAccount, type TestServer } from './harness.ts';
import { download, inTempDir, mergeRequest, setPlan, startMerge, waitForMerge } from './merge-support.ts';

const hasOffice = existsSync('/usr/lib/libreoffice/program/soffice.bin');
if (!hasOffice) console.warn('word-watermark: skipped: LibreOffice is not installed (Debian libreoffice-writer-nogui)');

const tag = (column: string) => String.raw`\{\{${column}\}\}`;
/** A letter without a header of its own, so the watermark's header is the one made for it. */
const LETTER_RTF = String.raw`{\rtf1\ansi\deff0{\fonttbl{\f0 Liberation Serif;}}
\pard\plain Dear ${tag('First')},\par
\pard\plain see you in ${tag('City')}.\par
}`;
const PEOPLE = 'First,City\nAda,London\nGrace,Arlington\n';
/** The middle of the page, where the diagonal crosses and the letter's text does not reach. */
const MIDDLE = { x: 0.35, y: 0.4, width: 0.3, height: 0.2 };

describe.skipIf(!hasOffice)('the Free plan\'s watermark on Word output', () => {
  let server: TestServer;
  const users: Record<'Free' | 'Pro', { account: TestAccount; templateId: string }> = {} as never;

  beforeAll(async () => {
    server = await startTestServer({ database: 'pglite' });
    for (const plan of ['Free', 'Pro'] as const) {
      const account = await server.signUp();
      await setPlan(server, account.uid, plan);
      const upload = await server.inject('POST', '/templates', { token: account.token, file: { name: 'Letter.rtf', bytes: Buffer.from(LETTER_RTF), type: 'application/rtf' } });
      expect(upload.status, JSON.stringify(upload.json)).toBe(201);
      const templateId = (upload.json as TemplateDetail).id;
      const sheet = await server.inject('POST', `/templates/${templateId}/excel`, { token: account.token, file: { name: 'people.csv', bytes: Buffer.from(PEOPLE), type: 'text/csv' } });
      expect(sheet.status, JSON.stringify(sheet.json)).toBe(201);
      users[plan] = { account, templateId };
    }
  }, 240_000);
  afterAll(async () => {
    await server?.close();
  });

  async function merged(plan: 'Free' | 'Pro', overrides: Parameters<typeof mergeRequest>[0]): Promise<Record<string, Uint8Array>> {
    const { account, templateId } = users[plan];
    const request = mergeRequest(overrides);
    const started = await startMerge(server, account.token, templateId, request);
    expect(started.status, JSON.stringify(started.json)).toBe(202);
    const merge = await waitForMerge(server, account.token, templateId, request.mergeId, undefined, 120_000);
    expect(merge.status, JSON.stringify(merge.error)).toBe('completed');
    const file = await download(server, merge.downloadUrl!);
    expect(file.status).toBe(200);
    return unzipSync(new Uint8Array(file.bytes));
  }

  /** The ink in the middle of each page of each PDF of the ZIP. */
  const middleInk = (pdfs: Record<string, Uint8Array>) =>
    inTempDir((dir) =>
      Object.entries(pdfs).map(([name, bytes]) => {
        const file = path.join(dir, name);
        writeFileSync(file, bytes);
        expect(execFileSync('qpdf', ['--check', file], { encoding: 'utf8' })).toContain('No syntax or stream encoding errors');
        return inkIn(render(file, 1), MIDDLE, 245);
      }));

  it('prints the watermark on a Free user\'s PDFs and not on a Pro user\'s', async () => {
    const [free, pro] = await Promise.all([merged('Free', {}), merged('Pro', {})]);
    expect(Object.keys(free)).toHaveLength(2);
    for (const ink of middleInk(free)) expect(ink).toBeGreaterThan(100);
    expect(middleInk(pro)).toEqual([0, 0]);
  }, 240_000);

  it('puts the watermark in the headers of a Free user\'s DOCX files, not a Pro user\'s', async () => {
    const [free, pro] = await Promise.all([merged('Free', { isSfdtPdfOutput: false }), merged('Pro', { isSfdtPdfOutput: false })]);
    const xmlOf = (docx: Uint8Array) => Object.entries(unzipSync(docx)).filter(([name]) => name.endsWith('.xml')).map(([, data]) => strFromU8(data)).join('\n');
    for (const docx of Object.values(free)) expect(xmlOf(docx)).toContain(`string="${FREE_PLAN_WATERMARK}"`);
    for (const docx of Object.values(pro)) expect(xmlOf(docx)).not.toContain('PowerPlusWaterMarkObject');
  }, 240_000);
});
