/** Helpers of the merge tests: a template with placeholders and a spreadsheet, merges polled to an end. */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, vi } from 'vitest';
import type { Merge, MergeRequest, Placeholder } from '@sheaf/shared';
import { newId } from '../src/ids.ts';
import type { TestServer } from './harness.ts';

export type { TestServer };
/** What the read-side helpers need of a server (a TestServer, or a server restarted on the same data). */
export type MergeServer = Pick<TestServer, 'inject' | 'ctx' | 'url'>;

const root = path.resolve(import.meta.dirname, '../../..');
/** A one-page template of the generated corpus. */
export const TEMPLATE_PDF = readFileSync(path.join(root, 'fixtures/generated/corpus/classic-xref.pdf'));

export function textPlaceholder(id: string, column: string, relativeY: number): Placeholder {
  return {
    id, column, type: 'text', typeSettings: {}, pageNumber: 1,
    relativeX: 0.1, relativeY, relativeWidth: 0.6, relativeHeight: 0.05, relativeFontSize: 0.02,
    fontFamily: 'Helvetica', align: 'left', fontStyle: 'normal', textDecoration: 'none', fill: '#000000',
  };
}

export const NAME_PLACEHOLDERS = [textPlaceholder('first', 'First', 0.2), textPlaceholder('last', 'Last', 0.3)];

/** A CSV of `count` people: First = Given<n>, Last = Family<n> (n from 1). */
export function peopleCsv(count: number): string {
  const lines = ['First,Last,Code'];
  for (let n = 1; n <= count; n++) lines.push(`Given${n},Family${n},C${n}`);
  return `${lines.join('\n')}\n`;
}

/** Uploads the template, saves the placeholders and attaches the CSV, all through the API. */
export async function templateWithSheet(server: TestServer, token: string, csv: string, placeholders: Placeholder[] = NAME_PLACEHOLDERS, name = 'Letter.pdf'): Promise<string> {
  const upload = await server.inject('POST', '/templates', { token, file: { name, bytes: TEMPLATE_PDF, type: 'application/pdf' } });
  expect(upload.status, JSON.stringify(upload.json)).toBe(201);
  const templateId = (upload.json as { id: string }).id;
  const saved = await server.inject('PATCH', `/templates/${templateId}/placeholders`, { token, body: { placeholders } });
  expect(saved.status, JSON.stringify(saved.json)).toBe(200);
  const sheet = await server.inject('POST', `/templates/${templateId}/excel`, { token, file: { name: 'people.csv', bytes: Buffer.from(csv), type: 'text/csv' } });
  expect(sheet.status, JSON.stringify(sheet.json)).toBe(201);
  return templateId;
}

/** Uploads a template file as it is (a Word document, say) and then its sheet; the template's id. */
export async function fileWithSheet(server: TestServer, token: string, file: { name: string; bytes: Uint8Array; type: string }, csv: string): Promise<string> {
  const upload = await server.inject('POST', '/templates', { token, file: { ...file, bytes: Buffer.from(file.bytes) } });
  expect(upload.status, JSON.stringify(upload.json)).toBe(201);
  const templateId = (upload.json as { id: string }).id;
  const sheet = await server.inject('POST', `/templates/${templateId}/excel`, { token, file: { name: 'people.csv', bytes: Buffer.from(csv), type: 'text/csv' } });
  expect(sheet.status, JSON.stringify(sheet.json)).toBe(201);
  return templateId;
}

export function mergeRequest(overrides: Partial<MergeRequest> = {}): MergeRequest {
  return {
    mergeId: newId(),
    isCombinedOutput: false,
    isKeepFormOutput: true,
    isOnlyPlaceholdersOutput: false,
    isTryRepair: false,
    isCompressedOutput: true,
    rowsData: { startRow: 2, endRow: 1_000_000 },
    ...overrides,
  };
}

