/* eslint-disable no-restricted-imports -- test-only helper (never imported by the engine): writes outputs to disk and checks them with qpdf and poppler. */
/**
 * Helpers for the merge engine's end-to-end tests: fixtures, running a merge, and independent views of
 * its outputs (qpdf's structure check and JSON, poppler's text, word boxes and page info). Pixels,
 * QR codes and test images live in test-pixels.ts, re-exported here.
 */
import { withoutBidiMarks, type WordBox } from '../text/test-support.ts';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PDFDocument, StandardFonts, degrees } from 'pdf-lib';
import { expect } from 'vitest';
import { PlaceholderSchema, isSheafError, type ErrorCode, type Placeholder, type PlaceholderInput } from '@sheaf/shared';
import { loadBundledFallbackFonts } from '../node/fonts.ts';
import { sheetFromTable } from '../sheet/table.ts';
import { prepareMerge, type PreparedMerge } from './index.ts';
import type { MergeInput } from './types.ts';

const FIXTURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../fixtures/generated');

export function fixture(name: string): Uint8Array {
  return new Uint8Array(readFileSync(path.join(FIXTURES, name)));
}

export interface BlankPage {
  size?: [number, number];
  rotation?: number;
  /** Printed at the top left, so the page has text of its own. */
  label?: string;
}

/** A template made in the test: plain pages (A4 unless told), optionally rotated and labelled. */
export async function blankTemplate(pages: BlankPage[] = [{}]): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (const spec of pages) {
    const page = doc.addPage(spec.size ?? [595, 842]);
    if (spec.label) page.drawText(spec.label, { x: 30, y: page.getHeight() - 40, size: 14, font });
    if (spec.rotation) page.setRotation(degrees(spec.rotation));
  }
  return doc.save({ useObjectStreams: false });
}

export interface CorpusEntry {
  file: string;
  pages: number;
  features: string[];
  damaged: boolean;
  expect: 'ok' | 'repair' | 'refuse';
  text: string[];
  error?: ErrorCode;
}

export function corpus(): CorpusEntry[] {
  return JSON.parse(readFileSync(path.join(FIXTURES, 'corpus.json'), 'utf8')) as CorpusEntry[];
}

/** A placeholder with a default box; coordinates are fractions of the page as displayed, origin top-left. */
export function placeholder(input: Partial<PlaceholderInput> & Pick<PlaceholderInput, 'column'>): Placeholder {
  return PlaceholderSchema.parse({
    id: input.column,
    pageNumber: 1,
    relativeX: 0.1,
    relativeY: 0.3,
    relativeWidth: 0.6,
    relativeHeight: 0.05,
    relativeFontSize: 0.02,
    ...input,
  });
}

export const table = sheetFromTable;

export type MergeRequest = Omit<MergeInput, 'fallbackFonts'>;

export async function prepare(request: MergeRequest): Promise<PreparedMerge> {
  return prepareMerge({ ...request, fallbackFonts: await loadBundledFallbackFonts() });
}

export interface WrittenDocument {
  fileName: string;
  rowNumbers: number[];
  chunks: Uint8Array[];
  sharedPrefixChunks: number;
  bytes: Uint8Array;
  /** Where the bytes were written for the command-line tools. */
  file: string;
}

