/**
 * Child-process side of every task that reads an uploaded template (workers/child-pool.ts caps the
 * process's whole memory and time): the check of an upload (a PDF, or a Word template's DOCX), rendering the first page to a PNG (pdf.js
 * on @napi-rs/canvas), unlocking an encrypted template, and the editor's preview.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { checkTemplateBytes, decryptPdf, inspectEncryption, listDocxFields, loadTemplate, prepareMerge, type CellValue, type DocxField, type SheetData } from '@sheaf/engine';
import { useNativeCrypto } from '@sheaf/engine/node';
import { serveChildTasks } from '../../workers/child-pool.ts';
import { fallbackFonts } from './engine-fonts.ts';

// Unlocking derives keys from the password: Node's native crypto is several times faster than pure JS.
useNativeCrypto();

export type PdfTask =
  | { kind: 'check'; bytes: Uint8Array }
  | { kind: 'thumbnail'; bytes: Uint8Array; width: number }
  | { kind: 'unlock'; bytes: Uint8Array; password: string; width: number }
  | { kind: 'docx-check'; bytes: Uint8Array }
  | PreviewTask;

type MergeInput = Parameters<typeof prepareMerge>[0];

/** A preview's merge input as it crosses to the child: the few rows shown, copied out of the sheet. */
export interface PreviewTask extends Omit<MergeInput, 'sheet' | 'fallbackFonts'> {
  kind: 'preview';
  sheet: PortableSheet;
}

export interface PortableSheet {
  headers: readonly string[];
  headerRowNumber: number;
  rows: Array<{ number: number; texts: string[]; values: CellValue[] }>;
}

/** What an upload's check found (an encrypted file that opens without a password is reported as such). */
export type CheckResult =
  | { kind: 'plain'; pageCount: number; repaired: boolean; pages: Array<{ width: number; height: number }> }
  | { kind: 'opens-without-password' }
  | { kind: 'locked' };

export interface PreviewResult {
  pdf: Uint8Array;
}

/** A Word template's fields, read as a merge reads them (a damaged or hostile DOCX is refused here). */
export interface DocxCheckResult {
  fields: DocxField[];
}

export interface ThumbnailResult {
  png: Uint8Array | null;
}

export interface UnlockResult {
  bytes: Uint8Array;
  pages: Array<{ width: number; height: number }>;
  png: Uint8Array | null;
}

const require = createRequire(import.meta.url);

/** The part of pdf.js's Node canvas factory used here (its typings describe the DOM one). */
interface CanvasFactory {
  create(width: number, height: number): { canvas: { toBuffer(type: 'image/png'): Uint8Array }; context: unknown };
}

async function renderFirstPage(bytes: Uint8Array, width: number): Promise<Uint8Array> {
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
  // Without the standard font files, text in the 14 base fonts does not render at all.
  const fontFolder = path.join(path.dirname(require.resolve('pdfjs-dist/package.json')), 'standard_fonts');
  const standardFontDataUrl = `${pathToFileURL(fontFolder).pathname}/`;
  // pdf.js detaches the buffer it is given; keep the caller's copy intact.
  // Images past 50 megapixels are left out of the thumbnail rather than decoded.
  const document = await pdfjs.getDocument({ data: bytes.slice(), standardFontDataUrl, isEvalSupported: false, verbosity: 0, maxImageSize: 50_000_000 }).promise;
  try {
    const page = await document.getPage(1);
    const natural = page.getViewport({ scale: 1 });
    const viewport = page.getViewport({ scale: width / natural.width });
    // In Node the factory makes @napi-rs/canvas canvases (pdf.js's own copy of the package).
    const factory = document.canvasFactory as CanvasFactory;
    const { canvas, context } = factory.create(Math.ceil(viewport.width), Math.ceil(viewport.height));
    const params = { canvasContext: context, canvas, viewport, background: 'white' };
    await page.render(params as unknown as Parameters<typeof page.render>[0]).promise;
    const png = canvas.toBuffer('image/png');
    return new Uint8Array(png.buffer, png.byteOffset, png.byteLength);
  } finally {
    await document.destroy();
  }
}

/** A thumbnail that fails to render is no reason to refuse the template: the UI shows an icon. */
async function tryRender(bytes: Uint8Array, width: number): Promise<Uint8Array | null> {
  try {
    return await renderFirstPage(bytes, width);
  } catch {
    return null;
  }
}

/** Reads the whole file as a merge would, repair allowed (merges may repair what is refused here otherwise). */
async function check(bytes: Uint8Array): Promise<CheckResult> {
  checkTemplateBytes(bytes);
  const encryption = inspectEncryption(bytes);
  if (encryption && !encryption.opensWithoutPassword) return { kind: 'locked' };
  const template = await loadTemplate(encryption ? decryptPdf(bytes, '') : bytes, { repair: true });
  if (encryption) return { kind: 'opens-without-password' };
  return { kind: 'plain', pageCount: template.pages.length, repaired: template.repaired, pages: template.pages.map(({ width, height }) => ({ width, height })) };
}

function sheetOf(portable: PortableSheet): SheetData {
  const { rows } = portable;
  return {
    headers: portable.headers,
    headerRowNumber: portable.headerRowNumber,
    rowCount: rows.length,
    rowNumber: (index) => rows[index]!.number,
    text: (index, column) => rows[index]!.texts[column] ?? '',
    value: (index, column) => rows[index]!.values[column] ?? null,
  };
}

async function preview(task: PreviewTask): Promise<PreviewResult> {
  const { kind: _kind, sheet, ...input } = task;
  const merge = await prepareMerge({ ...input, sheet: sheetOf(sheet), fallbackFonts: await fallbackFonts() });
  return { pdf: Buffer.concat([...merge.combined()]) };
}

async function run(task: PdfTask): Promise<CheckResult | ThumbnailResult | UnlockResult | PreviewResult | DocxCheckResult> {
  if (task.kind === 'check') return check(task.bytes);
  if (task.kind === 'docx-check') return { fields: listDocxFields(task.bytes) };
  if (task.kind === 'preview') return preview(task);
  if (task.kind === 'thumbnail') return { png: await tryRender(task.bytes, task.width) };
  const plain = decryptPdf(task.bytes, task.password);
  const template = await loadTemplate(plain, { repair: true });
  const pages = template.pages.map(({ width, height }) => ({ width, height }));
  return { bytes: plain, pages, png: await tryRender(plain, task.width) };
}

serveChildTasks(run, 'template/corrupt');