export async function startMerge(server: TestServer, token: string, templateId: string, request: MergeRequest) {
  return server.inject('POST', `/templates/${templateId}/merge`, { token, body: request });
}

export async function getMerge(server: MergeServer, token: string, templateId: string, mergeId: string): Promise<Merge> {
  const response = await server.inject('GET', `/templates/${templateId}/merges/${mergeId}`, { token });
  expect(response.status).toBe(200);
  return response.json as Merge;
}

/** Polls the merge until `until` says so (default: it has ended). */
export async function waitForMerge(server: MergeServer, token: string, templateId: string, mergeId: string, until: (merge: Merge) => boolean = ended, timeout = 60_000): Promise<Merge> {
  return vi.waitFor(async () => {
    const merge = await getMerge(server, token, templateId, mergeId);
    if (!until(merge)) throw new Error(`merge is ${merge.status} (${merge.done}/${merge.total})`);
    return merge;
  }, { timeout, interval: 50 });
}

export const ended = (merge: Merge) => !['queued', 'generating'].includes(merge.status);

/** Downloads a link over real HTTP, with no bearer token (as an <a download> does). */
export async function download(server: MergeServer, url: string): Promise<{ status: number; bytes: Buffer; headers: Headers }> {
  const response = await fetch(new URL(url, server.url));
  return { status: response.status, bytes: Buffer.from(await response.arrayBuffer()), headers: response.headers };
}

export async function counterOf(server: MergeServer, uid: string): Promise<number> {
  const [row] = await server.ctx.db.query<{ counter: number }>('SELECT counter FROM users WHERE id = $1', [uid]);
  return row!.counter;
}

export async function setPlan(server: MergeServer, uid: string, plan: string, counter = 0): Promise<void> {
  await server.ctx.db.query('UPDATE users SET billing_plan = $2, counter = $3 WHERE id = $1', [uid, plan, counter]);
}

/** Works on files in a fresh temporary folder, removed afterwards. */
export function inTempDir<T>(work: (dir: string) => T): T {
  const dir = mkdtempSync(path.join(tmpdir(), 'sheaf-merge-test-'));
  try {
    return work(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The PDFs of a ZIP: names, sizes and their text (poppler's pdftotext), checked with unzip and qpdf. */
export function pdfsInZip(zip: Buffer): { name: string; size: number; text: string }[] {
  return inTempDir((dir) => {
    const zipFile = path.join(dir, 'out.zip');
    writeFileSync(zipFile, zip);
    const listing = execFileSync('unzip', ['-Z1', zipFile], { encoding: 'utf8' }).split('\n').filter(Boolean);
    execFileSync('unzip', ['-q', zipFile, '-d', path.join(dir, 'files')]);
    const names = readdirSync(path.join(dir, 'files')).sort();
    expect(names).toEqual([...listing].sort());
    return listing.map((name) => {
      const file = path.join(dir, 'files', name);
      execFileSync('qpdf', ['--check', file]);
      return { name, size: statSync(file).size, text: execFileSync('pdftotext', [file, '-'], { encoding: 'utf8' }) };
    });
  });
}

/** Page count (pdfinfo), text, and each page's text in content order (diagonal text comes letter by letter). */
export function pdfFacts(pdf: Buffer): { pages: number; text: string; rawPages: string[] } {
  return inTempDir((dir) => {
    const file = path.join(dir, 'out.pdf');
    writeFileSync(file, pdf);
    execFileSync('qpdf', ['--check', file]);
    const info = execFileSync('pdfinfo', [file], { encoding: 'utf8' });
    const pages = Number(/Pages:\s+(\d+)/.exec(info)![1]);
    const raw = execFileSync('pdftotext', ['-raw', file, '-'], { encoding: 'utf8' });
    return { pages, text: execFileSync('pdftotext', [file, '-'], { encoding: 'utf8' }), rawPages: raw.split('\f').slice(0, pages) };
  });
}

export function templatePages(): number {
  return pdfFacts(TEMPLATE_PDF).pages;
}
