/**
 * `npx tsx data-check.ts [--rows 100000] [--columns 20] [--runs 3]`: the data check
 * (docs/data-check.md) through the HTTP API of a real `sheaf serve` (the compiled command, embedded
 * PGlite and local files), as the wizard's step 3 calls it right after the upload.
 *
 * The sheet: `--rows` rows x `--columns` columns (names, addresses, amounts, dates, cities, codes,
 * notes, yes/no, numbers), with a planted problem every 97th row, cycling through the rules' kinds
 * (missing values, stray spaces and invisible characters, impossible dates, numbers with letters,
 * invalid and mistyped addresses, duplicates, unreadable numbers, type outliers, text too long for
 * its box). The template: 6 placeholders, the file name and the email's tags.
 *
 * Measured per check, from the request to: the first complete issue line, and the end of the answer;
 * the lines received, the chunks they came in, and the server's resident memory (its process tree)
 * before the check and at its peak during it. Checks of the first 10%, 50% and all rows show whether
 * memory grows with the rows checked. Targets (issue #15): first issue within 300 ms, the whole
 * check within 3 s for 100,000 x 20, memory flat. Nothing is asserted; results go to
 * bench/results-data-check.json and a markdown table on stdout.
 *
 * Cold: the same check after a restart of the server (the parsed sheet no longer in memory), so its
 * rows are streamed from the rows file stored at upload; and, for comparison, after a restart with
 * the rows files removed, so the check parses the whole stored sheet first (as every cold check did
 * before rows files). After each restart a check of a small second sheet loads the engine first, so
 * the figures are the sheet's, not the process's start; a second check in the same process (still
 * streamed: a streamed check does not keep the parsed sheet) tells the young process's warm-up from
 * the streaming itself.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os, { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { BENCH_DIR } from './fixtures.ts';
import { processTreeRss } from './process-rss.ts';
import { ROOT, api, freePort, startSheaf, stopAll, upload, waitUntilAnswering } from './service-support.ts';

const { values } = parseArgs({
  options: {
    rows: { type: 'string', default: '100000' },
    columns: { type: 'string', default: '20' },
    runs: { type: 'string', default: '3' },
  },
});
const ROWS = Number(values.rows);
const COLUMNS = Math.max(10, Number(values.columns));
const RUNS = Number(values.runs);
const PASSWORD = 'Bench-passw0rd!-check';

const BASE = ['Name', 'Email', 'Amount', 'Due', 'City', 'Code', 'Note', 'Active', 'Score', 'Ref'];
const HEADERS = [...BASE, ...Array.from({ length: COLUMNS - BASE.length }, (_, i) => `Extra${i + 1}`)];
const CITIES = ['Berlin', 'Paris', 'Madrid', 'Lisbon', 'Vienna', 'Prague', 'Oslo', 'Dublin'];

/** Row n (0-based) as cells, planted problems included; `planted` counts them by kind. */
function row(n: number, planted: Map<string, number>): string[] {
  const day = String((n % 28) + 1).padStart(2, '0');
  const cells = [
    `Person ${n}`, `person${n}@example.com`, `${(n * 37) % 10000}.${String(n % 100).padStart(2, '0')}`, `2024-${String((n % 12) + 1).padStart(2, '0')}-${day}`,
    CITIES[n % CITIES.length]!, `C-${n}`, `Note for row ${n}`, n % 2 ? 'yes' : 'no', String(n * 3), `REF${n}`,
    ...Array.from({ length: COLUMNS - BASE.length }, (_, i) => (i % 2 ? String(n + i) : `value ${i} ${n % 50}`)),
  ];
  if (n % 97 === 47) {
    const kinds: Array<[string, number, string]> = [
      ['missing', 0, ''], ['spaces', 4, ` ${cells[4]} `], ['invisible', 9, `REF\u200b${n}`], ['impossible date', 3, '2023-02-30'],
      ['number with letters', 2, '12O5'], ['invalid address', 1, `person${n}@example.con`], ['mistyped provider', 1, `person${n}@gmial.com`],
      ['duplicate', 1, 'person0@example.com'], ['unreadable number', 2, 'ask Bob'], ['outlier', 7, 'maybe'],
      ['too long for its box', 6, Array.from({ length: 120 }, () => 'word').join(' ')],
    ];
    const [kind, column, value] = kinds[Math.floor(n / 97) % kinds.length]!;
    cells[column] = value;
    planted.set(kind, (planted.get(kind) ?? 0) + 1);
  }
  return cells;
}

