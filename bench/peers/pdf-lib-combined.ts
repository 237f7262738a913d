/**
 * Peer, combined: pdf-lib's best combined merge: the template's pages embedded once as Form XObjects,
 * then per row one new page per template page drawing the shared XObject plus the values; one save.
 */
import { writeFileSync } from 'node:fs';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { BENCH_FIELDS } from '../types.ts';
import { combinedDocumentPath, printResult, readCandidateInput } from './candidate.ts';

const { template, rows, count, outDir } = readCandidateInput();
const started = performance.now();
const doc = await PDFDocument.create();
const font = await doc.embedFont(StandardFonts.Helvetica);
const source = await PDFDocument.load(template);
const templatePages = await doc.embedPages(source.getPages());
for (let i = 0; i < count; i++) {
  const row = rows[i]!;
  templatePages.forEach((templatePage, pageIndex) => {
    const page = doc.addPage([templatePage.width, templatePage.height]);
    page.drawPage(templatePage);
    for (const field of BENCH_FIELDS) {
      if (field.page === pageIndex) page.drawText(row[field.column], { x: field.x, y: field.y, size: field.size, font });
    }
  });
}
const bytes = await doc.save();
writeFileSync(combinedDocumentPath(outDir), bytes);
const pages = count * templatePages.length;
printResult({ workload: 'combined', tool: 'pdf-lib', units: pages, unitName: 'pages', seconds: (performance.now() - started) / 1000, bytesOut: bytes.length, note: `${count} rows` });
