/**
 * The data check's AI review (docs/data-check.md#ai-review) against a local stand-in of an
 * OpenAI-compatible API (openai-standin.ts), reached over HTTP by the real `openai` client: what is
 * sent (distinct values of the chosen columns only, in batches, within the cost cap), what is found
 * (planted problems, on every row holding them, nothing on clean rows), what ends the pass without
 * failing the check (a 500, a timeout, the abort signal, malformed answers), the key (the bearer, never
 * in the log), and nothing at all when it is not configured.
 */
import { Writable } from 'node:stream';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { DataIssueSchema, type DataIssue } from '@sheaf/shared';
import { loadConfig } from '../src/config.ts';
import { createLogger } from '../src/http/logger.ts';
import { aiReview, aiReviewConfigured, type AiReviewRow, type AiReviewSummary } from '../src/modules/datacheck/index.ts';
import { startOpenAiStandin, type OpenAiStandin } from './openai-standin.ts';

const DATA_DIR = mkdtempSync(path.join(tmpdir(), 'sheaf-ai-review-'));
const API_KEY = `sk-test-standin-${'7f3a9c'.repeat(6)}`;

/** A config and a logger whose lines (trace and up) are kept. */
function reviewContext(env: Record<string, string> = {}) {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString('utf8'));
      done();
    },
  });
  const config = loadConfig({ DATA_DIR, SECRET_KEY: 'a'.repeat(40), ...env });
  return { ctx: { config, log: createLogger({ LOG_LEVEL: 'trace' }, sink) }, lines, logText: () => lines.join('') };
}

function standinEnv(standin: OpenAiStandin, extra: Record<string, string> = {}): Record<string, string> {
  return { LLM_BASE_URL: standin.baseURL, LLM_MODEL: 'standin-1', LLM_API_KEY: API_KEY, ...extra };
}

async function review(ctx: ReturnType<typeof reviewContext>['ctx'], columns: string[], rows: AiReviewRow[] | AsyncIterable<AiReviewRow>, signal = new AbortController().signal) {
  const issues: DataIssue[] = [];
  let summary: AiReviewSummary | undefined;
  for await (const issue of aiReview(ctx, { columns, rows, signal, onSummary: (done) => (summary = done) })) issues.push(issue);
  return { issues, summary: summary! };
}

const FIRST = ['John', 'Maria', 'Peter', 'Sophie', 'Lukas', 'Emma', 'James', 'Laura', 'Paul', 'Clara'];
const LAST = ['Miller', 'Garcia', 'Weber', 'Martin', 'Fischer', 'Brown', 'Wilson', 'Moreau', 'Schulz', 'Rossi'];
const STREETS = ['Baker Street', 'Elm Road', 'Rue de la Paix', 'High Street', 'Mill Lane', 'Park Avenue', 'Church Road'];
const CITIES = ['Paris', 'Berlin', 'London', 'Madrid', 'Hamburg', 'Vienna', 'Zürich'];
const COMPANIES = ['Acme Ltd', 'Globex GmbH', 'Initech Inc', 'Deutsche Bank', 'Umbrella plc'];

const COLUMNS = ['Full name', 'Street address', 'City', 'Company', 'Email', 'Password', 'Customer ID', 'IBAN', 'Amount', 'Notes', 'Column 11'];
/** The columns the review may send, and the kind each is sent as. */
const CHOSEN = { 'Full name': 'person', 'Street address': 'address', City: 'place', Company: 'company', 'Column 11': 'address' };

