/**
 * The data check of a Word template (docs/data-check.md#what-the-template-needs): a real DOCX with
 * Word MERGEFIELDs carrying a \# number picture and a \@ date picture, and a {{tag}}. A value the
 * picture cannot read is flagged at its row and column with the picture it expected; the documents of
 * the merge agree: that row's document shows the value as it is, the others formatted by the picture.
 * Skipped where LibreOffice is not installed (a Word template is printed at upload).
 */
import { existsSync } from 'node:fs';
import { strFromU8, unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DataIssueSchema, type Merge } from '@sheaf/shared';
import { buildDocx, p } from '../../../packages/engine/src/docx/test-docx.ts';
import { startTestServer, type TestAccount, type TestServer } from './harness.ts';
import { download, fileWithSheet, mergeRequest, startMerge, waitForMerge } from './merge-support.ts';

const hasOffice = existsSync('/usr/lib/libreoffice/program/soffice.bin');

/** A simple field as Word writes it, with its placeholder text. */
const field = (instruction: string, shown: string) =>
  `<w:p><w:fldSimple w:instr="${instruction.replace(/"/g, '&quot;')}"><w:r><w:t>${shown}</w:t></w:r></w:fldSimple></w:p>`;
const LETTER = buildDocx({
  body: [
    p('Dear {{Name}},'),
    field(' MERGEFIELD Amount \\# "€#,##0.00" ', '«Amount»'),
    field(' MERGEFIELD Due \\@ "dd.MM.yyyy" ', '«Due»'),
  ].join(''),
});
const PEOPLE = 'Name,Amount,Due\nAda,1234.5,2024-03-05\nGrace,ask Bob,2024-03-06\nAlan,7,next week\nKatherine,12O5,2023-02-30\n';

const docxText = (docx: Uint8Array) => strFromU8(unzipSync(docx)['word/document.xml']!).replace(/<[^>]+>/g, '');

describe.skipIf(!hasOffice)('the data check of a Word template', () => {
  let server: TestServer;
  let owner: TestAccount;
  let templateId: string;

  beforeAll(async () => {
    server = await startTestServer({ database: 'pglite' });
    owner = await server.signUp();
    templateId = await fileWithSheet(server, owner.token, { name: 'Letter.docx', bytes: Buffer.from(LETTER), type: 'application/octet-stream' }, PEOPLE);
  }, 180_000);
  afterAll(async () => {
    await server?.close();
  });

  it('flags a value the field\'s \\# or \\@ picture cannot read, as the merge reads it', async () => {
    const response = await fetch(`${server.url}/v1/templates/${templateId}/verifyExcelData/stream`, {
      method: 'POST', headers: { authorization: `Bearer ${owner.token}`, 'content-type': 'application/json' }, body: JSON.stringify({ rowsData: { startRow: 2, endRow: 5 } }),
    });
    expect(response.status).toBe(200);
    const issues = (await response.text()).split('\n').filter(Boolean).map((line) => DataIssueSchema.parse(JSON.parse(line)));
    expect(issues.map(({ row_number, column_name, code, expected_value }) => [row_number, column_name, code, expected_value])).toEqual([
      [3, 'Amount', 'check/word-number-unreadable', ''],
      [4, 'Due', 'check/word-date-unreadable', ''],
      [5, 'Amount', 'check/number-with-letters', '1205'],
      [5, 'Due', 'check/date-impossible', '2023-02-28'],
    ]);
    expect(issues[0]).toMatchObject({
      actual_value: 'ask Bob', kind: 'format', params: { field: 'Amount', picture: '€#,##0.00' },
      description: 'The field "Amount" shows a number as "€#,##0.00", but this value is not one.',
    });
    expect(issues[1]).toMatchObject({ actual_value: 'next week', params: { field: 'Due', picture: 'dd.MM.yyyy' } });

    // The documents agree: the flagged values print as they are, the others through the pictures.
    const request = mergeRequest({ isSfdtPdfOutput: false, fileNamePattern: '{{Name}}' });
    const started = await startMerge(server, owner.token, templateId, request);
    expect(started.status, JSON.stringify(started.json)).toBe(202);
    const merge: Merge = await waitForMerge(server, owner.token, templateId, request.mergeId, undefined, 120_000);
    expect(merge.status, JSON.stringify(merge.error)).toBe('completed');
    const files = unzipSync((await download(server, merge.downloadUrl!)).bytes);
    expect(docxText(files['Ada.docx']!)).toContain('€1,234.50');
    expect(docxText(files['Ada.docx']!)).toContain('05.03.2024');
    expect(docxText(files['Grace.docx']!)).toContain('ask Bob');
    expect(docxText(files['Grace.docx']!)).not.toContain('€');
    expect(docxText(files['Alan.docx']!)).toContain('next week');
  }, 180_000);
});
