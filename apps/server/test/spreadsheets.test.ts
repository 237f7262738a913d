/** A template's spreadsheet through the HTTP API: upload and every rejection, rows, header row, copy, delete, preview. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FREE_PLAN_WATERMARK, MAX_UPLOAD_BYTES, type ExcelMeta, type ExcelSheetResponse, type TemplateDetail } from '@sheaf/shared';
import { forEachDatabase, startTestServer } from './harness.ts';
import { csv, fixture, makePdf, pdfText, placeholder } from './library-support.ts';
import { pdfFacts, setPlan } from './merge-support.ts';

type TestServer = Awaited<ReturnType<typeof startTestServer>>;

const PEOPLE = csv([
  ['First', 'Last', 'City'],
  ['Ann', 'Lee', 'Oslo'],
  ['Bob', 'Marley-Montgomery', ''],
  ['Cyd', 'Ng', 'Lima'],
]);

forEachDatabase((database) => {
  describe('spreadsheets', () => {
    let server: TestServer;
    let user: Awaited<ReturnType<TestServer['signUp']>>;
    let token: string;

    beforeAll(async () => {
      server = await startTestServer({ database });
      user = await server.signUp();
      token = user.token;
    });
    afterAll(async () => {
      await server.close();
    });

    async function newTemplate(): Promise<string> {
      const response = await server.inject('POST', '/templates', { token, file: { name: 'Letter.pdf', bytes: await makePdf({ pages: 1 }), type: 'application/pdf' } });
      expect(response.status, JSON.stringify(response.json)).toBe(201);
      return (response.json as TemplateDetail).id;
    }

    const uploadSheet = (id: string, name: string, bytes: Uint8Array, query?: Record<string, string>) =>
      server.inject('POST', `/templates/${id}/excel`, { token, query, file: { name, bytes, type: 'application/octet-stream' } });

    it('reads an uploaded spreadsheet, answers its metadata and shows its rows as displayed', async () => {
      const id = await newTemplate();
      const response = await uploadSheet(id, 'people.csv', PEOPLE);
      expect(response.status, JSON.stringify(response.json)).toBe(201);
      expect(response.json).toEqual({
        excelName: 'people.csv', excelFileSize: PEOPLE.length, headersRowNo: 1, headers: ['First', 'Last', 'City'], totalRowCount: 3, firstRow: 2, lastRow: 4,
      });
      const sheet = (await server.inject('GET', `/templates/${id}/excel`, { token })).json as ExcelSheetResponse;
      expect(sheet.excelSheet).toEqual([['Ann', 'Lee', 'Oslo'], ['Bob', 'Marley-Montgomery', null], ['Cyd', 'Ng', 'Lima']]);
      const detail = (await server.inject('GET', `/templates/${id}`, { token })).json as TemplateDetail;
      expect(detail).toMatchObject({ excelName: 'people.csv', excel: { totalRowCount: 3, headers: ['First', 'Last', 'City'] } });

      // The rows chosen for output stay with the same file uploaded again...
      const range = { mode: 'range', startRow: 3, endRow: 4, specificRows: '' };
      expect((await server.inject('PATCH', `/templates/${id}`, { token, body: { output: { rows: range } } })).status).toBe(200);
      await uploadSheet(id, 'people.csv', PEOPLE);
      expect(((await server.inject('GET', `/templates/${id}`, { token })).json as TemplateDetail).output.rows).toEqual(range);

      // ...and replacing the file replaces the rows, and the choice goes back to all rows of the new sheet.
      await uploadSheet(id, 'two.csv', csv([['Name'], ['Zed'], ['Yve']]));
      const replaced = (await server.inject('GET', `/templates/${id}/excel`, { token })).json as ExcelSheetResponse;
      expect(replaced).toMatchObject({ excelName: 'two.csv', headers: ['Name'], excelSheet: [['Zed'], ['Yve']] });
      expect(((await server.inject('GET', `/templates/${id}`, { token })).json as TemplateDetail).output.rows).toEqual({ mode: 'all', startRow: null, endRow: null, specificRows: '' });
    });

    it.each([
      ['an empty file', 'empty.csv', 'sheet/empty-file'],
      ['a password-protected workbook', 'encrypted.xlsx', 'sheet/encrypted'],
      ['a file of another type', 'not-a-sheet.pdf', 'sheet/wrong-type'],
      ['a workbook with an empty sheet', 'sheet-empty.xlsx', 'sheet/empty-sheet'],
      ['a sheet with headings but no rows', 'sheet-header-only.xlsx', 'sheet/no-data-rows'],
      ['a damaged workbook', 'sheet-truncated.xlsx', 'sheet/corrupt'],
    ])('refuses %s (%s) with %s and keeps no spreadsheet', async (_, name, code) => {
      const id = await newTemplate();
      const response = await uploadSheet(id, name, await fixture(name));
      expect(response.status).toBe(400);
      expect(response.json).toMatchObject({ code });
      expect((await server.inject('GET', `/templates/${id}/excel`, { token })).json).toMatchObject({ code: 'sheet/missing' });
    });

    it('refuses more than 100,000 rows and files over 25 MB', async () => {
      const id = await newTemplate();
      const lines = ['Id,Name'];
      for (let row = 1; row <= 100_001; row++) lines.push(`${row},Name ${row}`);
      const tooMany = await uploadSheet(id, 'rows.csv', new TextEncoder().encode(lines.join('\n')));
      expect(tooMany.status).toBe(400);
      expect(tooMany.json).toMatchObject({ code: 'sheet/too-many-rows', message: 'The spreadsheet has more than 100,000 rows.' });

      const exactly = await uploadSheet(id, 'rows.csv', new TextEncoder().encode(lines.slice(0, -1).join('\n')));
      expect(exactly.json).toMatchObject({ totalRowCount: 100_000, lastRow: 100_001 });

      const huge = new Uint8Array(MAX_UPLOAD_BYTES + 1).fill(0x41);
      const tooLarge = await uploadSheet(id, 'huge.csv', huge);
      expect(tooLarge.status).toBe(413);
      expect(tooLarge.json).toMatchObject({ code: 'sheet/too-large' });
    });

    it('finds the header row below a title on upload, and the user can change it', async () => {
      const id = await newTemplate();
      // Row 1 "Customer report 2024", row 2 empty, headings in row 3: the upload opens with row 3.
      const found = await uploadSheet(id, 'report.xlsx', await fixture('sheet-header-row-3.xlsx'));
      expect(found.status, JSON.stringify(found.json)).toBe(201);
      expect(found.json).toMatchObject({ headersRowNo: 3, headers: ['First', 'Last', 'Amount'], totalRowCount: 3, firstRow: 4 });
      const detail = (await server.inject('GET', `/templates/${id}`, { token })).json as TemplateDetail;
      expect(detail).toMatchObject({ headersRowNo: 3, excel: { headersRowNo: 3 } });
      const rows = (await server.inject('GET', `/templates/${id}/excel`, { token })).json as ExcelSheetResponse;
      expect(rows.excelSheet[0]!.slice(0, 2)).toEqual(['Ann', 'Lee']);

      const changed = await server.inject('PATCH', `/templates/${id}`, { token, body: { headersRowNo: 1 } });
      expect(changed.status, JSON.stringify(changed.json)).toBe(200);
      expect((changed.json as TemplateDetail)).toMatchObject({ headersRowNo: 1, excel: { headersRowNo: 1, headers: ['Customer report 2024'] } });
    });

    it('reads the sheet again when the header row changes, and refuses a row outside the sheet', async () => {
      const id = await newTemplate();
      const first = (await uploadSheet(id, 'report.xlsx', await fixture('sheet-header-row-3.xlsx'), { headersRowNo: '1' })).json as ExcelMeta;
      expect(first.headers).toEqual(['Customer report 2024']);

      const changed = await server.inject('PATCH', `/templates/${id}`, { token, body: { headersRowNo: 3 } });
      expect(changed.status, JSON.stringify(changed.json)).toBe(200);
      expect((changed.json as TemplateDetail)).toMatchObject({ headersRowNo: 3, excel: { headersRowNo: 3, headers: ['First', 'Last', 'Amount'], totalRowCount: 3, firstRow: 4 } });
      const rows = (await server.inject('GET', `/templates/${id}/excel`, { token })).json as ExcelSheetResponse;
      expect(rows.excelSheet[0]!.slice(0, 2)).toEqual(['Ann', 'Lee']);

      const outside = await server.inject('PATCH', `/templates/${id}`, { token, body: { headersRowNo: 500 } });
      expect(outside.status).toBe(400);
      expect(outside.json).toMatchObject({ code: 'sheet/header-row-out-of-range', params: { row: 500 } });
      const unchanged = (await server.inject('GET', `/templates/${id}`, { token })).json as TemplateDetail;
      expect(unchanged).toMatchObject({ headersRowNo: 3, excel: { headersRowNo: 3 } });

      // The header row can also come with the upload.
      const other = await newTemplate();
      const direct = await uploadSheet(other, 'report.xlsx', await fixture('sheet-header-row-3.xlsx'), { headersRowNo: '3' });
      expect(direct.json).toMatchObject({ headersRowNo: 3, headers: ['First', 'Last', 'Amount'] });
    });

    it('copies the spreadsheet of another template, lists the choices and deletes it unless a merge runs', async () => {
      const source = await newTemplate();
      await uploadSheet(source, 'people.csv', PEOPLE);
      const target = await newTemplate();
      const copied = await server.inject('POST', `/templates/${target}/excel/copy`, { token, body: { sourceTemplateId: source } });
      expect(copied.status, JSON.stringify(copied.json)).toBe(200);
      expect(copied.json).toMatchObject({ excelName: 'people.csv', totalRowCount: 3 });
      expect(((await server.inject('GET', `/templates/${target}/excel`, { token })).json as ExcelSheetResponse).excelSheet).toHaveLength(3);

      const empty = await newTemplate();
      const nothing = await server.inject('POST', `/templates/${target}/excel/copy`, { token, body: { sourceTemplateId: empty } });
      expect(nothing.json).toMatchObject({ code: 'sheet/missing' });

      const choices = (await server.inject('GET', '/spreadsheets', { token })).json as { spreadsheets: Array<{ templateId: string; excelName: string }> };
      expect(choices.spreadsheets.map((choice) => choice.templateId)).toEqual(expect.arrayContaining([source, target]));

      await server.ctx.db.query(`INSERT INTO merges (id, template_id, owner_id, status, request) VALUES ($1, $2, $3, 'queued', '{}'::jsonb)`, ['Q'.repeat(20), target, user.uid]);
      const busy = await server.inject('DELETE', `/templates/${target}/excel`, { token });
      expect(busy.status).toBe(409);
      expect(busy.json).toMatchObject({ code: 'sheet/merge-in-progress' });
      await server.ctx.db.query(`UPDATE merges SET status = 'cancelled' WHERE id = $1`, ['Q'.repeat(20)]);
      expect((await server.inject('DELETE', `/templates/${target}/excel`, { token })).json).toEqual({ ok: true });
      expect((await server.inject('GET', `/templates/${target}/excel`, { token })).json).toMatchObject({ code: 'sheet/missing' });
      // The source keeps its own copy.
      expect((await server.inject('GET', `/templates/${source}/excel`, { token })).status).toBe(200);
    });

    describe('preview', () => {
      const placeholders = [placeholder('First', { relativeY: 0.2 }), placeholder('Last', { relativeY: 0.3 })];
      const preview = (id: string, body: object) => server.inject('POST', `/templates/${id}/preview`, { token, body: { placeholders, ...body } });

      it('draws the values of the rows in range with the unsaved placeholders', async () => {
        const id = await newTemplate();
        await uploadSheet(id, 'people.csv', PEOPLE);
        const response = await preview(id, { startRow: 3, endRow: 4 });
        expect(response.status, JSON.stringify(response.json)).toBe(200);
        expect(response.headers['content-type']).toContain('application/pdf');
        const text = await pdfText(response.body);
        for (const value of ['Bob', 'Marley-Montgomery', 'Cyd', 'Ng']) expect(text).toContain(value);
        expect(text).not.toContain('Ann');
      });

      it('shows the watermark the plan adds to merges: the Free plan’s, and none on Pro', async () => {
        const id = await newTemplate();
        await uploadSheet(id, 'people.csv', PEOPLE);
        const stamp = FREE_PLAN_WATERMARK.replace(/\s+/g, '');
        const raw = async () => pdfFacts(Buffer.from((await preview(id, { startRow: 2, endRow: 2 })).body)).rawPages.join('');
        const free = await raw();
        expect(free.replace(/\s+/g, '')).toContain(stamp);
        await setPlan(server, user.uid, 'Pro');
        try {
          const pro = await raw();
          expect(pro).toContain('Ann');
          expect(pro.replace(/\s+/g, '')).not.toContain(stamp);
        } finally {
          await setPlan(server, user.uid, 'Free');
        }
      });

      it('fills every row with the longest value of each column when asked', async () => {
        const id = await newTemplate();
        await uploadSheet(id, 'people.csv', PEOPLE);
        const text = await pdfText((await preview(id, { startRow: 2, endRow: 4, showLongestOccurrence: true })).body);
        expect(text.match(/Marley-Montgomery/g)).toHaveLength(3);
        expect(text).not.toContain('Lee');
      });

      it('makes at most 20 rows, and shows the column names when there is no spreadsheet', async () => {
        const id = await newTemplate();
        const lines: Array<Array<string | number>> = [['First', 'Last']];
        for (let row = 1; row <= 30; row++) lines.push([`Given${row}x`, `Family${row}x`]);
        await uploadSheet(id, 'many.csv', csv(lines));
        const text = await pdfText((await preview(id, { startRow: 2, endRow: 31 })).body);
        expect(text).toContain('Given20x');
        expect(text).not.toContain('Given21x');

        const bare = await newTemplate();
        const named = await pdfText((await preview(bare, { startRow: 2, endRow: 2 })).body);
        expect(named).toContain('First');
        expect(named).toContain('Last');
      });
    });
  });
});
