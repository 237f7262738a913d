/**
 * The data check through the API (docs/data-check.md): POST /templates/:id/verifyExcelData/stream
 * answers NDJSON issues, one per line, sorted by row and deduplicated. A generated sheet carries one
 * planted problem of every kind at a known row and column; the answer must be exactly those (so
 * every one is found where it is, and nothing is said of the clean rows). Also: the answer streams
 * in several chunks for a large sheet and is never compressed, the rows selected as for the merge
 * are the rows checked, a dataset over DATA_CHECK_MAX_CELLS is refused with 400 and the spec's
 * message, another account's template is 404, and a client that goes away stops the work.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATA_CHECK_MAX_CELLS, DataIssueSchema, ERROR_MESSAGES, type DataIssue, type PlaceholderInput } from '@sheaf/shared';
import { rowsOfSheet, sheetFromTable, type DataCheck, type SheetRow } from '@sheaf/engine';
import { checkLines, type PreparedDataCheck } from '../src/modules/datacheck/index.ts';
import type { AppContext } from '../src/context.ts';
import { forEachDatabase, startTestServer, type TestAccount, type TestServer } from './harness.ts';
import { fixture, makePdf, placeholder } from './library-support.ts';
import { startOpenAiStandin, type OpenAiStandin } from './openai-standin.ts';

const HEADERS = ['Name', 'Title', 'Email', 'Cc', 'Pin', 'Amount', 'Date', 'Photo', 'Code', 'Note', 'Glyph', 'Score', 'Joined', 'Active', 'Contact', 'Ref'] as const;
type Row = Record<(typeof HEADERS)[number], string>;

/** A row no rule has anything to say about (row numbers as Excel counts them: data from 2). */
function cleanRow(row: number): Row {
  const day = String((row % 28) + 1).padStart(2, '0');
  return {
    Name: `Person${row}`, Title: 'Dr', Email: `person${row}@example.com`, Cc: `office${row}@example.org`, Pin: String(1000 + row),
    Amount: `${row}.50`, Date: `2024-03-${day}`, Photo: 'logo.png', Code: `CODE-${row}`, Note: `Note ${row}`, Glyph: `Plain ${row}`,
    Score: String(row * 3), Joined: `2023-0${(row % 9) + 1}-15`, Active: row % 2 ? 'yes' : 'no', Contact: `contact${row}@example.net`, Ref: `REF${row}`,
  };
}

/** Planted problems: row -> the cells changed, and what the check must say (column, code, expected_value). */
const PLANTED: Array<{ row: number; cells: Partial<Row>; issues: Array<[string, string, string]> }> = [
  { row: 3, cells: { Name: '' }, issues: [['Name', 'check/missing-placeholder', ''], ['Name', 'check/missing-file-name', ''], ['Name', 'check/missing-subject', '']] },
  { row: 4, cells: { Title: '' }, issues: [['Title', 'check/missing-content', '']] },
  { row: 5, cells: { Email: '' }, issues: [['Email', 'check/missing-recipient', '']] },
  { row: 6, cells: { Email: 'person6@example.con' }, issues: [['Email', 'check/email-invalid', 'person6@example.com']] },
  { row: 7, cells: { Email: 'person7@gmial.com' }, issues: [['Email', 'check/email-typo', 'person7@gmail.com']] },
  { row: 8, cells: { Email: 'person2@example.com' }, issues: [['Email', 'check/duplicate-recipient', '']] },
  { row: 9, cells: { Cc: 'office9.example.org' }, issues: [['Cc', 'check/email-invalid', '']] },
  { row: 10, cells: { Pin: '' }, issues: [['Pin', 'check/missing-password', '']] },
  { row: 11, cells: { Amount: '12O5' }, issues: [['Amount', 'check/number-with-letters', '1205']] },
  { row: 12, cells: { Amount: 'abc' }, issues: [['Amount', 'check/number-unreadable', '']] },
  { row: 13, cells: { Date: '2023-02-30' }, issues: [['Date', 'check/date-impossible', '2023-02-28']] },
  { row: 14, cells: { Date: 'someday' }, issues: [['Date', 'check/date-unreadable', '']] },
  { row: 15, cells: { Photo: 'logo2.png' }, issues: [['Photo', 'check/image-missing', 'logo.png']] },
  { row: 16, cells: { Code: 'x'.repeat(3000) }, issues: [['Code', 'check/qr-too-long', '']] },
  { row: 17, cells: { Note: Array.from({ length: 200 }, () => 'word').join(' ') }, issues: [['Note', 'check/text-overflow', '']] },
  { row: 18, cells: { Glyph: '漢字' }, issues: [['Glyph', 'check/glyph-missing', '']] },
  { row: 19, cells: { Score: '4l5' }, issues: [['Score', 'check/number-with-letters', '415']] },
  { row: 20, cells: { Score: 'n/a' }, issues: [['Score', 'check/outlier-number', '']] },
  { row: 21, cells: { Joined: '2023-04-31' }, issues: [['Joined', 'check/date-impossible', '2023-04-30']] },
  { row: 22, cells: { Active: 'maybe' }, issues: [['Active', 'check/outlier-boolean', '']] },
  { row: 23, cells: { Contact: 'John Smith' }, issues: [['Contact', 'check/outlier-email', '']] },
  { row: 24, cells: { Ref: ' REF24 ' }, issues: [['Ref', 'check/spaces', 'REF24']] },
  { row: 25, cells: { Ref: 'REF\u200b25' }, issues: [['Ref', 'check/invisible-characters', 'REF25']] },
];
const LAST_ROW = 41;

