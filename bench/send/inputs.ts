/**
 * Inputs of the send workload, made once (untimed) and cached in .work/: the bench template's rows
 * merged by the Sheaf engine into a stored ZIP, as a merge job writes it, and the index of where each
 * row's PDF lies in it. Both candidates attach the same PDFs, read from the ZIP the same way.
 */
import { existsSync } from 'node:fs';
import { readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { prepareMerge, sheetFromTable } from '@sheaf/engine';
import { loadBundledFallbackFonts } from '@sheaf/engine/node';
import { PlaceholderSchema } from '@sheaf/shared';
import { writeZip } from '../../apps/server/src/merge-output/outputs.ts';
import { prepareBenchInputs, WORK_DIR } from '../fixtures.ts';
import { BENCH_FIELDS, type BenchRow } from '../types.ts';

export interface SendDocument {
  fileName: string;
  offset: number;
  size: number;
  first: string;
  last: string;
  amount: string;
  to: string;
}

export interface SendInputs {
  zipPath: string;
  indexPath: string;
  /** Average PDF size. */
  documentBytes: number;
}

export async function prepareSendInputs(count: number): Promise<SendInputs> {
  const zipPath = path.join(WORK_DIR, `send-${count}.zip`);
  const indexPath = path.join(WORK_DIR, `send-${count}.json`);
  if (!existsSync(zipPath) || !existsSync(indexPath)) {
    const inputs = await prepareBenchInputs(count);
    const template = new Uint8Array(await readFile(inputs.templatePath));
    const rows = (JSON.parse(await readFile(inputs.rowsPath, 'utf8')) as BenchRow[]).slice(0, count);
    const headers = ['First', 'Last', 'Amount'] as const;
    const sheet = sheetFromTable([...headers], rows.map((row) => headers.map((h) => row[h])));
    const [width, height] = [595.28, 841.89];
    const placeholders = BENCH_FIELDS.map((field, i) =>
      PlaceholderSchema.parse({
        id: `p${i}`, column: field.column, pageNumber: field.page + 1,
        relativeX: field.x / width, relativeY: (height - field.y - field.size) / height,
        relativeWidth: field.width / width, relativeHeight: (field.size * 1.3) / height, relativeFontSize: field.size / height,
      }),
    );
    const merge = await prepareMerge({ template, placeholders, sheet, fallbackFonts: await loadBundledFallbackFonts(), options: { isCombinedOutput: false } });
    const index: SendDocument[] = [];
    await writeZip(`${zipPath}.tmp`, merge.documents(), () => undefined, (document, offset) => {
      const row = rows[document.index]!;
      index.push({ fileName: document.fileName, offset, size: document.byteLength, first: row.First, last: row.Last, amount: row.Amount, to: `recipient${document.index + 1}@example.com` });
    });
    await rename(`${zipPath}.tmp`, zipPath);
    await writeFile(indexPath, JSON.stringify(index));
  }
  const index = JSON.parse(await readFile(indexPath, 'utf8')) as SendDocument[];
  return { zipPath, indexPath, documentBytes: Math.round(index.reduce((sum, doc) => sum + doc.size, 0) / index.length) };
}

export const SUBJECT = (doc: SendDocument) => `Your statement, ${doc.first} ${doc.last}`;
export const HTML = (doc: SendDocument) =>
  `<p>Dear ${doc.first} ${doc.last},</p><p>your statement is attached. The amount due is ${doc.amount}.</p><p><a href="https://northwind.example/pay">Pay online</a></p>`;