function sheet(): { csv: Buffer; planted: Map<string, number> } {
  const planted = new Map<string, number>();
  const quote = (value: string) => (/[",\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value);
  const lines = [HEADERS.join(',')];
  for (let n = 0; n < ROWS; n++) lines.push(row(n, planted).map(quote).join(','));
  return { csv: Buffer.from(`${lines.join('\n')}\n`), planted };
}

const placeholder = (column: string, relativeY: number, extra: Record<string, unknown> = {}) => ({
  id: `p-${column}`, column, type: 'text', typeSettings: {}, pageNumber: 1, relativeX: 0.1, relativeY, relativeWidth: 0.5, relativeHeight: 0.03,
  relativeFontSize: 0.014, fontFamily: 'Helvetica', align: 'left', fontStyle: 'normal', textDecoration: 'none', fill: '#000000', ...extra,
});

interface Measured {
  rows: number;
  /**
   * warm: the sheet parsed in memory; cold: the first check after a restart, rows streamed from the rows
   * file; stored: the next check in that process (still streamed: a streamed check does not keep the
   * sheet), to tell the process's own warm-up from the streaming; cold-parse: after a restart without rows files.
   */
  case?: 'warm' | 'cold' | 'stored' | 'cold-parse';
  firstIssueMs: number;
  totalSeconds: number;
  lines: number;
  chunks: number;
  rssBeforeMb: number;
  rssPeakMb: number;
}

/** One check over HTTP, timed from the request to the first line and to the end; the server's RSS sampled meanwhile. */
async function measure(url: string, token: string, templateId: string, rows: number, pid: number): Promise<Measured> {
  const rssBefore = processTreeRss(pid);
  let rssPeak = rssBefore;
  const sampler = setInterval(() => { rssPeak = Math.max(rssPeak, processTreeRss(pid)); }, 20);
  try {
    const started = performance.now();
    const response = await fetch(`${url}/v1/templates/${templateId}/verifyExcelData/stream`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ rowsData: { startRow: 2, endRow: rows + 1 }, fileNamePattern: '{{Name}}', email: { isActive: true } }),
    });
    if (response.status !== 200) throw new Error(`check answered ${response.status}: ${await response.text()}`);
    const reader = response.body!.getReader();
    let firstIssueMs = NaN;
    let lines = 0;
    let chunks = 0;
    for (let read = await reader.read(); !read.done; read = await reader.read()) {
      chunks++;
      for (const byte of read.value) if (byte === 10) lines++;
      if (Number.isNaN(firstIssueMs) && lines > 0) firstIssueMs = performance.now() - started;
    }
    const totalSeconds = (performance.now() - started) / 1000;
    rssPeak = Math.max(rssPeak, processTreeRss(pid));
    return { rows, firstIssueMs, totalSeconds, lines, chunks, rssBeforeMb: rssBefore / 1048576, rssPeakMb: rssPeak / 1048576 };
  } finally {
    clearInterval(sampler);
  }
}

const median = (numbers: number[]) => [...numbers].sort((a, b) => a - b)[Math.floor(numbers.length / 2)]!;

