/**
 * Sheaf's way, as a merge job makes PDFs from a Word template: prepareWordMerge (the template compiled
 * once), batches of up to 100 rows (pdfBatchSize) each filled into one DOCX, converted by a warm
 * LibreOffice pool (apps/server/src/adapters/office) and cut into one PDF per row
 * (merge-output/word-documents.ts, the server's own code), the PDFs streamed into a ZIP on disk as the server writes its result.
 * With `inFlight` 2, two batches convert at once on the pool's two processes, as the server does
 * with its default pool of two (300 rows: four batches of 75).
 *   node --import tsx word-pdf/sheaf.ts <template.docx> <rows.json> <count> <outDir> [inFlight]
 */
import { closeSync, openSync, readFileSync, writeSync } from 'node:fs';
import path from 'node:path';
import { prepareWordMerge, sheetFromTable, ZipWriter } from '@sheaf/engine';
import { useNativeZlib } from '@sheaf/engine/node';
import { OfficeConverter } from '../../apps/server/src/adapters/office/index.ts';
import { pdfBatchSize, wordDocuments } from '../../apps/server/src/merge-output/word-documents.ts';
import type { BenchRow } from '../types.ts';
import { wordBenchTemplate, type WordPdfResult } from './template.ts';

const [templatePath, rowsPath, countText, outDir, inFlightText = '1'] = process.argv.slice(2) as [string, string, string, string, string?];
const inFlight = Number(inFlightText);
const count = Number(countText);
const template = new Uint8Array(readFileSync(templatePath));
const rows = (JSON.parse(readFileSync(rowsPath, 'utf8')) as BenchRow[]).slice(0, count);
// As the server's merge jobs do (run-merge.ts): stamped pages are compressed with Node's zlib.
useNativeZlib();
const seconds = (start: bigint) => Number(process.hrtime.bigint() - start) / 1e9;

// The server keeps LibreOffice running between merges: the pool is warmed before the timed run.
const converter = new OfficeConverter({ tmpDir: outDir, timeoutMs: 600_000, size: Math.max(2, inFlight) });
const warming = process.hrtime.bigint();
await Promise.all(Array.from({ length: inFlight }, () => converter.toPdf(wordBenchTemplate())));
const warmUpSeconds = seconds(warming);

const start = process.hrtime.bigint();
/** Conversion time summed over batches, and the wall time during which at least one was converting. */
let convertSeconds = 0;
let busySeconds = 0;
let converting = 0;
let busySince = 0n;
const toPdf = async (docx: Uint8Array) => {
  const began = process.hrtime.bigint();
  if (converting++ === 0) busySince = began;
  try {
    return await converter.toPdf(docx);
  } finally {
    convertSeconds += seconds(began);
    if (--converting === 0) busySeconds += seconds(busySince);
  }
};
const headers = ['First', 'Last', 'Amount'] as const;
const sheet = sheetFromTable([...headers], rows.map((values) => headers.map((name) => values[name])));
const merge = prepareWordMerge({ template, sheet, output: 'pdf', isCombinedOutput: false, fileNamePattern: '{{First}} {{Last}}' });
const fd = openSync(path.join(outDir, 'merge.zip'), 'w');
let bytesOut = 0;
const zip = new ZipWriter((chunk) => void (bytesOut += writeSync(fd, chunk)));
let documents = 0;
for await (const document of wordDocuments(merge, toPdf, 0, inFlight)) {
  await zip.addFile(document.fileName, document.chunks);
  documents++;
}
await zip.finish();
closeSync(fd);
const total = seconds(start);
await converter.close();
const note = merge.issues.length > 0 ? `${merge.issues.length} rows skipped` : documents !== count ? `${documents} documents, ${count} expected` : undefined;
const batchSize = pdfBatchSize(count, inFlight);
const tool = inFlight > 1 ? `Sheaf, ${inFlight} conversions at once (batches of ${batchSize})` : `Sheaf (batches of ${batchSize}, warm pool)`;
const result: WordPdfResult = { tool, documents, seconds: total, fillSeconds: total - busySeconds, convertSeconds, bytesOut, warmUpSeconds, note };
console.log(JSON.stringify(result));
