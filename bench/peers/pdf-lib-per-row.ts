/** Peer, per-row: what a pdf-lib user writes: load the template, draw the 3 values, save, per row. */
import { writeFileSync } from 'node:fs';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { BENCH_FIELDS } from '../types.ts';
import { printResult, readCandidateInput, rowDocumentPath } from './candidate.ts';

const { template, rows, count, outDir } = readCandidateInput();
const started = performance.now();
let bytesOut = 0;
for (let i = 0; i < count; i++) {
  const doc = await PDFDocument.load(template);
  // Standard Helvetica: pdf-lib's cheapest text (no font program to embed per document).
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const row = rows[i]!;
  for (const field of BENCH_FIELDS) {
    doc.getPage(field.page).drawText(row[field.column], { x: field.x, y: field.y, size: field.size, font });
  }
  const bytes = await doc.save();
  writeFileSync(rowDocumentPath(outDir, i), bytes);
  bytesOut += bytes.length;
}
printResult({ workload: 'per-row', tool: 'pdf-lib', units: count, unitName: 'docs', seconds: (performance.now() - started) / 1000, bytesOut });
