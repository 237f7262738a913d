/**
 * The plain way to make one PDF per row from a Word template, done carefully: docxtemplater fills each
 * row's DOCX (a fresh PizZip of the template per row, as docxtemplater requires), every DOCX is
 * written to disk, then LibreOffice (`soffice --headless --convert-to pdf`, one fresh profile) converts
 * them all in as few runs as it takes: LibreOffice 7.4 converts only the first 246 files of a longer
 * command line (exit 0, no message), so each run gets 200 files; it starts once per run, not per row.
 *   node --import tsx word-pdf/plain.ts <template.docx> <rows.json> <count> <outDir>
 */
import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import Docxtemplater from 'docxtemplater';
import PizZip from 'pizzip';
import type { BenchRow } from '../types.ts';
import type { WordPdfResult } from './template.ts';

/** Files per soffice run: below the 246 LibreOffice 7.4 takes from one command line. */
const FILES_PER_RUN = 200;
const [templatePath, rowsPath, countText, outDir] = process.argv.slice(2) as [string, string, string, string];
const count = Number(countText);
const template = readFileSync(templatePath);
const rows = (JSON.parse(readFileSync(rowsPath, 'utf8')) as BenchRow[]).slice(0, count);
const docxDir = path.join(outDir, 'docx');
const pdfDir = path.join(outDir, 'pdf');
mkdirSync(docxDir, { recursive: true });
mkdirSync(pdfDir, { recursive: true });

const seconds = (start: bigint) => Number(process.hrtime.bigint() - start) / 1e9;
const start = process.hrtime.bigint();
const files: string[] = [];
rows.forEach((values, index) => {
  const document = new Docxtemplater(new PizZip(template), { delimiters: { start: '{{', end: '}}' }, paragraphLoop: true, linebreaks: true });
  document.render(values);
  const file = path.join(docxDir, `row-${String(index + 1).padStart(5, '0')}.docx`);
  writeFileSync(file, document.getZip().generate({ type: 'nodebuffer', compression: 'DEFLATE' }));
  files.push(file);
});
const fillSeconds = seconds(start);

const converted = process.hrtime.bigint();
const profile = pathToFileURL(path.join(outDir, 'profile')).href;
let code: number | null = 0;
for (let first = 0; first < files.length && code === 0; first += FILES_PER_RUN) {
  code = await new Promise<number | null>((resolve, reject) => {
    const args = [`-env:UserInstallation=${profile}`, '--headless', '--norestore', '--convert-to', 'pdf', '--outdir', pdfDir, ...files.slice(first, first + FILES_PER_RUN)];
    const child = spawn('soffice', args, { stdio: ['ignore', 'ignore', 'inherit'] });
    child.once('error', reject);
    child.once('exit', resolve);
  });
}
const convertSeconds = seconds(converted);
const total = seconds(start);
const pdfs = readdirSync(pdfDir).filter((name) => name.endsWith('.pdf'));
const bytesOut = pdfs.reduce((sum, name) => sum + statSync(path.join(pdfDir, name)).size, 0);
const note = code !== 0 ? `soffice exited with ${code}` : pdfs.length !== count ? `${pdfs.length} PDFs written, ${count} expected` : undefined;
const runs = Math.ceil(files.length / FILES_PER_RUN);
const result: WordPdfResult = { tool: `docxtemplater + soffice (${runs} run${runs > 1 ? 's' : ''})`, documents: pdfs.length, seconds: total, fillSeconds, convertSeconds, bytesOut, note };
console.log(JSON.stringify(result));
