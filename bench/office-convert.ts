/**
 * `npx tsx bench/office-convert.ts [--runs N]`: DOCX -> PDF through LibreOffice, a 1-page and a
 * 300-page document, three ways side by side: the plain way (`soffice --convert-to pdf` with a fresh
 * profile per file, one process per document), Sheaf's converter cold (a new warm pool: starting
 * LibreOffice is included) and warm (a process already running). Prints seconds per conversion
 * (median of the runs) and the ratios; the times themselves vary with the machine.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { OfficeConverter } from '../apps/server/src/adapters/office/index.ts';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '3' } } });
const runs = Number(values.runs);
const work = mkdtempSync(path.join(os.tmpdir(), 'sheaf-bench-office-'));

/** A flat ODT of `pages` pages of body text, each page ended by a page break. */
function flatOdt(pages: number): string {
  const paragraph = 'Dear {{Name}}, this paragraph is ordinary body text of a mail-merge letter, long enough to wrap over a few lines on an A4 page. ';
  const page = Array.from({ length: 12 }, () => `<text:p>${paragraph.repeat(2)}</text:p>`).join('');
  const body = Array.from({ length: pages }, (_, index) => `${page}<text:p text:style-name="${index + 1 < pages ? 'Break' : 'Standard'}"/>`).join('');
  return `<?xml version="1.0" encoding="UTF-8"?>
<office:document xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" xmlns:fo="urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0" office:version="1.3" office:mimetype="application/vnd.oasis.opendocument.text">
<office:automatic-styles><style:style style:name="Break" style:family="paragraph"><style:paragraph-properties fo:break-after="page"/></style:style></office:automatic-styles>
<office:body><office:text>${body}</office:text></office:body></office:document>`;
}

const median = (times: number[]): number => [...times].sort((a, b) => a - b)[Math.floor(times.length / 2)]!;
const seconds = (start: bigint): number => Number(process.hrtime.bigint() - start) / 1e9;

function plainConvert(docx: string): number {
  const profile = mkdtempSync(path.join(work, 'profile-'));
  const start = process.hrtime.bigint();
  const done = spawnSync('soffice', [`-env:UserInstallation=${pathToFileURL(profile).href}`, '--headless', '--convert-to', 'pdf', '--outdir', work, docx], { stdio: 'ignore' });
  const time = seconds(start);
  rmSync(profile, { recursive: true, force: true });
  if (done.status !== 0) throw new Error('soffice --convert-to failed');
  return time;
}

async function main(): Promise<void> {
  const setup = new OfficeConverter({ tmpDir: work, size: 1, timeoutMs: 600_000 });
  const documents: { name: string; docx: Uint8Array }[] = [];
  for (const pages of [1, 300]) documents.push({ name: `${pages}-page DOCX`, docx: await setup.toDocx(Buffer.from(flatOdt(pages)), 'fodt') });
  await setup.close();
  console.log('| document | pages (PDF) | plain soffice --convert-to, s | Sheaf cold, s | Sheaf warm, s | plain / warm |');
  console.log('|---|---|---|---|---|---|');
  for (const { name, docx } of documents) {
    const file = path.join(work, `${name.split('-')[0]}.docx`);
    writeFileSync(file, docx);
    const plain: number[] = [];
    const cold: number[] = [];
    const warm: number[] = [];
    let pages = 0;
    for (let run = 0; run < runs; run++) {
      plain.push(plainConvert(file));
      const converter = new OfficeConverter({ tmpDir: work, size: 1, timeoutMs: 600_000 });
      let start = process.hrtime.bigint();
      await converter.toPdf(docx);
      cold.push(seconds(start));
      start = process.hrtime.bigint();
      const pdf = await converter.toPdf(docx);
      warm.push(seconds(start));
      await converter.close();
      writeFileSync(path.join(work, 'out.pdf'), pdf);
      pages = Number(/Pages:\s+(\d+)/.exec(spawnSync('pdfinfo', [path.join(work, 'out.pdf')], { encoding: 'utf8' }).stdout)?.[1] ?? 0);
    }
    const [p, c, w] = [median(plain), median(cold), median(warm)];
    console.log(`| ${name} | ${pages} | ${p.toFixed(2)} | ${c.toFixed(2)} | ${w.toFixed(2)} | ${(p / w).toFixed(1)}x |`);
  }
  rmSync(work, { recursive: true, force: true });
}

await main();