/** A scratch folder per test file: `write` puts bytes in it, `remove` in afterAll. */
export function scratch(prefix: string): { dir: string; write: (name: string, bytes: Uint8Array) => string; remove: () => void } {
  const dir = mkdtempSync(path.join(tmpdir(), `sheaf-merge-${prefix}-`));
  let counter = 0;
  return {
    dir,
    write(name, bytes) {
      const file = path.join(dir, `${++counter}-${name.replace(/[^\w.-]/g, '_')}`);
      writeFileSync(file, bytes);
      return file;
    },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

export function concat(chunks: readonly Uint8Array[]): Uint8Array {
  return new Uint8Array(Buffer.concat(chunks));
}

/** Runs a separate-documents merge and writes every document out. */
export async function mergeSeparate(
  folder: ReturnType<typeof scratch>,
  request: MergeRequest,
): Promise<{ merge: PreparedMerge; documents: WrittenDocument[] }> {
  const merge = await prepare(request);
  const documents: WrittenDocument[] = [];
  for (const document of merge.documents()) {
    const bytes = concat(document.chunks);
    expect(bytes.length).toBe(document.byteLength);
    documents.push({ ...document, bytes, file: folder.write(document.fileName, bytes) });
  }
  return { merge, documents };
}

/** Runs a combined merge and writes the one document out. */
export async function mergeCombined(
  folder: ReturnType<typeof scratch>,
  request: MergeRequest,
): Promise<{ merge: PreparedMerge; bytes: Uint8Array; file: string }> {
  const merge = await prepare({ ...request, options: { ...request.options, isCombinedOutput: true } });
  const bytes = concat([...merge.combined()]);
  return { merge, bytes, file: folder.write('combined.pdf', bytes) };
}

/** Expects the promise (or function) to fail with a catalogue error of this code. */
export async function expectSheafError(action: Promise<unknown> | (() => unknown), code: ErrorCode): Promise<void> {
  let caught: unknown;
  try {
    await (typeof action === 'function' ? action() : action);
  } catch (error) {
    caught = error;
  }
  expect(caught, `expected SheafError ${code}`).toBeDefined();
  expect(isSheafError(caught) ? caught.code : String(caught)).toBe(code);
}

// ---------------------------------------------------------------------------------------------
// Independent tools

export interface ToolResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

export function run(command: string, args: readonly string[]): ToolResult {
  const result = spawnSync(command, args, { encoding: 'utf8', timeout: 60_000, maxBuffer: 64 * 1024 * 1024 });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

function passwordArgs(password: string | undefined): string[] {
  return password === undefined ? [] : [`--password=${password}`];
}

/** `qpdf --check`; exit 0 means no errors and no warnings. */
export function qpdfCheck(file: string, password?: string): ToolResult {
  return run('qpdf', ['--check', ...passwordArgs(password), file]);
}

export function expectQpdfClean(file: string, password?: string): void {
  const result = qpdfCheck(file, password);
  expect(result.status, `${file}: ${result.stdout}${result.stderr}`).toBe(0);
}

/** qpdf's JSON view of one top-level key (acroform, pages, qpdf, ...). */
export function qpdfJson(file: string, key: string, extra: string[] = []): Record<string, unknown> {
  const result = run('qpdf', ['--json', `--json-key=${key}`, ...extra, file]);
  if (result.status !== 0 && result.status !== 3) throw new Error(`qpdf --json: ${result.stderr}`);
  return JSON.parse(result.stdout) as Record<string, unknown>;
}

export interface FormFieldJson {
  fullname: string;
  fieldtype: string;
  value: unknown;
  pageposfrom1: number;
  object: string;
  ischeckbox: boolean;
  annotation: { appearancestate: string; object: string };
}

export function formFields(file: string, password?: string): FormFieldJson[] {
  const json = qpdfJson(file, 'acroform', passwordArgs(password)) as { acroform: { fields: FormFieldJson[] } };
  return json.acroform.fields;
}

/** One object's value as qpdf decodes it, e.g. objectValue(file, '22 0 R'). */
export function objectValue(file: string, ref: string): Record<string, unknown> {
  const number = ref.split(' ')[0]!;
  const json = qpdfJson(file, 'qpdf', [`--json-object=${number}`]) as { qpdf: [unknown, Record<string, { value: Record<string, unknown> }>] };
  return json.qpdf[1][`obj:${ref}`]!.value;
}

/** Every object of the file by reference ("12 0 R"), as qpdf decodes them. */
export function allObjects(file: string): Map<string, Record<string, unknown>> {
  const json = qpdfJson(file, 'qpdf') as { qpdf: [unknown, Record<string, { value?: unknown; stream?: { dict: unknown } }>] };
  const objects = new Map<string, Record<string, unknown>>();
  for (const [key, entry] of Object.entries(json.qpdf[1])) {
    const value = entry.value ?? entry.stream?.dict;
    if (key.startsWith('obj:') && value && typeof value === 'object') objects.set(key.slice(4), value as Record<string, unknown>);
  }
  return objects;
}

/** Per page (in order), the /Subtype of each annotation, e.g. [['/Link', '/Text'], []]. */
export function pageAnnotations(file: string): string[][] {
  const objects = allObjects(file);
  const pages = (qpdfJson(file, 'pages') as { pages: Array<{ object: string }> }).pages;
  return pages.map((page) => {
    const annots = objects.get(page.object)?.['/Annots'];
    const list = typeof annots === 'string' ? objects.get(annots) : annots;
    return Array.isArray(list) ? list.map((ref) => String(objects.get(String(ref))?.['/Subtype'])) : [];
  });
}

/** pdftotext's text (layout order), failing on poppler errors. */
export function pdfText(file: string, options: { first?: number; last?: number; password?: string; raw?: boolean } = {}): string {
  const args = [
    // Content-stream order: keeps rotated text (a diagonal watermark) in one piece.
    ...(options.raw ? ['-raw'] : []),
    ...(options.first ? ['-f', String(options.first)] : []),
    ...(options.last ? ['-l', String(options.last)] : []),
    ...(options.password !== undefined ? ['-upw', options.password] : []),
  ];
  const result = run('pdftotext', [...args, file, '-']);
  if (result.status !== 0) throw new Error(`pdftotext exit ${result.status}: ${result.stderr}`);
  return result.stdout;
}

/** The text of each page, split at form feeds. */
export function pageTexts(file: string, options: { raw?: boolean } = {}): string[] {
  return pdfText(file, options).split('\f').slice(0, -1);
}

export interface FontJson {
  name: string;
  type: string;
  embedded: boolean;
  subset: boolean;
}

/** The fonts `pdffonts` lists (name, type, embedded, subset). */
export function pdfFonts(file: string): FontJson[] {
  const lines = run('pdffonts', [file]).stdout.split('\n').slice(2).filter((line) => line.trim() !== '');
  return lines.map((line) => {
    const columns = line.trim().split(/\s+/);
    // name type [type words...] encoding emb sub uni object ID
    const [emb, sub] = columns.slice(-5, -3);
    return { name: columns[0]!, type: columns.slice(1, -6).join(' '), embedded: emb === 'yes', subset: sub === 'yes' };
  });
}

export { withoutBidiMarks, type WordBox };

/** Words with their boxes from `pdftotext -bbox` of one page (coordinates of the displayed page). */
export function wordBoxes(file: string, page = 1): WordBox[] {
  const html = run('pdftotext', ['-bbox', '-f', String(page), '-l', String(page), file, '-']).stdout;
  return [...html.matchAll(/<word xMin="([\d.-]+)" yMin="([\d.-]+)" xMax="([\d.-]+)" yMax="([\d.-]+)">([^<]*)<\/word>/g)].map((match) => ({
    word: match[5]!.replace(/&amp;/g, '&').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"'),
    xMin: Number(match[1]),
    yMin: Number(match[2]),
    xMax: Number(match[3]),
    yMax: Number(match[4]),
  }));
}

export interface PageInfo {
  /** Unrotated size in points, as pdfinfo reports it. */
  width: number;
  height: number;
  rotation: number;
}

export function pdfInfo(file: string, password?: string): { pages: number; pageInfo: PageInfo[]; encrypted: boolean } {
  const args = [...(password !== undefined ? ['-upw', password] : []), '-f', '1', '-l', '100000', file];
  const result = run('pdfinfo', args);
  if (result.status !== 0) throw new Error(`pdfinfo exit ${result.status}: ${result.stderr}`);
  const pages = Number(/^Pages:\s+(\d+)/m.exec(result.stdout)?.[1]);
  const pageInfo: PageInfo[] = [];
  for (const match of result.stdout.matchAll(/^Page\s+(\d+) size:\s+([\d.]+) x ([\d.]+) pts/gm)) {
    const rotation = Number(new RegExp(`^Page\\s+${match[1]} rot:\\s+(\\d+)`, 'm').exec(result.stdout)?.[1] ?? 0);
    pageInfo.push({ width: Number(match[2]), height: Number(match[3]), rotation });
  }
  return { pages, pageInfo, encrypted: /^Encrypted:\s+yes/m.test(result.stdout) };
}

export * from './test-pixels.ts';
