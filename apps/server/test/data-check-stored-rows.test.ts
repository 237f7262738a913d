/**
 * The data check of a sheet that is no longer in memory (docs/data-check.md#speed): the server
 * restarted, or other sheets were read since. The rows then come from the rows file stored beside
 * the spreadsheet at upload, streamed, and the answer is the one a check right after the upload
 * gives, line for line. A rows file that is missing, cut short, damaged in the middle or described by
 * a damaged profile is never the user's problem: the check reads the spreadsheet instead and the
 * file is written again. Removing the spreadsheet removes its rows files.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { DataIssueSchema, type DataIssue, type PlaceholderInput } from '@sheaf/shared';
import { blobLayout } from '../src/adapters/blobs/layout.ts';
import { forgetParsedSheets } from '../src/modules/spreadsheets/index.ts';
import { forEachDatabase, startTestServer, type TestAccount, type TestServer } from './harness.ts';
import { csv, makePdf, placeholder } from './library-support.ts';

const LAST_ROW = 12_001;
/** Clean rows but a few planted problems, spread from the first row to the last. */
function plantedSheet(): Uint8Array {
  const rows: Array<Array<string | number>> = [['Name', 'Email', 'Amount', 'Joined', 'Ref']];
  for (let row = 2; row <= LAST_ROW; row++) rows.push([`Person ${row}`, `p${row}@example.com`, `${row}.50`, `2023-0${(row % 9) + 1}-15`, `REF${row}`]);
  const plant = (row: number, column: number, value: string) => { rows[row - 1]![column] = value; };
  plant(2, 4, ' REF2');
  plant(500, 1, 'p3@example.com'); // a duplicate recipient of row 3
  plant(777, 2, 'abc');
  plant(3_000, 3, '2023-02-30');
  plant(6_000, 0, '');
  plant(9_000, 1, 'p9000@example.con');
  plant(LAST_ROW, 4, `REF${LAST_ROW} `);
  return csv(rows);
}

const PLACEHOLDERS: PlaceholderInput[] = [placeholder('Name'), placeholder('Amount', { type: 'number', relativeY: 0.4 })];
const REQUEST = { isCombinedOutput: false, fileNamePattern: '{{Name}}', email: { isActive: true }, rowsData: { startRow: 2, endRow: 1_000_000 } };