/** 40 data rows (rows 2..41) with problems planted at known rows. */
function sheet(): AiReviewRow[] {
  const rows: AiReviewRow[] = [];
  for (let i = 0; i < 40; i += 1) {
    rows.push({
      rowNumber: i + 2,
      cells: {
        'Full name': `${FIRST[i % 10]} ${LAST[Math.floor(i / 4) % 10]}`,
        'Street address': `${(i % 20) + 1} ${STREETS[i % 7]}`,
        City: CITIES[i % 7],
        Company: COMPANIES[i % 5],
        Email: `person${i}@example.com`,
        // Words a person would send if the heading were not private.
        Password: `Purple Monkey ${LAST[i % 10]}`,
        'Customer ID': `C-${String(100_000 + i)}`,
        IBAN: `DE89 3704 0044 0532 0130 ${String(i).padStart(2, '0')}`,
        Amount: `${(i * 7.5).toFixed(2)}`,
        Notes: `Called on Monday about invoice ${i}`,
        // A heading that says nothing: its values make it an address column.
        'Column 11': `Hauptstraße ${i + 1}`,
      },
    });
  }
  const at = (row: number) => rows[row - 2].cells;
  at(7)['Street address'] = 'Anna Schmidt'; // a name in an address column ...
  at(19)['Street address'] = 'Anna Schmidt'; // ... on two rows
  at(12)['Full name'] = 'Lyon'; // a city in a name column
  at(15).Company = 'Deutshe Bank'; // a misspelling of the majority's "Deutsche Bank" (rows 5, 10, 20, 25, 35, 40)
  at(30).Company = 'Deutshe Bank';
  at(22).City = 'Zurich'; // "Zürich" on rows 8, 15, 29, 36
  at(2).City = 'Hamburgh'; // met first, but "Hamburg" (rows 6, 13, 20, 27, 34, 41) is the majority
  return rows;
}

const PLANTED = [
  { row_number: 2, column_name: 'City', code: 'check/ai-spelling', actual_value: 'Hamburgh', expected_value: 'Hamburg' },
  { row_number: 7, column_name: 'Street address', code: 'check/ai-looks-like-person', actual_value: 'Anna Schmidt', expected_value: '' },
  { row_number: 12, column_name: 'Full name', code: 'check/ai-looks-like-place', actual_value: 'Lyon', expected_value: '' },
  { row_number: 15, column_name: 'Company', code: 'check/ai-spelling', actual_value: 'Deutshe Bank', expected_value: 'Deutsche Bank' },
  { row_number: 19, column_name: 'Street address', code: 'check/ai-looks-like-person', actual_value: 'Anna Schmidt', expected_value: '' },
  { row_number: 22, column_name: 'City', code: 'check/ai-spelling', actual_value: 'Zurich', expected_value: 'Zürich' },
  { row_number: 30, column_name: 'Company', code: 'check/ai-spelling', actual_value: 'Deutshe Bank', expected_value: 'Deutsche Bank' },
];

const brief = (issue: DataIssue) => ({ row_number: issue.row_number, column_name: issue.column_name, code: issue.code, actual_value: issue.actual_value, expected_value: issue.expected_value });

let standin: OpenAiStandin;
beforeAll(async () => {
  standin = await startOpenAiStandin({ apiKey: API_KEY });
});
afterAll(() => standin?.close());
afterEach(() => {
  standin.reset();
  vi.restoreAllMocks();
});

