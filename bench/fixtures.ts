/**
 * The PDF workloads' inputs, generated deterministically and cached in bench/.work/: a realistic
 * 2-page A4 letter template (~240 KB: DejaVu Serif embedded whole, used for all static text, plus a
 * logo image) with 3 placeholders (BENCH_FIELDS), and rows of First / Last / Amount.
 */
import { existsSync } from 'node:fs';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fontkit from '@pdf-lib/fontkit';
import { PDFDocument, rgb, type PDFFont, type PDFPage } from 'pdf-lib';
import { gradientPng } from '../scripts/fixtures/pdf-corpus/tools.ts';
import { BENCH_FIELDS, type BenchRow } from './types.ts';

export const BENCH_DIR = path.dirname(fileURLToPath(import.meta.url));
export const WORK_DIR = path.join(BENCH_DIR, '.work');
/** Bump when the template changes, so cached copies are regenerated. */
const TEMPLATE_VERSION = 1;

const FIRST = ['Anna', 'Ben', 'Chloé', 'David', 'Elif', 'François', 'Grace', 'Hiro', 'Inès', 'Jonas', 'Karin', 'Liam', 'Noah', 'Olga', 'Pedro', 'Søren', 'Zoë'];
const LAST = ['Müller', 'Smith', 'García', 'Dubois', 'Rossi', 'Nowak', 'Jensen', 'Tanaka', 'Schmidt', 'Brown', 'Kowalski', 'Novák', 'Öztürk', 'Johansson', 'Fischer', 'Moreau', 'Wagner-Lefèvre'];

/** Row i of the bench's spreadsheet; names and amounts vary so text widths vary. */
export function benchRow(i: number): BenchRow {
  const cents = (i * 7919 + 1234) % 1_000_000;
  const euros = Math.floor(cents / 100).toLocaleString('en-US');
  return {
    First: FIRST[i % FIRST.length]!,
    Last: LAST[Math.floor(i / FIRST.length) % LAST.length]!,
    Amount: `€ ${euros}.${String(cents % 100).padStart(2, '0')}`,
  };
}

const PARAGRAPH =
  'Your statement for the period is enclosed. Payments received after the closing date will appear on your next ' +
  'statement. If you pay by direct debit, the amount shown will be collected on or after the due date from the ' +
  'account you nominated. Please check the details carefully and tell us within thirty days if anything is wrong, ' +
  'so that we can correct it before the next billing cycle begins.';

/** Numbered paragraphs `from`..`to`, top down from `top`. */
function drawParagraphs(page: PDFPage, font: PDFFont, top: number, from: number, to: number): void {
  for (let n = from; n <= to; n++) {
    page.drawText(`${n}. ${PARAGRAPH}`, { x: 56, y: top - (n - from) * 74, size: 9.5, font, lineHeight: 12.5, maxWidth: 483 });
  }
}

async function buildTemplate(): Promise<Uint8Array> {
  const require = createRequire(import.meta.url);
  const fontBytes = await readFile(require.resolve('dejavu-fonts-ttf/ttf/DejaVuSerif.ttf'));
  const doc = await PDFDocument.create({ updateMetadata: false });
  doc.registerFontkit(fontkit);
  doc.setTitle('Statement of account');
  const font = await doc.embedFont(fontBytes, { subset: false });
  const logo = await doc.embedPng(gradientPng(96, 48));

  const first = doc.addPage([595.28, 841.89]);
  first.drawImage(logo, { x: 460, y: 760, width: 96, height: 48 });
  first.drawText('Northwind Utilities', { x: 56, y: 780, size: 22, font, color: rgb(0.1, 0.2, 0.45) });
  first.drawText('12 Harbour Road · Bristol BS1 4QA · northwind.example', { x: 56, y: 762, size: 9, font });
  first.drawText('Statement of account', { x: 56, y: 700, size: 16, font });
  first.drawText('Dear', { x: 56, y: BENCH_FIELDS[0]!.y, size: 12, font });
  first.drawText('Amount due:', { x: 300, y: BENCH_FIELDS[2]!.y, size: 14, font });
  drawParagraphs(first, font, 610, 1, 1);
  drawParagraphs(first, font, 480, 2, 6);

  const second = doc.addPage([595.28, 841.89]);
  second.drawText('Terms and conditions', { x: 56, y: 780, size: 16, font });
  drawParagraphs(second, font, 750, 7, 15);
  return doc.save({ useObjectStreams: false });
}

async function writeAtomically(file: string, bytes: Uint8Array | string): Promise<void> {
  const temporary = `${file}.${process.pid}.tmp`;
  await writeFile(temporary, bytes);
  await rename(temporary, file);
}

export interface BenchInputs {
  templatePath: string;
  templateBytes: number;
  rowsPath: string;
}

/** Makes (or reuses) the template and a rows file holding at least `rowCount` rows. */
export async function prepareBenchInputs(rowCount: number): Promise<BenchInputs> {
  await mkdir(WORK_DIR, { recursive: true });
  const templatePath = path.join(WORK_DIR, `template-v${TEMPLATE_VERSION}.pdf`);
  if (!existsSync(templatePath)) await writeAtomically(templatePath, await buildTemplate());
  const rowsPath = path.join(WORK_DIR, `rows-${rowCount}.json`);
  if (!existsSync(rowsPath)) {
    await writeAtomically(rowsPath, JSON.stringify(Array.from({ length: rowCount }, (_, i) => benchRow(i))));
  }
  return { templatePath, templateBytes: (await readFile(templatePath)).length, rowsPath };
}
