/**
 * Files the library tests upload, made here (nothing binary is committed), and independent checks of
 * what comes back: pdftotext for PDFs, @napi-rs/canvas to look at PNG pixels.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { createCanvas, loadImage } from '@napi-rs/canvas';
import { PDFDocument, StandardFonts, rgb } from 'pdf-lib';
import { encryptPdf } from '@sheaf/engine';
import type { PlaceholderInput } from '@sheaf/shared';

const run = promisify(execFile);

export const FIXTURES = path.resolve(import.meta.dirname, '../../../fixtures/generated');
export const fixture = (name: string) => readFile(path.join(FIXTURES, name)).then((bytes) => new Uint8Array(bytes));

/** A PDF of US-letter pages; page 1 carries `title` in large black letters near the top-left corner. */
export async function makePdf(options: { pages?: number; title?: string } = {}): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.HelveticaBold);
  for (let index = 0; index < (options.pages ?? 2); index++) {
    const page = doc.addPage([612, 792]);
    page.drawText(index === 0 ? (options.title ?? 'SHEAF TEMPLATE') : `Page ${index + 1}`, { x: 40, y: 720, size: 40, font, color: rgb(0, 0, 0) });
  }
  return doc.save();
}

export async function makeEncryptedPdf(password: string): Promise<Uint8Array> {
  return encryptPdf(await makePdf({ title: 'LOCKED TEMPLATE' }), { userPassword: password, ownerPassword: `${password}-owner` });
}

export function csv(rows: Array<Array<string | number>>): Uint8Array {
  return new TextEncoder().encode(rows.map((row) => row.join(',')).join('\n') + '\n');
}

export function placeholder(column: string, overrides: Partial<PlaceholderInput> = {}): PlaceholderInput {
  return {
    id: `p-${column}`,
    type: 'text',
    column,
    pageNumber: 1,
    relativeX: 0.1,
    relativeY: 0.3,
    relativeWidth: 0.8,
    relativeHeight: 0.05,
    relativeFontSize: 0.02,
    ...overrides,
  };
}

/** The text poppler reads from a PDF (an independent reader, not the engine). */
export async function pdfText(bytes: Uint8Array): Promise<string> {
  const folder = await mkdtemp(path.join(tmpdir(), 'sheaf-pdftext-'));
  try {
    const file = path.join(folder, 'in.pdf');
    await writeFile(file, bytes);
    const { stdout } = await run('pdftotext', ['-layout', file, '-']);
    return stdout;
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

export const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** Width, height and the share of dark pixels in the top and the bottom half of a PNG. */
export async function inspectPng(png: Uint8Array): Promise<{ width: number; height: number; darkTop: number; darkBottom: number }> {
  const image = await loadImage(Buffer.from(png));
  const canvas = createCanvas(image.width, image.height);
  const context = canvas.getContext('2d');
  context.drawImage(image, 0, 0);
  const { data } = context.getImageData(0, 0, image.width, image.height);
  let darkTop = 0;
  let darkBottom = 0;
  const half = Math.floor(image.height / 2);
  for (let y = 0; y < image.height; y++) {
    for (let x = 0; x < image.width; x++) {
      const offset = (y * image.width + x) * 4;
      const dark = data[offset]! < 100 && data[offset + 1]! < 100 && data[offset + 2]! < 100 && data[offset + 3]! > 200;
      if (!dark) continue;
      if (y < half) darkTop++;
      else darkBottom++;
    }
  }
  const pixelsPerHalf = image.width * half;
  return { width: image.width, height: image.height, darkTop: darkTop / pixelsPerHalf, darkBottom: darkBottom / pixelsPerHalf };
}
