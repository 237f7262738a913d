/** Peer, per-row: @pdfme/generator, one generate call per row on the template as basePdf. */
import { writeFileSync } from 'node:fs';
import { generate } from '@pdfme/generator';
import { text } from '@pdfme/schemas';
import { printResult, readCandidateInput, rowDocumentPath } from './candidate.ts';
import { pdfmeTemplate } from './pdfme-template.ts';

const { template, rows, count, outDir } = readCandidateInput();
const started = performance.now();
const pdfme = pdfmeTemplate(template, 2);
let bytesOut = 0;
for (let i = 0; i < count; i++) {
  const bytes = await generate({ template: pdfme, inputs: [{ ...rows[i]! }], plugins: { text } });
  writeFileSync(rowDocumentPath(outDir, i), bytes);
  bytesOut += bytes.length;
}
printResult({ workload: 'per-row', tool: '@pdfme/generator', units: count, unitName: 'docs', seconds: (performance.now() - started) / 1000, bytesOut });
