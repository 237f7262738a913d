/** Peer, combined: @pdfme/generator, all rows as the inputs of one generate call. */
import { writeFileSync } from 'node:fs';
import { generate } from '@pdfme/generator';
import { text } from '@pdfme/schemas';
import { combinedDocumentPath, printResult, readCandidateInput } from './candidate.ts';
import { pdfmeTemplate } from './pdfme-template.ts';

const TEMPLATE_PAGES = 2;
const { template, rows, count, outDir } = readCandidateInput();
const started = performance.now();
const inputs = rows.slice(0, count).map((row) => ({ ...row }));
const bytes = await generate({ template: pdfmeTemplate(template, TEMPLATE_PAGES), inputs, plugins: { text } });
writeFileSync(combinedDocumentPath(outDir), bytes);
printResult({
  workload: 'combined',
  tool: '@pdfme/generator',
  units: count * TEMPLATE_PAGES,
  unitName: 'pages',
  seconds: (performance.now() - started) / 1000,
  bytesOut: bytes.length,
  note: `${count} rows`,
});
