/**
 * "Stamped" Word-to-PDF merges (LibreOffice prints the template once for a reference row, then only the
 * template's variable blocks for every row; the engine swaps each row's blocks into the reference pages)
 * must look exactly like the normal way (every row's whole document printed by LibreOffice). Each
 * template is merged twice, stamped (the default) and with `stamp: false`, and every row's two PDFs are
 * compared: the same text (pdftotext -layout), the same look (pdftoppm images), a clean `qpdf --check`,
 * the row's own values and no other row's. Rows whose block changes height (a value wrapping to another
 * line, a line break in a value) fall back to the normal way and must come out the same too. Skipped
 * without LibreOffice.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prepareWordMerge, sheetFromTable, type WordMergeInput } from '@sheaf/engine';
import { buildDocx, cell, p, r, row, table } from '../../../../packages/engine/src/docx/test-docx.ts';
import { libreOfficeInstalled, OfficeConverter } from '../adapters/office/index.ts';
import { wordDocuments } from './word-documents.ts';
import { batchDocumentPdfs } from './word-page-counts.ts';

const TEXT = 'This paragraph is ordinary body text of a mail-merge letter, long enough to wrap over two lines on an A4 page in the default font.';
const statics = (count: number, from = 1) => Array.from({ length: count }, (_, n) => p(`${from + n}. ${TEXT}`)).join('');
const aligned = (jc: string, ...runs: string[]) => `<w:p><w:pPr><w:jc w:val="${jc}"/></w:pPr>${runs.join('')}</w:p>`;
const pageBreak = '<w:p><w:r><w:br w:type="page"/></w:r></w:p>';
/** A Word mail-merge field as Word writes it: begin, instruction, separate, the «placeholder» result, end. */
const mergeField = (instruction: string, result: string) =>
  `<w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText xml:space="preserve"> ${instruction} </w:instrText></w:r><w:r><w:fldChar w:fldCharType="separate"/></w:r><w:r><w:t>${result}</w:t></w:r><w:r><w:fldChar w:fldCharType="end"/></w:r>`;

/** A one-page letter like bench/word-pdf/template.ts: fields in the header, the greeting, mid-sentence and in a 2x2 table. */
function letter(): Uint8Array {
  const body = [
    p('Dear {{First}} {{Last}},'),
    p('Your balance on account is {{Amount}}. Thank you for your business.'),
    statics(10),
    table(row(cell(p('Customer')), cell(p('{{First}} {{Last}}'))), row(cell(p('Amount due')), cell(p('{{Amount}}')))),
    p('Kind regards,'),
    p('The Sheaf team'),
  ].join('');
  return buildDocx({ body, header: p('Statement for {{First}} {{Last}}') });
}

/** Names with accents and of very different lengths. */
const NAMES: Array<[string, string]> = [
  ['Zoë', 'Ångström'],
  ['Bo', 'Li'],
  ['Maximilian', 'Oberhauser-Schmidt'],
  ['Chloé', 'Dubois'],
  ['José', 'Núñez'],
  ['Søren', 'Kierkegård'],
  ['Fatma', 'Özdemir'],
  ['Ingrid', 'Bergström'],
  ['Émile', 'Zola'],
  ['Kai', 'Nakamura'],
  ['Ana', 'Silva'],
  ['Wei', 'Zhang'],
];
/** Distinct amounts: "EUR " and two decimals keep one from being found inside another. */
const amount = (n: number) => `EUR ${(n + 1) * 137}.${String(10 + n).padStart(2, '0')}`;

interface Merged {
  pdfs: Buffer[];
  /** Pages of every PDF LibreOffice returned during the merge, summed. */
  printedPages: number;
}

interface Compared {
  /** What each row's document must show (substrings of its pdftotext text). */
  present: string[];
  /** Read password of the row's documents, when protected. */
  password?: string;
}

/** Pages LibreOffice printed per case and pixel statistics per compared page, printed with SHEAF_STAMP_DIFFS=1. */
const diffs: string[] = [];