async function main(): Promise<void> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'sheaf-check-'));
  const port = await freePort();
  const env = {
    DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', PUBLIC_URL: `http://127.0.0.1:${port}`, MIN_RESPONSE_MS: '0', LOG_LEVEL: 'error',
    INBOUND_SMTP_PORT: 'off', SECRET_KEY: randomBytes(32).toString('base64url'),
  };
  let server = startSheaf('serve', ['serve'], env);
  try {
    const url = `http://127.0.0.1:${port}`;
    await waitUntilAnswering(url, server);
    const email = `check-${randomBytes(3).toString('hex')}@example.com`;
    const { token } = await api(url, 'POST', '/users/register', undefined, { firstName: 'Data', lastName: 'Check', email, password: PASSWORD, confirmPassword: PASSWORD });
    const template = await readFile(path.join(ROOT, 'fixtures/generated/corpus/classic-xref.pdf'));
    const { id: templateId } = await api(url, 'POST', '/templates', token, upload('Letter.pdf', template, 'application/pdf'));
    await api(url, 'PATCH', `/templates/${templateId}/placeholders`, token, {
      placeholders: [
        placeholder('Name', 0.1), placeholder('Amount', 0.15, { type: 'number' }), placeholder('Due', 0.2, { type: 'date' }),
        placeholder('City', 0.25), placeholder('Code', 0.3), placeholder('Note', 0.35, { relativeHeight: 0.05 }),
      ],
    });
    const { csv, planted } = sheet();
    const uploadStarted = performance.now();
    await api(url, 'POST', `/templates/${templateId}/excel`, token, upload('rows.csv', csv, 'text/csv'));
    const uploadSeconds = (performance.now() - uploadStarted) / 1000;
    await api(url, 'PATCH', `/templates/${templateId}/email`, token, { isActive: true, subject: 'For {{Name}}', content: '<p>Dear {{Name}} of {{City}}</p>', recipientsColumn: 'Email' });

    // A small second sheet: after a restart, its check loads the engine before the measured one.
    const { id: smallId } = await api(url, 'POST', '/templates', token, upload('Small.pdf', template, 'application/pdf'));
    await api(url, 'PATCH', `/templates/${smallId}/placeholders`, token, { placeholders: [placeholder('Name', 0.1)] });
    await api(url, 'POST', `/templates/${smallId}/excel`, token, upload('small.csv', Buffer.from(`Name\n${Array.from({ length: 1_000 }, (_, n) => `Person ${n}`).join('\n')}\n`), 'text/csv'));

    let pid = server.child.pid!;
    // One check of a few rows first: the engine module and its tables load once per process.
    const warmUp = await measure(url, token, templateId, 1_000, pid);
    const runs: Measured[] = [];
    for (const rows of [Math.round(ROWS / 10), Math.round(ROWS / 2)]) runs.push(await measure(url, token, templateId, rows, pid));
    const full: Measured[] = [];
    for (let i = 0; i < RUNS; i++) full.push({ ...(await measure(url, token, templateId, ROWS, pid)), case: 'warm' });

    /** Restarts the server (same data), optionally without the rows files, and loads the engine on the small sheet. */
    const restart = async (withoutRowsFiles: boolean) => {
      await stopAll([server]);
      if (withoutRowsFiles) await rm(path.join(dataDir, 'files/templates', templateId, 'sheet-rows'), { recursive: true, force: true });
      server = startSheaf('serve', ['serve'], env);
      await waitUntilAnswering(url, server);
      pid = server.child.pid!;
      await measure(url, token, smallId, 1_000, pid);
    };
    // A tenth of the rows first, to see whether memory follows the rows checked.
    await restart(false);
    const coldTenth: Measured = { ...(await measure(url, token, templateId, Math.round(ROWS / 10), pid)), case: 'cold' };
    const cold: Measured[] = [];
    const stored: Measured[] = [];
    for (let i = 0; i < RUNS; i++) {
      await restart(false);
      cold.push({ ...(await measure(url, token, templateId, ROWS, pid)), case: 'cold' });
      stored.push({ ...(await measure(url, token, templateId, ROWS, pid)), case: 'stored' });
    }
    const coldParse: Measured[] = [];
    for (let i = 0; i < Math.min(RUNS, 2); i++) {
      await restart(true);
      coldParse.push({ ...(await measure(url, token, templateId, ROWS, pid)), case: 'cold-parse' });
    }

    const summary = {
      generatedAt: new Date().toISOString(),
      machine: { cpus: os.cpus().length, cpuModel: os.cpus()[0]?.model ?? 'unknown', node: process.version, loadAverage: os.loadavg() },
      sheet: { rows: ROWS, columns: COLUMNS, csvMb: csv.length / 1048576, uploadSeconds, planted: Object.fromEntries(planted) },
      warmUp,
      runs: [...runs, ...full, coldTenth, ...cold, ...stored, ...coldParse],
      full: {
        firstIssueMs: median(full.map((run) => run.firstIssueMs)),
        totalSeconds: median(full.map((run) => run.totalSeconds)),
        lines: full[0]!.lines,
        rssPeakMb: Math.max(...full.map((run) => run.rssPeakMb)),
      },
      cold: {
        firstIssueMs: median(cold.map((run) => run.firstIssueMs)),
        totalSeconds: median(cold.map((run) => run.totalSeconds)),
        rssRiseMb: median(cold.map((run) => run.rssPeakMb - run.rssBeforeMb)),
      },
      stored: {
        firstIssueMs: median(stored.map((run) => run.firstIssueMs)),
        totalSeconds: median(stored.map((run) => run.totalSeconds)),
        rssRiseMb: median(stored.map((run) => run.rssPeakMb - run.rssBeforeMb)),
      },
      coldParse: {
        firstIssueMs: median(coldParse.map((run) => run.firstIssueMs)),
        totalSeconds: median(coldParse.map((run) => run.totalSeconds)),
        rssRiseMb: median(coldParse.map((run) => run.rssPeakMb - run.rssBeforeMb)),
      },
      targets: { firstIssueMs: 300, totalSeconds: 3 },
    };
    await writeFile(path.join(BENCH_DIR, 'results-data-check.json'), `${JSON.stringify(summary, null, 2)}\n`);

    const load = os.loadavg().map((n) => n.toFixed(1)).join(' ');
    console.log(`\nData check of ${ROWS.toLocaleString('en-US')} rows x ${COLUMNS} columns (${(csv.length / 1048576).toFixed(1)} MB CSV, ${[...planted.values()].reduce((a, b) => a + b, 0)} planted problems) through the API of \`sheaf serve\` (PGlite); load average at the end ${load}\n`);
    console.log('| case | rows checked | first issue (ms) | whole check (s) | rows/s | lines | chunks | RSS before (MB) | RSS peak (MB) | rise (MB) |');
    console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
    for (const run of [warmUp, ...runs, ...full, coldTenth, ...cold, ...stored, ...coldParse]) {
      console.log(`| ${run.case ?? 'warm'} | ${run.rows.toLocaleString('en-US')} | ${run.firstIssueMs.toFixed(0)} | ${run.totalSeconds.toFixed(2)} | ${Math.round(run.rows / run.totalSeconds).toLocaleString('en-US')} | ${run.lines} | ${run.chunks} | ${run.rssBeforeMb.toFixed(0)} | ${run.rssPeakMb.toFixed(0)} | ${(run.rssPeakMb - run.rssBeforeMb).toFixed(0)} |`);
    }
    console.log(`\nMedian of ${RUNS} full checks: first issue ${summary.full.firstIssueMs.toFixed(0)} ms (target 300), whole ${summary.full.totalSeconds.toFixed(2)} s (target 3); the first row of the table is a warm-up (1,000 rows). Upload and parse of the sheet (not part of the check): ${uploadSeconds.toFixed(1)} s.`);
    console.log(`Cold (after a restart; rows streamed from the rows file), median of ${RUNS}: first issue ${summary.cold.firstIssueMs.toFixed(0)} ms, whole ${summary.cold.totalSeconds.toFixed(2)} s, RSS rise ${summary.cold.rssRiseMb.toFixed(0)} MB; the next check in that process (streamed too): first issue ${summary.stored.firstIssueMs.toFixed(0)} ms, whole ${summary.stored.totalSeconds.toFixed(2)} s. Without rows files (the sheet parsed first): first issue ${summary.coldParse.firstIssueMs.toFixed(0)} ms, whole ${summary.coldParse.totalSeconds.toFixed(2)} s, RSS rise ${summary.coldParse.rssRiseMb.toFixed(0)} MB.`);
  } finally {
    await stopAll([server]);
    await rm(dataDir, { recursive: true, force: true });
  }
}

await main();
