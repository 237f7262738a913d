/* eslint-disable no-restricted-imports -- test helper only: writes PDFs and runs qpdf and poppler on them */
/**
 * Test helpers for the text engine: a registry with the bundled fallback fonts, a one-page PDF of
 * laid-out values (checked with qpdf), and poppler's view of it: text, word boxes and grey pixels.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PDFDocument, PDFName, type PDFContext, type PDFRef } from 'pdf-lib';
import { loadBundledFallbackFonts } from '../node/fonts.ts';
import { FontRegistry } from './registry.ts';
import type { Box, TextLayout, TextStyle } from './types.ts';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
export const WQY_MICROHEI = '/usr/share/fonts/truetype/wqy/wqy-microhei.ttc';

const require = createRequire(import.meta.url);
const dejavuFolder = path.join(path.dirname(require.resolve('dejavu-fonts-ttf/package.json')), 'ttf');

export function dejavu(file: string): Uint8Array {
  return new Uint8Array(readFileSync(path.join(dejavuFolder, file)));
}

export function fixture(name: string): Uint8Array {
  return new Uint8Array(readFileSync(path.resolve(REPO_ROOT, 'fixtures/generated', name)));
}

export const baseStyle: TextStyle = {
  fontFamily: 'Helvetica',
  fontStyle: 'normal',
  fontSize: 12,
  align: 'left',
  textDecoration: 'none',
  fill: '#000000',
  wrap: true,
  shrinkToFit: false,
};

export function style(overrides: Partial<TextStyle>): TextStyle {
  return { ...baseStyle, ...overrides };
}

export async function newRegistry(customFonts: Record<string, Uint8Array> = {}): Promise<FontRegistry> {
  return new FontRegistry({ customFonts: new Map(Object.entries(customFonts)), fallbackFonts: await loadBundledFallbackFonts() });
}

export interface Placed {
  text: string;
  style: TextStyle;
  box: Box;
}

export interface RenderedPdf {
  file: string;
  context: PDFContext;
  refs: Map<string, PDFRef>;
  layouts: TextLayout[];
  operators: string;
}

/** A scratch folder per test file; call the returned cleanup in afterAll. */
export function workFolder(prefix: string): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(path.join(tmpdir(), `sheaf-${prefix}-`));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

let counter = 0;

/**
 * The merge's sequence on one page: collect every value, freeze, embed, then lay out and draw.
 * The saved file must pass qpdf --check.
 */
export async function renderPage(dir: string, registry: FontRegistry, items: readonly Placed[], size: [number, number] = [595, 842]): Promise<RenderedPdf> {
  for (const item of items) registry.collect(item.text, item.style);
  registry.freeze();
  const pdf = await PDFDocument.create();
  const page = pdf.addPage(size);
  const refs = registry.embed(pdf.context);
  page.node.set(PDFName.of('Resources'), pdf.context.obj({ Font: pdf.context.obj(Object.fromEntries(refs)) }));
  const layouts = items.map((item) => registry.layout(item.text, item.style, item.box));
  const operators = layouts.map((layout) => registry.draw(layout)).join('');
  page.node.set(PDFName.of('Contents'), pdf.context.register(pdf.context.flateStream(operators)));
  const file = path.join(dir, `page-${++counter}.pdf`);
  writeFileSync(file, await pdf.save());
  execFileSync('qpdf', ['--check', file]);
  return { file, context: pdf.context, refs, layouts, operators };
}

/** pdftotext's output; poppler's complaints about fonts (stderr) fail the test. */
export function pdfText(file: string, ...options: string[]): string {
  const result = spawnSync('pdftotext', [...options, file, '-'], { encoding: 'utf8' });
  if (result.status !== 0 || result.stderr !== '') throw new Error(`pdftotext: ${result.stderr || `exit ${result.status}`}`);
  return result.stdout;
}

/** pdftotext wraps right-to-left text in embedding marks; compare words without them. */
export function withoutBidiMarks(text: string): string {
  return text.replace(/[\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, '');
}

export interface WordBox {
  word: string;
  xMin: number;
  yMin: number;
  xMax: number;
  yMax: number;
}

/** Word boxes from pdftotext -bbox, converted to PDF space (origin bottom-left, y up). */
export function wordBoxes(file: string, pageHeight = 842): WordBox[] {
  const html = execFileSync('pdftotext', ['-bbox', file, '-'], { encoding: 'utf8' });
  const words: WordBox[] = [];
  for (const match of html.matchAll(/<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)<\/word>/g)) {
    const [xMin, yTop, xMax, yBottom] = [match[1], match[2], match[3], match[4]].map(Number) as [number, number, number, number];
    const word = match[5]!.replace(/&amp;/g, '&').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"');
    words.push({ word, xMin, xMax, yMin: pageHeight - yBottom, yMax: pageHeight - yTop });
  }
  return words;
}

export interface GreyImage {
  width: number;
  height: number;
  /** One byte per pixel, 0 = black. */
  grey: Uint8Array;
  /** Pixels per point. */
  scale: number;
}

/** The page as grey pixels (pdftoppm), and a PNG beside it for a person to look at. */
export function renderGrey(file: string, dpi = 72): GreyImage {
  const base = file.replace(/\.pdf$/, `-${dpi}`);
  execFileSync('pdftoppm', ['-gray', '-r', String(dpi), '-singlefile', file, base]);
  const pgm = readFileSync(`${base}.pgm`);
  const header = /^P5\s+(\d+)\s+(\d+)\s+(\d+)\s/.exec(pgm.subarray(0, 50).toString('latin1'));
  if (!header) throw new Error('pdftoppm did not write a binary PGM');
  const [width, height] = [Number(header[1]), Number(header[2])];
  return { width, height, grey: pgm.subarray(header[0].length, header[0].length + width * height), scale: dpi / 72 };
}

/** Dark pixels inside a box given in PDF points (origin bottom-left) of a page `pageHeight` tall. */
export function inkIn(image: GreyImage, box: Box, pageHeight: number, threshold = 128): number {
  const { width, height, grey, scale } = image;
  const x0 = Math.max(0, Math.floor(box.x * scale));
  const x1 = Math.min(width, Math.ceil((box.x + box.width) * scale));
  const y0 = Math.max(0, Math.floor((pageHeight - box.y - box.height) * scale));
  const y1 = Math.min(height, Math.ceil((pageHeight - box.y) * scale));
  let count = 0;
  for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) if (grey[y * width + x]! < threshold) count++;
  return count;
}

/** Dark pixels of the whole page. */
export function totalInk(image: GreyImage, threshold = 128): number {
  let count = 0;
  for (const value of image.grey) if (value < threshold) count++;
  return count;
}