forEachDatabase((database) => {
  let server: TestServer;
  let user: TestAccount;
  let templateId: string;
  let checksum: string;
  /** The answer right after the upload (the sheet in memory). */
  let warm: string;
  let rowsFile: Uint8Array;

  const keys = () => ({
    rows: blobLayout.template.sheetRows(templateId, checksum, 1),
    profile: blobLayout.template.sheetRowsProfile(templateId, checksum, 1),
    sheet: blobLayout.template.spreadsheet(templateId, checksum),
  });

  beforeAll(async () => {
    server = await startTestServer({ database });
    user = await server.signUp();
    const created = await server.inject('POST', '/templates', { token: user.token, file: { name: 'Letter.pdf', bytes: await makePdf({ pages: 1 }), type: 'application/pdf' } });
    templateId = created.json.id as string;
    expect((await server.inject('PATCH', `/templates/${templateId}/placeholders`, { token: user.token, body: { placeholders: PLACEHOLDERS } })).status).toBe(200);
    const uploaded = await server.inject('POST', `/templates/${templateId}/excel`, { token: user.token, file: { name: 'people.csv', bytes: plantedSheet(), type: 'text/csv' } });
    expect(uploaded.status, JSON.stringify(uploaded.json)).toBe(201);
    const email = await server.inject('PATCH', `/templates/${templateId}/email`, {
      token: user.token, body: { isActive: true, subject: 'Hello {{Name}}', content: '<p>Hi</p>', recipientsColumn: 'Email' },
    });
    expect(email.status, JSON.stringify(email.json)).toBe(200);
    const [row] = await server.ctx.db.query<{ checksum: string }>('SELECT checksum FROM spreadsheets WHERE template_id = $1', [templateId]);
    checksum = row!.checksum;
    warm = (await check()).text;
    rowsFile = await server.ctx.blobs.get(keys().rows);
  }, 120_000);
  afterAll(() => server?.close());

  /** The check over HTTP, its answer as it arrived (chunks) and whole. */
  async function check(): Promise<{ text: string; chunks: string[] }> {
    const response = await fetch(`${server.url}/v1/templates/${templateId}/verifyExcelData/stream`, {
      method: 'POST', headers: { authorization: `Bearer ${user.token}`, 'content-type': 'application/json' }, body: JSON.stringify(REQUEST),
    });
    expect(response.status).toBe(200);
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    const chunks: string[] = [];
    for (let read = await reader.read(); !read.done; read = await reader.read()) chunks.push(decoder.decode(read.value, { stream: true }));
    return { text: chunks.join(''), chunks };
  }
  const issuesOf = (text: string): DataIssue[] => text.split('\n').filter(Boolean).map((line) => DataIssueSchema.parse(JSON.parse(line)));

  /** Waits for the rows file to be written again (in the background, after the answer). */
  async function rowsFileRewritten(): Promise<void> {
    const deadline = Date.now() + 30_000;
    for (;;) {
      const [rows, profile] = await Promise.all([server.ctx.blobs.get(keys().rows).catch(() => null), server.ctx.blobs.get(keys().profile).catch(() => null)]);
      const described = (() => {
        try {
          return (JSON.parse(Buffer.from(profile ?? []).toString()) as { rowsBytes?: number }).rowsBytes;
        } catch {
          return undefined; // still the damaged one
        }
      })();
      if (rows && Buffer.from(rows).equals(Buffer.from(rowsFile)) && described === rowsFile.length) return;
      if (Date.now() > deadline) throw new Error('the rows file was not written again');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  it('answers what the warm check answered, every planted problem at its row', () => {
    expect(issuesOf(warm).map((issue) => `${issue.row_number} ${issue.column_name} ${issue.code}`)).toEqual([
      '2 Ref check/spaces', '500 Email check/duplicate-recipient', '777 Amount check/number-unreadable', '3000 Joined check/date-impossible',
      '6000 Name check/missing-placeholder', '6000 Name check/missing-file-name', '6000 Name check/missing-subject', '9000 Email check/email-invalid',
      `${LAST_ROW} Ref check/spaces`,
    ]);
  });

  it('streams the stored rows of a sheet no longer in memory: the same lines, in several chunks, the first before the last row', async () => {
    // Without the spreadsheet itself, only the rows file can answer.
    await server.ctx.blobs.copy(keys().sheet, `${keys().sheet}-aside`);
    await server.ctx.blobs.delete(keys().sheet);
    try {
      forgetParsedSheets();
      const cold = await check();
      expect(cold.text).toBe(warm);
      expect(cold.chunks.length).toBeGreaterThan(1);
      expect(cold.chunks[0]).toContain('"row_number":2,');
      expect(cold.chunks[0]).not.toContain(`"row_number":${LAST_ROW}`);
    } finally {
      await server.ctx.blobs.copy(`${keys().sheet}-aside`, keys().sheet);
      await server.ctx.blobs.delete(`${keys().sheet}-aside`);
    }
  }, 60_000);

  const damages: Array<[string, () => Promise<void>]> = [
    ['missing', () => server.ctx.blobs.delete(keys().rows)],
    ['missing with its profile (a sheet stored before rows files)', async () => {
      await server.ctx.blobs.delete(keys().rows);
      await server.ctx.blobs.delete(keys().profile);
    }],
    ['cut short', () => server.ctx.blobs.put(keys().rows, rowsFile.subarray(0, Math.floor(rowsFile.length / 2))).then(() => undefined)],
    ['damaged in the middle, same size', async () => {
      const damaged = Uint8Array.from(rowsFile);
      damaged.fill(0x7b, Math.floor(damaged.length / 2), Math.floor(damaged.length / 2) + 40); // '{' over a line
      await server.ctx.blobs.put(keys().rows, damaged);
    }],
    ['described by a damaged profile', () => server.ctx.blobs.put(keys().profile, new TextEncoder().encode('{"version":1,"headers":')).then(() => undefined)],
  ];
  for (const [damage, make] of damages) {
    it(`a rows file ${damage}: the same answer from the spreadsheet, and the file is written again`, async () => {
      await make();
      forgetParsedSheets();
      expect((await check()).text).toBe(warm);
      await rowsFileRewritten();
      // Read from the rewritten file, the answer is the same again.
      forgetParsedSheets();
      expect((await check()).text).toBe(warm);
    }, 60_000);
  }

  it('removing the spreadsheet removes its rows files', async () => {
    expect(await server.ctx.blobs.exists(keys().rows)).toBe(true);
    expect((await server.inject('DELETE', `/templates/${templateId}/excel`, { token: user.token })).status).toBe(200);
    expect(await server.ctx.blobs.exists(keys().rows)).toBe(false);
    expect(await server.ctx.blobs.exists(keys().profile)).toBe(false);
  });
});