describe.skipIf(!libreOfficeInstalled())('stamped Word-to-PDF merges look exactly like the normal way', () => {
  const office = new OfficeConverter({ size: 2 });
  let dir = '';
  let files = 0;
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'sheaf-word-stamp-'));
  });
  afterAll(async () => {
    await office.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
    if (process.env.SHEAF_STAMP_DIFFS) console.info(diffs.join('\n'));
  });

  const file = (bytes: Uint8Array, name = 'doc') => {
    const target = path.join(dir, `${name}-${++files}.pdf`);
    writeFileSync(target, bytes);
    return target;
  };
  const pageCount = (pdf: Uint8Array) => Number(/^Pages:\s+(\d+)/m.exec(execFileSync('pdfinfo', [file(pdf, 'printed')], { encoding: 'utf8' }))?.[1]);

  async function merge(input: Omit<WordMergeInput, 'output' | 'isCombinedOutput'>, stamp: boolean): Promise<Merged> {
    let printedPages = 0;
    const toPdf = async (docx: Uint8Array) => {
      const pdf = await office.toPdf(docx);
      printedPages += pageCount(pdf);
      return pdf;
    };
    const prepared = prepareWordMerge({ ...input, output: 'pdf', isCombinedOutput: false, stamp: stamp ? undefined : false });
    const pdfs: Buffer[] = [];
    for await (const document of wordDocuments(prepared, toPdf, 0, 2)) {
      expect(document.index).toBe(pdfs.length);
      pdfs.push(Buffer.concat(document.chunks));
    }
    return { pdfs, printedPages };
  }

  /** The same sheet merged stamped (the default) and the normal way. */
  async function mergeBoth(input: Omit<WordMergeInput, 'output' | 'isCombinedOutput'>) {
    const stamped = await merge(input, true);
    const normal = await merge(input, false);
    expect(stamped.pdfs).toHaveLength(input.sheet.rowCount);
    expect(normal.pdfs).toHaveLength(input.sheet.rowCount);
    return { stamped, normal };
  }

  /** `qpdf --check` without errors or warnings. */
  const checkClean = (pdf: string, password?: string) => {
    const check = spawnSync('qpdf', [...(password !== undefined ? [`--password=${password}`] : []), '--check', pdf], { encoding: 'utf8' });
    expect(check.status, `${pdf}: ${check.stdout}${check.stderr}`).toBe(0);
    expect(check.stdout).toContain('No syntax or stream encoding errors found');
    expect(check.stderr).toBe('');
  };

  /** The pages as PGM images at 50 dpi in grey. */
  const render = (pdf: string) => {
    const prefix = `${pdf}-page`;
    const out = `${pdf}-pages`;
    mkdirSync(out);
    execFileSync('pdftoppm', ['-r', '50', '-gray', pdf, path.join(out, 'p')]);
    return readdirSync(out)
      .sort()
      .map((name) => {
        const bytes = readFileSync(path.join(out, name));
        const header = /^P5\s+(\d+)\s+(\d+)\s+(\d+)\s/.exec(bytes.subarray(0, 40).toString('latin1'));
        if (!header) throw new Error(`${prefix}: not a PGM`);
        return { width: Number(header[1]), height: Number(header[2]), pixels: bytes.subarray(header[0].length) };
      });
  };

  /**
   * Compares row `index`'s stamped document with its normal one, down to the pixel. A tolerance was
   * planned (a stamped block is moved into place with a `cm`; a translation by a fraction of a point
   * would shift the antialiasing of glyph edges), but every page of every case here renders
   * pixel-identical at 50 dpi, so any difference at all is a finding.
   */
  function compareRow(label: string, stampedBytes: Buffer, normalBytes: Buffer, expected: Compared, others: string[]) {
    let stamped = file(stampedBytes, 'stamped');
    let normal = file(normalBytes, 'normal');
    checkClean(stamped, expected.password);
    checkClean(normal, expected.password);
    if (expected.password !== undefined) {
      // Without the row's password the stamped document does not open; with it, it does.
      const refused = spawnSync('qpdf', ['--decrypt', stamped, `${stamped}-nopw.pdf`], { encoding: 'utf8' });
      expect(refused.status, `${label}: opened without its password`).not.toBe(0);
      expect(refused.stderr).toMatch(/password/i);
      const decrypt = (source: string) => {
        const target = `${source}-plain.pdf`;
        execFileSync('qpdf', [`--password=${expected.password}`, '--decrypt', source, target]);
        return target;
      };
      stamped = decrypt(stamped);
      normal = decrypt(normal);
    }
    const text = (pdf: string) => execFileSync('pdftotext', ['-layout', pdf, '-'], { encoding: 'utf8' });
    const stampedText = text(stamped);
    expect(stampedText, `${label}: text`).toBe(text(normal));
    for (const value of expected.present) expect(stampedText, `${label}: own value`).toContain(value);
    for (const value of others) expect(stampedText, `${label}: another row's value`).not.toContain(value);

    const stampedPages = render(stamped);
    const normalPages = render(normal);
    expect(stampedPages.length, `${label}: pages`).toBe(normalPages.length);
    for (const [page, image] of stampedPages.entries()) {
      const reference = normalPages[page]!;
      expect([image.width, image.height], `${label}: page ${page + 1} size`).toEqual([reference.width, reference.height]);
      let differing = 0;
      let changed = 0;
      let most = 0;
      for (let at = 0; at < reference.pixels.length; at++) {
        const delta = Math.abs(image.pixels[at]! - reference.pixels[at]!);
        if (delta > 0) changed++;
        if (delta > 64) differing++;
        most = Math.max(most, delta);
      }
      const share = differing / reference.pixels.length;
      diffs.push(`${label} page ${page + 1}: ${changed} pixels changed, ${differing} by > 64 (${(share * 100).toFixed(3)}%), largest ${most}`);
      expect(changed, `${label}: page ${page + 1} differs in ${changed} pixels, ${differing} of them by more than 64 grey levels (largest ${most})`).toBe(0);
    }
  }

  /** Every row compared; `values(row)` are the strings only that row's document may show. */
  function compareAll(name: string, merged: { stamped: Merged; normal: Merged }, values: (row: number) => string[], password?: (row: number) => string) {
    const count = merged.stamped.pdfs.length;
    diffs.push(`${name}: LibreOffice printed ${merged.stamped.printedPages} pages stamped, ${merged.normal.printedPages} the normal way`);
    for (let index = 0; index < count; index++) {
      const others = Array.from({ length: count }, (_, other) => other)
        .filter((other) => other !== index)
        .flatMap(values);
      compareRow(`${name}, row ${index + 1}`, merged.stamped.pdfs[index]!, merged.normal.pdfs[index]!, { present: values(index), password: password?.(index) }, others);
    }
  }

  it('a one-page letter: 12 rows print a few pages instead of 12, and every row looks the same', async () => {
    const sheet = sheetFromTable(['First', 'Last', 'Amount'], NAMES.map(([first, last], n) => [first, last, amount(n)]));
    const merged = await mergeBoth({ template: letter(), sheet });
    expect(merged.normal.printedPages).toBeGreaterThanOrEqual(12);
    expect(merged.stamped.printedPages).toBeLessThan(6);
    compareAll('letter', merged, (n) => [`Statement for ${NAMES[n]![0]} ${NAMES[n]![1]}`, `Dear ${NAMES[n]![0]} ${NAMES[n]![1]},`, amount(n)]);
  }, 60_000);

  it('a value that wraps to another line, or holds a line break, falls back for its row only', async () => {
    const long = 'EUR 1,234.56 including the late fee of EUR 12.00 charged on 3 March 2026';
    const amounts = NAMES.map((_, n) => (n === 3 ? long : n === 7 ? 'Line one\nLine two' : amount(n)));
    const sheet = sheetFromTable(['First', 'Last', 'Amount'], NAMES.map(([first, last], n) => [first, last, amounts[n]!]));
    const merged = await mergeBoth({ template: letter(), sheet });
    // The premise: row 4's balance sentence takes one more line than the others' (its end on the next line).
    const balance = (pdf: Buffer) => {
      const lines = execFileSync('pdftotext', ['-layout', file(pdf), '-'], { encoding: 'utf8' }).split('\n');
      const start = lines.findIndex((line) => line.includes('Your balance'));
      return lines.findIndex((line, at) => at >= start && line.includes('business.')) - start;
    };
    expect(balance(merged.normal.pdfs[0]!)).toBe(0);
    expect(balance(merged.normal.pdfs[3]!)).toBe(1);
    expect(merged.normal.printedPages).toBeGreaterThanOrEqual(12);
    expect(merged.stamped.printedPages).toBeLessThan(8);
    compareAll('letter with a long value and a line break', merged, (n) => [
      `Dear ${NAMES[n]![0]} ${NAMES[n]![1]},`,
      ...(n === 3 ? ['EUR 1,234.56 including the late fee'] : n === 7 ? ['Line one', 'Line two'] : [amount(n)]),
    ]);
  }, 60_000);

  it('a batch whose first row (the reference) wraps its value: every row still looks like the normal way', async () => {
    const long = 'EUR 1,234.56 including the late fee of EUR 12.00 charged on 3 March 2026';
    const amounts = NAMES.slice(0, 4).map((_, n) => (n === 0 ? long : amount(n)));
    const sheet = sheetFromTable(['First', 'Last', 'Amount'], NAMES.slice(0, 4).map(([first, last], n) => [first, last, amounts[n]!]));
    const merged = await mergeBoth({ template: letter(), sheet });
    compareAll('letter whose reference row wraps', merged, (n) => [`Dear ${NAMES[n]![0]} ${NAMES[n]![1]},`, n === 0 ? 'EUR 1,234.56 including the late fee' : amount(n)]);
  }, 60_000);

  it('centred, right-aligned, bold, 14 pt and justified paragraphs with fields', async () => {
    const justified =
      'This certificate confirms that the course of twelve weeks on the fundamentals of document automation was completed by ' +
      '{{First}} {{Last}}, who handed in every assignment on time and passed each examination.';
    const body = [
      aligned('center', r('Certificate for {{First}} {{Last}}')),
      statics(2),
      aligned('right', r('Issued in {{City}}')),
      p('A static paragraph between two fields.'),
      `<w:p>${r('Awarded to ')}${r('{{First}} {{Last}}', '<w:b/>')}${r(' with distinction.')}</w:p>`,
      p('Another static paragraph.'),
      `<w:p>${r('Grade: {{Grade}}', '<w:sz w:val="28"/><w:szCs w:val="28"/>')}</w:p>`,
      p('And one more.'),
      aligned('both', r(justified)),
      statics(2, 3),
    ].join('');
    const rows: Array<[string, string, string, string]> = [
      ['Zoë', 'Ångström', 'Malmö', 'A+'],
      ['Bo', 'Li', 'Xi’an', 'B'],
      ['Maximilian', 'Oberhauser-Schmidt', 'Garmisch-Partenkirchen', 'A−'],
      ['Inès', 'Moreau', 'Nîmes', 'C'],
      ['Søren', 'Kierkegård', 'Århus', 'E'],
      ['Kai', 'Nakamura', 'Ōsaka', 'D'],
    ];
    const sheet = sheetFromTable(['First', 'Last', 'City', 'Grade'], rows);
    const merged = await mergeBoth({ template: buildDocx({ body }), sheet });
    // The premise: the justified paragraph spans three lines for every row.
    for (const pdf of merged.normal.pdfs) {
      const lines = execFileSync('pdftotext', ['-layout', file(pdf), '-'], { encoding: 'utf8' }).split('\n');
      const start = lines.findIndex((line) => line.includes('This certificate confirms'));
      expect(lines.findIndex((line, at) => at >= start && line.includes('each examination.')) - start, lines.slice(start, start + 4).join('\n')).toBe(2);
    }
    expect(merged.stamped.printedPages).toBeLessThan(merged.normal.printedPages);
    compareAll('aligned and formatted', merged, (n) => [`Certificate for ${rows[n]![0]} ${rows[n]![1]}`, `Issued in ${rows[n]![2]}`, `Grade: ${rows[n]![3]}`]);
  }, 60_000);

  it('a two-page template: a field on page 2 and in the header of both pages', async () => {
    const body = [
      p('Dear {{First}} {{Last}},'),
      statics(6),
      pageBreak,
      statics(4, 7),
      p('Your reference is {{Ref}}; please quote it in every reply.'),
      statics(2, 11),
    ].join('');
    const rows = NAMES.slice(0, 4).map(([first, last], n) => [first, last, `REF-${n + 1}${n + 1}${n + 1}`]);
    const sheet = sheetFromTable(['First', 'Last', 'Ref'], rows);
    const merged = await mergeBoth({ template: buildDocx({ body, header: p('Statement for {{First}} {{Last}}') }), sheet });
    expect(merged.normal.printedPages).toBeGreaterThanOrEqual(8);
    expect(merged.stamped.printedPages).toBeLessThan(merged.normal.printedPages);
    for (const [n, pdf] of merged.stamped.pdfs.entries()) {
      const pages = execFileSync('pdftotext', ['-layout', file(pdf), '-'], { encoding: 'utf8' }).split('\f').filter((page) => page.trim());
      expect(pages).toHaveLength(2);
      for (const page of pages) expect(page).toContain(`Statement for ${rows[n]![0]} ${rows[n]![1]}`);
      expect(pages[1]).toContain(`Your reference is ${rows[n]![2]};`);
    }
    compareAll('two pages', merged, (n) => [`Dear ${rows[n]![0]} ${rows[n]![1]},`, rows[n]![2]!]);
  }, 60_000);

  it('a Word mail-merge template: MERGEFIELD fields, one with a date picture', async () => {
    const body = [
      `<w:p>${r('Dear ')}${mergeField('MERGEFIELD First', '«First»')}${r(' ')}${mergeField('MERGEFIELD Last', '«Last»')}${r(',')}</w:p>`,
      statics(3),
      `<w:p>${r('Your appointment is on ')}${mergeField('MERGEFIELD Date \\@ "dd.MM.yyyy"', '«Date»')}${r(' at our office.')}</w:p>`,
      statics(3, 4),
    ].join('');
    const dates = [[2026, 1, 5], [2026, 11, 28], [2027, 7, 14], [2026, 2, 28], [2028, 12, 31], [2026, 10, 1]];
    const shown = dates.map(([year, month, day]) => `${String(day).padStart(2, '0')}.${String(month).padStart(2, '0')}.${year}`);
    const sheet = sheetFromTable(['First', 'Last', 'Date'], NAMES.slice(0, 6).map(([first, last], n) => [first, last, new Date(Date.UTC(dates[n]![0]!, dates[n]![1]! - 1, dates[n]![2]!))]));
    const merged = await mergeBoth({ template: buildDocx({ body }), sheet });
    expect(merged.stamped.printedPages).toBeLessThan(merged.normal.printedPages);
    compareAll('MERGEFIELD', merged, (n) => [`Dear ${NAMES[n]![0]} ${NAMES[n]![1]},`, `Your appointment is on ${shown[n]} at our office.`]);
  }, 60_000);

  it('a business letter as Word styles it: a header taller than the top margin, a shaded table with borders, a shaded paragraph right below it, a right-aligned signature', async () => {
    const shaded = (fill: string, text: string) => `<w:tc><w:tcPr><w:tcW w:w="3000" w:type="dxa"/><w:shd w:val="clear" w:color="auto" w:fill="${fill}"/></w:tcPr>${p(text)}</w:tc>`;
    const borders = '<w:tblBorders>' + ['top', 'left', 'bottom', 'right', 'insideH', 'insideV'].map((side) => `<w:${side} w:val="single" w:sz="8" w:space="0" w:color="4F81BD"/>`).join('') + '</w:tblBorders>';
    const grid = `<w:tbl><w:tblPr><w:tblW w:w="9000" w:type="dxa"/>${borders}</w:tblPr><w:tblGrid><w:gridCol w:w="3000"/><w:gridCol w:w="3000"/><w:gridCol w:w="3000"/></w:tblGrid>` +
      `<w:tr>${shaded('D3DFEE', 'Item')}${shaded('D3DFEE', 'Qty')}${shaded('D3DFEE', 'Total')}</w:tr>` +
      `<w:tr>${shaded('FFFFFF', 'Subscription')}${shaded('FFFFFF', '1')}${shaded('FFFFFF', '{{Amount}}')}</w:tr></w:tbl>`;
    const note = '<w:p><w:pPr><w:shd w:val="clear" w:color="auto" w:fill="DDEEFF"/></w:pPr><w:r><w:t>A shaded static note that stays the same for every letter.</w:t></w:r></w:p>';
    const body = [
      `<w:p>${r('Dear ')}${r('{{First}}', '<w:i/><w:color w:val="C01010"/>')}${r(', here is your summary.')}</w:p>`,
      grid,
      note,
      aligned('right', r('Signed for {{First}} {{Last}} on {{Date}}')),
      statics(4),
    ].join('');
    // Three header lines at 16 pt: taller than the 1-inch top margin, so the body starts lower.
    const header = [p('ACME Ltd'), `<w:p>${r('Customer: {{First}} {{Last}}', '<w:sz w:val="32"/>')}</w:p>`, `<w:p>${r('Account {{Account}}', '<w:sz w:val="32"/>')}</w:p>`].join('');
    const rows = NAMES.slice(0, 8).map(([first, last], n) => [first, last, `AC-${1000 + n * 7}`, amount(n), `2026-11-${String(10 + n)}`]);
    const sheet = sheetFromTable(['First', 'Last', 'Account', 'Amount', 'Date'], rows);
    const merged = await mergeBoth({ template: buildDocx({ body, header }), sheet });
    expect(merged.normal.printedPages).toBeGreaterThanOrEqual(8);
    expect(merged.stamped.printedPages).toBeLessThan(5);
    compareAll('business letter', merged, (n) => [`Customer: ${rows[n]![0]} ${rows[n]![1]}`, `Account ${rows[n]![2]}`, rows[n]![3]!, `Signed for ${rows[n]![0]} ${rows[n]![1]} on ${rows[n]![4]}`]);
  }, 60_000);

  it('a batch whose reference cannot be matched prints whole; the merge\'s next batches are stamped again', async () => {
    // The first row leaves {{Note}} empty: its block prints nothing, so the first batch has nothing to match.
    const notes = ['', 'Note B', 'Note C', 'Note D', 'Note E', 'Note F', 'Note G', 'Note H', 'Note I'];
    const sheet = sheetFromTable(['First', 'Last', 'Note'], notes.map((note, n) => [NAMES[n]![0], NAMES[n]![1], note]));
    const template = buildDocx({ body: [p('Dear {{First}} {{Last}},'), p('{{Note}}'), statics(6)].join('') });
    const prepared = prepareWordMerge({ template, sheet, output: 'pdf', isCombinedOutput: false });
    const guess = { pages: 1 };
    const printed: number[] = [];
    for (const batch of prepared.batches(3)) {
      let pages = 0;
      const pdfs = await batchDocumentPdfs(batch, async (docx) => {
        const pdf = await office.toPdf(docx);
        pages += pageCount(pdf);
        return pdf;
      }, guess);
      printed.push(pages);
      for (const [position, pdf] of pdfs.entries()) {
        const index = batch.documents[position]!.index;
        const text = execFileSync('pdftotext', ['-layout', file(pdf), '-'], { encoding: 'utf8' });
        expect(text).toContain(`Dear ${NAMES[index]![0]} ${NAMES[index]![1]},`);
        if (notes[index]) expect(text).toContain(notes[index]);
        checkClean(file(pdf));
      }
    }
    // Batch 1: the stamp batch (2 pages) and then its 3 documents whole; batches 2 and 3: the stamp batch alone.
    expect(printed[0]).toBeGreaterThanOrEqual(3);
    expect(printed.slice(1)).toEqual([2, 2]);
  }, 60_000);

  it('a stamp batch LibreOffice fails to convert is printed the ordinary way, and the merge goes on', async () => {
    const sheet = sheetFromTable(['First', 'Last', 'Amount'], NAMES.slice(0, 4).map(([first, last], n) => [first, last, amount(n)]));
    const prepared = prepareWordMerge({ template: letter(), sheet, output: 'pdf', isCombinedOutput: false });
    let calls = 0;
    const toPdf = async (docx: Uint8Array) => {
      // The first conversion (the stamp batch) fails, as a crashed or timed-out LibreOffice would.
      if (calls++ === 0) throw new Error('LibreOffice stopped');
      return office.toPdf(docx);
    };
    const documents = [];
    for await (const document of wordDocuments(prepared, toPdf, 0, 1)) documents.push(document);
    expect(calls).toBe(2);
    expect(documents).toHaveLength(4);
    for (const [n, document] of documents.entries()) {
      const text = execFileSync('pdftotext', ['-layout', file(Buffer.concat(document.chunks)), '-'], { encoding: 'utf8' });
      expect(text).toContain(`Dear ${NAMES[n]![0]} ${NAMES[n]![1]},`);
    }
  }, 60_000);

  it('password protection: a stamped document opens with its own row\'s password only', async () => {
    const sheet = sheetFromTable(['First', 'Last', 'Amount'], NAMES.slice(0, 6).map(([first, last], n) => [first, last, amount(n)]));
    const merged = await mergeBoth({ template: letter(), sheet, passwordProtection: { readPassword: 'pw{{First}}', modifyPassword: '' } });
    expect(merged.stamped.printedPages).toBeLessThan(merged.normal.printedPages);
    compareAll('password', merged, (n) => [`Dear ${NAMES[n]![0]} ${NAMES[n]![1]},`, amount(n)], (n) => `pw${NAMES[n]![0]}`);
    // Another row's password does not open it either.
    const other = spawnSync('qpdf', [`--password=pw${NAMES[1]![0]}`, '--decrypt', file(merged.stamped.pdfs[0]!), path.join(dir, 'other.pdf')], { encoding: 'utf8' });
    expect(other.status).not.toBe(0);
  }, 60_000);
});