function csvOf(rows: Row[]): Uint8Array {
  const quote = (value: string) => (/[",\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value);
  const lines = [HEADERS.join(','), ...rows.map((row) => HEADERS.map((heading) => quote(row[heading])).join(','))];
  return new TextEncoder().encode(`${lines.join('\n')}\n`);
}

function plantedSheet(): Uint8Array {
  const rows: Row[] = [];
  for (let row = 2; row <= LAST_ROW; row++) rows.push({ ...cleanRow(row), ...PLANTED.find((planted) => planted.row === row)?.cells });
  return csvOf(rows);
}

const PLACEHOLDERS: PlaceholderInput[] = [
  placeholder('Name'),
  placeholder('Amount', { type: 'number', relativeY: 0.35 }),
  placeholder('Date', { type: 'date', relativeY: 0.4 }),
  placeholder('Photo', { type: 'image', relativeY: 0.45, relativeHeight: 0.1 }),
  placeholder('Code', { type: 'qrcode', relativeY: 0.6, relativeWidth: 0.2, relativeHeight: 0.15 }),
  placeholder('Note', { relativeY: 0.8 }),
  placeholder('Glyph', { relativeY: 0.9 }),
  placeholder('Fax', { relativeY: 0.05 }), // no such column: one issue at the header row
];

const REQUEST = {
  isCombinedOutput: false,
  fileNamePattern: '{{Name}}',
  passwordProtection: { readPassword: 'pw{{Pin}}', modifyPassword: '' },
  email: { isActive: true },
  rowsData: { startRow: 2, endRow: 1_000_000 },
};

/** The answer's issues, each line checked against the contract. */
function issuesOf(body: Uint8Array): DataIssue[] {
  const text = new TextDecoder().decode(body);
  expect(text.endsWith('\n')).toBe(true);
  return text.split('\n').filter(Boolean).map((line) => DataIssueSchema.parse(JSON.parse(line)));
}

const keyOf = (issue: Pick<DataIssue, 'row_number' | 'column_name' | 'code'>) => `${issue.row_number} ${issue.column_name} ${issue.code}`;

forEachDatabase((database) => {
  let server: TestServer;
  let user: TestAccount;
  let templateId: string;

  beforeAll(async () => {
    server = await startTestServer({ database });
    user = await server.signUp();
    templateId = await checkedTemplate(user.token, plantedSheet());
  });
  afterAll(() => server?.close());

  async function checkedTemplate(token: string, sheet: Uint8Array, placeholders: PlaceholderInput[] = PLACEHOLDERS, emailed = true): Promise<string> {
    const created = await server.inject('POST', '/templates', { token, file: { name: 'Letter.pdf', bytes: await makePdf({ pages: 1 }), type: 'application/pdf' } });
    expect(created.status, JSON.stringify(created.json)).toBe(201);
    const id = created.json.id as string;
    expect((await server.inject('PATCH', `/templates/${id}/placeholders`, { token, body: { placeholders } })).status).toBe(200);
    const image = await server.inject('POST', `/templates/${id}/images`, { token, file: { name: 'logo.png', bytes: await fixture('image.png'), type: 'image/png' } });
    expect(image.status, JSON.stringify(image.json)).toBe(201);
    const uploaded = await server.inject('POST', `/templates/${id}/excel`, { token, file: { name: 'people.csv', bytes: sheet, type: 'text/csv' } });
    expect(uploaded.status, JSON.stringify(uploaded.json)).toBe(201);
    if (!emailed) return id;
    const email = await server.inject('PATCH', `/templates/${id}/email`, {
      token, body: { isActive: true, subject: 'Hello {{Name}}', content: '<p>Dear {{Title}},</p>', recipientsColumn: 'Email', ccColumn: 'Cc' },
    });
    expect(email.status, JSON.stringify(email.json)).toBe(200);
    return id;
  }

  /** The call over HTTP (the injected helper would read an NDJSON answer as one JSON document). */
  async function check(id: string, body: unknown = REQUEST, token = user.token): Promise<{ status: number; headers: Headers; body: Uint8Array; json: Record<string, unknown> | undefined }> {
    const response = await fetch(`${server.url}/v1/templates/${id}/verifyExcelData/stream`, {
      method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(body),
    });
    const bytes = new Uint8Array(await response.arrayBuffer());
    const isJson = response.headers.get('content-type')?.startsWith('application/json');
    return { status: response.status, headers: response.headers, body: bytes, json: isJson ? JSON.parse(new TextDecoder().decode(bytes)) : undefined };
  }

  it('finds every planted problem at its row and column, and nothing on the clean rows', async () => {
    const response = await check(templateId);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/x-ndjson; charset=utf-8');
    const issues = issuesOf(response.body);
    const expected = [
      { row_number: 1, column_name: 'Fax', code: 'check/column-missing', expected_value: '' },
      ...PLANTED.flatMap(({ row, issues: planted }) => planted.map(([column_name, code, expected_value]) => ({ row_number: row, column_name, code, expected_value }))),
    ];
    expect(issues.map(({ row_number, column_name, code, expected_value }) => ({ row_number, column_name, code, expected_value }))).toEqual(expected);
    // Each line carries the spec's fields and the catalogue's text.
    const duplicate = issues.find((issue) => issue.code === 'check/duplicate-recipient')!;
    expect(duplicate).toMatchObject({ actual_value: 'person2@example.com', kind: 'duplicate', params: { firstRow: 2 }, description: 'The same address is the recipient of row 2.' });
    expect(issues.find((issue) => issue.code === 'check/glyph-missing')).toMatchObject({ kind: 'layout', params: { page: 1, chars: '漢 字' } });
    expect(issues.find((issue) => issue.code === 'check/qr-too-long')).toMatchObject({ params: { length: 3000, max: 2331 }, actual_value: `${'x'.repeat(999)}…` });
  });

  it('answers sorted by row_number with one line per row, column and code', async () => {
    const issues = issuesOf((await check(templateId)).body);
    const rows = issues.map((issue) => issue.row_number);
    expect(rows).toEqual([...rows].sort((a, b) => a - b));
    expect(new Set(issues.map(keyOf)).size).toBe(issues.length);
  });

  it('checks the rows the request selects, as the merge picks them', async () => {
    const issues = issuesOf((await check(templateId, { ...REQUEST, rowsData: { specificRowsNumbers: '6,7,30' } })).body);
    expect(issues.map(keyOf)).toEqual(['1 Fax check/column-missing', '6 Email check/email-invalid', '7 Email check/email-typo']);
    const range = issuesOf((await check(templateId, { ...REQUEST, rowsData: { startRow: 20, endRow: 22 } })).body);
    expect(range.map((issue) => issue.row_number)).toEqual([1, 20, 21, 22]);
    // A selection of no row is refused as the merge refuses it.
    const none = await check(templateId, { ...REQUEST, rowsData: { specificRowsNumbers: '500' } });
    expect(none.status).toBe(400);
    expect(none.json).toMatchObject({ code: 'merge/bad-row-range' });
  });

  it('uses the saved settings when the request leaves them out, and checks no email when it is not sent', async () => {
    const issues = issuesOf((await check(templateId, { rowsData: { startRow: 2, endRow: 12 }, email: { isActive: false } })).body);
    const codes = new Set(issues.map((issue) => issue.code));
    expect(codes.has('check/missing-recipient')).toBe(false);
    expect(codes.has('check/missing-password')).toBe(false); // no protection saved, none sent
    expect(codes.has('check/missing-placeholder')).toBe(true);
  });

  it('is 404 for another account\'s template and 401 without a token', async () => {
    const other = await server.signUp();
    const response = await check(templateId, REQUEST, other.token);
    expect(response.status).toBe(404);
    expect(response.json).toMatchObject({ code: 'template/not-found' });
    expect((await check(templateId, REQUEST, '')).status).toBe(401);
  });

  it('refuses a dataset over DATA_CHECK_MAX_CELLS with 400 and the spec\'s message', async () => {
    // 52 headings and 100,000 rows of one cell: 5.2 million cells (rows x columns), a small file.
    const columns = Math.floor(DATA_CHECK_MAX_CELLS / 100_000) + 2;
    const lines = [Array.from({ length: columns }, (_, i) => `C${i}`).join(','), ...Array.from({ length: 100_000 }, (_, i) => `v${i}`)];
    const id = await checkedTemplate(user.token, new TextEncoder().encode(`${lines.join('\n')}\n`), [placeholder('C0')], false);
    const response = await check(id, { rowsData: { startRow: 2, endRow: 1_000_000 } });
    expect(response.status).toBe(400);
    expect(response.json).toMatchObject({ code: 'check/too-large', message: 'This dataset is too large for a single validation. Consider splitting it or skip validation' });
    expect(ERROR_MESSAGES['check/too-large']).toBe(response.json?.message);
    // The same sheet's first rows are within the limit.
    expect((await check(id, { rowsData: { startRow: 2, endRow: 1_000 } })).status).toBe(200);
  }, 60_000);

  it('streams a large sheet in several chunks, uncompressed: the first line goes out before the last row is checked', async () => {
    // 20,000 clean rows but the first and the last: an answer of two lines. Sent at the end, they
    // would come in one chunk; streamed, the first goes out at once and the second 20,000 rows later.
    const rows: Row[] = [];
    for (let row = 2; row <= 20_001; row++) rows.push(cleanRow(row));
    rows[0]!.Ref = ' REF2';
    rows.at(-1)!.Ref = 'REF20001 ';
    const id = await checkedTemplate(user.token, csvOf(rows), PLACEHOLDERS.filter((each) => each.column !== 'Fax'));
    const response = await fetch(`${server.url}/v1/templates/${id}/verifyExcelData/stream`, {
      method: 'POST',
      headers: { authorization: `Bearer ${user.token}`, 'content-type': 'application/json', 'accept-encoding': 'gzip, deflate, br' },
      body: JSON.stringify(REQUEST),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-encoding')).toBeNull();
    expect(response.headers.get('cache-control')).toBe('no-store, no-transform');
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    const chunks: string[] = [];
    for (let read = await reader.read(); !read.done; read = await reader.read()) chunks.push(decoder.decode(read.value, { stream: true }));
    const issues = chunks.join('').split('\n').filter(Boolean).map((line) => JSON.parse(line) as DataIssue);
    expect(issues.map(keyOf)).toEqual(['2 Ref check/spaces', '20001 Ref check/spaces']);
    expect(chunks.length).toBeGreaterThan(1);
    expect(chunks[0]).toContain('"row_number":2,');
    expect(chunks[0]).not.toContain('"row_number":20001');
  }, 60_000);
});

describe('the stream', () => {
  /** A prepared check of `rows` rows whose every row has one issue, counting the rows checked. */
  function countingCheck(rows: number): { prepared: PreparedDataCheck; checked: () => number } {
    let checked = 0;
    const sheet = sheetFromTable(['A'], Array.from({ length: rows }, (_, i) => [`v${i}`]));
    const row = (each: SheetRow) => {
      checked++;
      return [{ row_number: each.rowNumber, column_name: 'A', description: 'd', actual_value: 'a'.repeat(200), expected_value: '', kind: 'whitespace' as const, code: 'check/spaces' as const, params: {} }];
    };
    const check: DataCheck = {
      headerIssues: [],
      columnTypes: [undefined],
      row,
      async *rows(source) {
        for await (const each of source) yield { rowNumber: each.rowNumber, issues: row(each) };
      },
    };
    const indices = Array.from({ length: rows }, (_, i) => i);
    return { prepared: { headers: sheet.headers, rows: () => rowsOfSheet(sheet, indices), check }, checked: () => checked };
  }
  const ctx = { config: {}, log: { warn: () => undefined, debug: () => undefined, info: () => undefined } } as unknown as AppContext;

  it('sends the first issue before the rest is checked, and stops when the client goes away', async () => {
    const { prepared, checked } = countingCheck(100_000);
    const stop = new AbortController();
    const lines = checkLines(ctx, prepared, { signal: stop.signal });
    const first = await lines.next();
    expect(String(first.value).split('\n')[0]).toContain('"row_number":2');
    expect(checked()).toBeLessThan(100_000);
    stop.abort();
    while (!(await lines.next()).done);
    expect(checked()).toBeLessThan(100_000);
  });

  it('checks every row when nobody stops it', async () => {
    const { prepared, checked } = countingCheck(5_000);
    let text = '';
    for await (const chunk of checkLines(ctx, prepared, { signal: new AbortController().signal })) text += chunk;
    expect(checked()).toBe(5_000);
    expect(text.split('\n').filter(Boolean)).toHaveLength(5_000);
  });
});

describe('with the AI review configured', () => {
  let standin: OpenAiStandin;
  let server: TestServer;
  beforeAll(async () => {
    standin = await startOpenAiStandin({ apiKey: 'sk-test-check' });
    server = await startTestServer({ database: 'pglite', config: { LLM_BASE_URL: standin.baseURL, LLM_MODEL: 'standin-1', LLM_API_KEY: 'sk-test-check' } });
  });
  afterAll(async () => {
    await server?.close();
    await standin?.close();
  });

  it('merges its issues into the answer beside the rules\' issues, each line once', async () => {
    const user = await server.signUp();
    const first = ['Anna', 'John', 'Maria', 'Peter', 'Sophie', 'Lukas', 'Emma', 'James'];
    const lines = ['Name,Ref'];
    for (let row = 2; row <= 61; row++) lines.push(`${first[row % first.length]} Family${row},REF${row}`);
    lines[6 - 1] = 'Paris,REF6'; // a place among people (the stand-in's rule): row 6
    lines[3 - 1] = 'John Family3, REF3'; // stray space: row 3
    lines[50 - 1] = 'Maria Family50,REF50 '; // row 50
    const created = await server.inject('POST', '/templates', { token: user.token, file: { name: 'Letter.pdf', bytes: await makePdf({ pages: 1 }), type: 'application/pdf' } });
    const id = created.json.id as string;
    await server.inject('PATCH', `/templates/${id}/placeholders`, { token: user.token, body: { placeholders: [placeholder('Name')] } });
    const uploaded = await server.inject('POST', `/templates/${id}/excel`, { token: user.token, file: { name: 'people.csv', bytes: new TextEncoder().encode(`${lines.join('\n')}\n`), type: 'text/csv' } });
    expect(uploaded.status, JSON.stringify(uploaded.json)).toBe(201);
    const response = await fetch(`${server.url}/v1/templates/${id}/verifyExcelData/stream`, {
      method: 'POST', headers: { authorization: `Bearer ${user.token}`, 'content-type': 'application/json' }, body: JSON.stringify({ rowsData: { startRow: 2, endRow: 61 } }),
    });
    expect(response.status).toBe(200);
    const issues = issuesOf(new Uint8Array(await response.arrayBuffer()));
    expect(issues.map(keyOf).sort()).toEqual(['3 Ref check/spaces', '50 Ref check/spaces', '6 Name check/ai-looks-like-place'].sort());
    expect(issues.find((issue) => issue.kind === 'ai')).toMatchObject({ row_number: 6, actual_value: 'Paris' });
    // The rules' lines in row order; the AI's come in row order among them or after them (docs/data-check.md#ai-review).
    const rules = issues.filter((issue) => issue.kind !== 'ai').map((issue) => issue.row_number);
    expect(rules).toEqual([3, 50]);
    expect(standin.requests.length).toBeGreaterThan(0);
  });
});