describe('the AI review', () => {
  it('is off when LLM_BASE_URL is unset: nothing is sent, nothing found', async () => {
    const fetchSpy = vi.spyOn(globalThis, 'fetch');
    const { ctx } = reviewContext({ LLM_MODEL: 'standin-1', LLM_API_KEY: API_KEY });
    expect(aiReviewConfigured(ctx)).toBe(false);
    const { issues, summary } = await review(ctx, COLUMNS, sheet());
    expect(issues).toEqual([]);
    expect(summary).toMatchObject({ outcome: 'off', cellsSent: 0, requests: 0 });
    expect(fetchSpy).not.toHaveBeenCalled();
    expect(standin.requests).toEqual([]);

    expect(aiReviewConfigured(reviewContext(standinEnv(standin)).ctx)).toBe(true);
  });

  it('needs LLM_MODEL with LLM_BASE_URL; the key is optional', () => {
    expect(() => loadConfig({ DATA_DIR, SECRET_KEY: 'a'.repeat(40), LLM_BASE_URL: standin.baseURL })).toThrow(/LLM_MODEL/);
    const config = loadConfig({ DATA_DIR, SECRET_KEY: 'a'.repeat(40), LLM_BASE_URL: `${standin.baseURL}/`, LLM_MODEL: 'm' });
    expect(config).toMatchObject({ LLM_BASE_URL: standin.baseURL, LLM_API_KEY: undefined, LLM_MAX_CELLS_PER_CHECK: 2000, LLM_BATCH_CELLS: 200, LLM_TIMEOUT_MS: 30_000 });
  });

  it('flags the planted problems on every row holding them, and nothing on the clean rows', async () => {
    const { ctx } = reviewContext(standinEnv(standin));
    const { issues, summary } = await review(ctx, COLUMNS, sheet());
    expect(issues.map(brief).sort((a, b) => a.row_number - b.row_number || a.code.localeCompare(b.code))).toEqual(PLANTED);
    for (const issue of issues) {
      expect(DataIssueSchema.parse(issue)).toEqual(issue);
      expect(issue.kind).toBe('ai');
      expect(issue.description).not.toMatch(/\{\w+\}/);
    }
    expect(issues.find((issue) => issue.row_number === 15)?.description).toBe('This looks like another spelling of "Deutsche Bank", the spelling this column uses most.');
    expect(summary).toMatchObject({ outcome: 'done', capped: false, issues: PLANTED.length, requests: 1 });
  });

  it('sends only the distinct values of the columns it chose, each once, and nothing of the other columns', async () => {
    const { ctx } = reviewContext(standinEnv(standin));
    const rows = sheet();
    await review(ctx, COLUMNS, rows);
    expect(standin.requests.length).toBeGreaterThan(0);

    const sent = standin.sentValues();
    const expected = new Set<string>();
    for (const row of rows) for (const column of Object.keys(CHOSEN)) expected.add(`${column}\u0000${row.cells[column]}`);
    const sentKeys = sent.map(([column, value]) => `${column}\u0000${value}`);
    expect(new Set(sentKeys).size).toBe(sentKeys.length); // distinct: "Paris" on 6 rows goes once
    expect(new Set(sentKeys)).toEqual(expected);
    for (const request of standin.requests) {
      expect(request.payload!.columns.map((column) => [column.name, column.kind])).toEqual(request.payload!.columns.map((column) => [column.name, CHOSEN[column.name as keyof typeof CHOSEN]]));
      // What is sent about a value: its id and the value; about a column: heading, kind, values.
      for (const column of request.payload!.columns) {
        expect(Object.keys(column).sort()).toEqual(['kind', 'name', 'values']);
        for (const value of column.values) expect(Object.keys(value).sort()).toEqual(['id', 'value']);
      }
      expect(Object.keys(request.payload!)).toEqual(['columns']);
    }
    // No value of another column reaches the provider, anywhere in any request.
    const raw = standin.requests.map((request) => request.raw).join('\n');
    for (const row of rows) {
      for (const column of ['Email', 'Password', 'Customer ID', 'IBAN', 'Amount', 'Notes']) {
        expect(raw.includes(JSON.stringify(row.cells[column]!).slice(1, -1)), `${column} of row ${row.rowNumber}`).toBe(false);
      }
    }
    for (const column of ['Email', 'Password', 'Customer ID', 'IBAN', 'Amount', 'Notes']) expect(raw).not.toContain(`"${column}"`);
  });

  it('asks in batches of LLM_BATCH_CELLS, keeping a column whole when it fits in one', async () => {
    const { ctx } = reviewContext(standinEnv(standin, { LLM_BATCH_CELLS: '8' }));
    const rows = Array.from({ length: 36 }, (_unused, i) => ({
      rowNumber: i + 2,
      cells: { City: CITIES[i % 5], Name: `${FIRST[i % 6]} Miller`, Company: `${LAST[(i % 12) % 10]} ${i % 12 < 10 ? 'Ltd' : 'GmbH'}` },
    }));
    const { summary } = await review(ctx, ['City', 'Name', 'Company'], rows);
    // City 5 values, Name 6, Company 12. Name does not fit beside City but fits a batch: it starts one.
    // Company is larger than a batch: it fills what is left, then batches of its own.
    const sizes = standin.requests.map((request) => request.payload!.columns.map((column) => [column.name, column.values.length]));
    expect(sizes).toEqual([[['City', 5]], [['Name', 6], ['Company', 2]], [['Company', 8]], [['Company', 2]]]);
    expect(summary).toMatchObject({ outcome: 'done', requests: 4, cellsSent: 23 });
    for (const request of standin.requests) {
      expect(request.body.model).toBe('standin-1');
      expect(request.body.response_format).toMatchObject({ type: 'json_schema', json_schema: { name: 'sheaf_data_review', strict: true } });
    }
  });

  it('stops at the cost cap, shared between the columns, and says so in the log', async () => {
    const { ctx, logText } = reviewContext(standinEnv(standin, { LLM_BATCH_CELLS: '5', LLM_MAX_CELLS_PER_CHECK: '12' }));
    const rows = Array.from({ length: 60 }, (_unused, i) => ({ rowNumber: i + 2, cells: { Name: `${FIRST[i % 10]} ${LAST[Math.floor(i / 10)]}`, City: CITIES[i % 3] } }));
    const { summary } = await review(ctx, ['Name', 'City'], rows);
    const perColumn = new Map<string, number>();
    for (const [column] of standin.sentValues()) perColumn.set(column, (perColumn.get(column) ?? 0) + 1);
    expect(standin.sentValues()).toHaveLength(12);
    // City has 3 values, all sent; Name the other 9 of its 60.
    expect(Object.fromEntries(perColumn)).toEqual({ Name: 9, City: 3 });
    expect(summary).toMatchObject({ outcome: 'done', capped: true, cellsSent: 12, leftOut: 51 });
    const capLine = logText().split('\n').find((line) => line.includes('cost cap'));
    expect(capLine, logText()).toBeDefined();
    expect(JSON.parse(capLine!)).toMatchObject({ level: 30, cap: 12, cells: 12, leftOut: 51 });
  });

  it('ends the AI pass on a provider error (500), keeping what was found before, without retrying and without failing the check', async () => {
    const { ctx, logText } = reviewContext(standinEnv(standin, { LLM_BATCH_CELLS: '8' }));
    // Batch 1: the 4 cities (Zürich and its other spelling) and 4 of the 15 names; batch 2 (8 names) fails; batch 3 is never asked.
    const rows = Array.from({ length: 30 }, (_unused, i) => ({ rowNumber: i + 2, cells: { City: i === 4 ? 'Zurich' : CITIES[4 + (i % 3)], Name: `${FIRST[i % 5]} ${LAST[i % 3]}` } }));
    standin.fault({ kind: 'pass' }, { kind: 'status', status: 500 });
    const { issues, summary } = await review(ctx, ['City', 'Name'], rows);
    expect(standin.requests.map((request) => request.status)).toEqual([200, 500]);
    expect(issues.map(brief)).toEqual([{ row_number: 6, column_name: 'City', code: 'check/ai-spelling', actual_value: 'Zurich', expected_value: 'Zürich' }]);
    expect(summary).toMatchObject({ outcome: 'provider-failed', requests: 2, cellsSent: 16, issues: 1 });
    const line = logText().split('\n').find((entry) => entry.includes('the AI provider failed'));
    expect(JSON.parse(line!)).toMatchObject({ level: 40, status: 500, batch: 2, errorType: 'InternalServerError' });
  });

  it('ends the AI pass when the provider does not answer within LLM_TIMEOUT_MS, with one request only', async () => {
    const { ctx, logText } = reviewContext(standinEnv(standin, { LLM_TIMEOUT_MS: '300' }));
    standin.fault({ kind: 'hang' });
    const started = Date.now();
    const { issues, summary } = await review(ctx, COLUMNS, sheet());
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(issues).toEqual([]);
    expect(standin.requests).toHaveLength(1);
    expect(summary).toMatchObject({ outcome: 'timeout', requests: 1 });
    const line = logText().split('\n').find((entry) => entry.includes('did not answer in time'));
    expect(JSON.parse(line!)).toMatchObject({ level: 40, timeoutMs: 300 });
  });

  it('stops with the abort signal, the request in flight included', async () => {
    const { ctx, logText } = reviewContext(standinEnv(standin, { LLM_BATCH_CELLS: '10' }));
    standin.fault({ kind: 'hang' });
    const controller = new AbortController();
    const arrived = standin.nextRequest();
    const done = review(ctx, COLUMNS, sheet(), controller.signal);
    await arrived;
    const aborted = Date.now();
    controller.abort();
    const { issues, summary } = await done;
    expect(Date.now() - aborted).toBeLessThan(2_000);
    expect(issues).toEqual([]);
    expect(standin.requests).toHaveLength(1);
    expect(summary).toMatchObject({ outcome: 'aborted', requests: 1 });
    expect(logText()).not.toMatch(/"level":(40|50)/);
  });

  it('sends the key as the Authorization bearer and never writes it to the log, even when the provider echoes it', async () => {
    const { ctx, logText } = reviewContext(standinEnv(standin, { LLM_BATCH_CELLS: '10' }));
    standin.fault({ kind: 'content', content: 'not json' }, { kind: 'status', status: 500 });
    await review(ctx, COLUMNS, sheet());
    expect(standin.requests.map((request) => request.authorization)).toEqual([`Bearer ${API_KEY}`, `Bearer ${API_KEY}`]);
    // The 500's body named the bearer; a wrong key's 401 names the key presented.
    const wrong = reviewContext(standinEnv(standin, { LLM_API_KEY: `${API_KEY}-wrong` }));
    const { summary } = await review(wrong.ctx, COLUMNS, sheet());
    expect(summary).toMatchObject({ outcome: 'provider-failed' });
    expect(standin.requests.at(-1)?.status).toBe(401);
    const log = logText() + wrong.logText();
    expect(log).toContain('the AI provider failed');
    expect(log).toContain('"status":401');
    expect(log).not.toContain(API_KEY);
    expect(log).not.toContain(API_KEY.slice(-12));
  });

  it('sends no Authorization header without LLM_API_KEY', async () => {
    const open = await startOpenAiStandin();
    try {
      const { ctx } = reviewContext({ LLM_BASE_URL: open.baseURL, LLM_MODEL: 'local' });
      const { issues } = await review(ctx, COLUMNS, sheet());
      expect(open.requests).toHaveLength(1);
      expect(open.requests[0].authorization).toBeUndefined();
      expect(open.requests[0].headers['x-stainless-os']).toBeUndefined();
      expect(issues.map(brief).sort((a, b) => a.row_number - b.row_number || a.code.localeCompare(b.code))).toEqual(PLANTED);
    } finally {
      await open.close();
    }
  });

  it('drops an answer that is not JSON and the malformed entries of another, keeping the rest', async () => {
    const { ctx, logText } = reviewContext(standinEnv(standin));
    const rows = [
      { rowNumber: 2, cells: { City: 'Paris', Name: 'John Miller' } },
      { rowNumber: 3, cells: { City: 'Berlin', Name: 'Maria Garcia' } },
      { rowNumber: 4, cells: { City: 'Peter Weber', Name: 'Lyon' } },
      { rowNumber: 5, cells: { City: 'Berlin', Name: 'Maria Garcia' } },
    ];
    // Ids in the one batch: City values sorted (Berlin 0, Paris 1, Peter Weber 2), then Name (John Miller 3, Lyon 4, Maria Garcia 5).
    standin.fault({ kind: 'content', content: 'Sure! Here are the problems I found: ...' });
    const first = await review(ctx, ['City', 'Name'], rows);
    expect(first.issues).toEqual([]);
    expect(first.summary).toMatchObject({ outcome: 'done', unusableAnswers: 1 });
    expect(logText()).toContain('not the JSON asked for');

    standin.fault({
      kind: 'content',
      content: '```json\n' + JSON.stringify({
        misplaced: [
          { id: 2, looks_like: 'person' }, // kept
          { id: 99, looks_like: 'person' }, // no such value
          { id: 4, looks_like: 'alien' }, // no such kind
          { id: '3', looks_like: 'place' }, // not a number
          { id: 3, looks_like: 'person' }, // the column's own kind: no finding
        ],
        variants: [{ ids: [0] }, { ids: [0, 3] }, { ids: [0, 42] }, 'x'], // too few, two columns, unknown id, not an object
      }) + '\n```',
    });
    const second = await review(ctx, ['City', 'Name'], rows);
    expect(second.issues.map(brief)).toEqual([{ row_number: 4, column_name: 'City', code: 'check/ai-looks-like-person', actual_value: 'Peter Weber', expected_value: '' }]);
  });
});
