/**
 * The shape of the outputs, which is what makes the engine fast: per-row documents are the
 * template's own bytes plus a small incremental update; combined output shares the template pages
 * and adds a little per row; large combined merges are streamed in chunks.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  blankTemplate, concat, expectQpdfClean, fixture, mergeSeparate, pageTexts, pdfInfo, placeholder, prepare, run, scratch, table,
} from './test-support.ts';

const folder = scratch('structure');
afterAll(() => folder.remove());

const sheetOf = (count: number) => table(['Name', 'Amount'], Array.from({ length: count }, (_, i) => [`Person ${i + 1}`, 1000 + i]));
const placeholders = [
  placeholder({ id: 'name', column: 'Name', relativeY: 0.4 }),
  placeholder({ id: 'amount', type: 'number', column: 'Amount', relativeY: 0.5 }),
];

describe('per-row documents', () => {
  it.each(['classic-xref.pdf', 'xref-stream.pdf', 'linearized.pdf', 'incremental-2.pdf', 'hybrid-xref.pdf', 'long-200-pages.pdf'])(
    '%s: each document is the template’s exact bytes plus a small incremental update',
    async (name) => {
      const template = fixture(`corpus/${name}`);
      const { documents } = await mergeSeparate(folder, { template, sheet: sheetOf(3), placeholders });
      expect(documents).toHaveLength(3);
      for (const document of documents) {
        expectQpdfClean(document.file);
        expect(Buffer.from(document.bytes.subarray(0, template.length)).equals(Buffer.from(template))).toBe(true);
        // The update after the template: shared fonts and page dictionaries, then the row's own objects.
        expect(document.bytes.length - template.length).toBeLessThan(4 * 1024);
        const own = concat(document.chunks.slice(document.sharedPrefixChunks)).length;
        expect(own).toBeLessThan(1024);
        // The update chains to the template's cross-reference data (qpdf reads both sections).
        const tail = Buffer.from(document.bytes.subarray(template.length)).toString('latin1');
        expect(tail).toMatch(/\/Prev \d+/);
      }
      // The shared prefix is the same bytes, not a copy per row.
      expect(documents[1]!.sharedPrefixChunks).toBe(documents[0]!.sharedPrefixChunks);
      for (let i = 0; i < documents[0]!.sharedPrefixChunks; i++) expect(documents[1]!.chunks[i]).toBe(documents[0]!.chunks[i]);
    },
  );

  it('each row costs only its own bytes, however many rows there are', async () => {
    const template = fixture('corpus/classic-xref.pdf');
    const merge = await prepare({ template, sheet: sheetOf(200), placeholders });
    const sizes = [...merge.documents()].map((document) => document.byteLength);
    expect(sizes).toHaveLength(200);
    expect(Math.max(...sizes) - Math.min(...sizes)).toBeLessThan(64);
  });
});

describe('combined output', () => {
  let template: Uint8Array;
  beforeAll(async () => {
    template = await blankTemplate([{ label: 'ONE PAGE TEMPLATE' }]);
  });

  it('1,000 rows on a one-page template cost at most 1 KiB per page', async () => {
    const merge = await prepare({ template, sheet: sheetOf(1000), placeholders, options: { isCombinedOutput: true } });
    const bytes = concat([...merge.combined()]);
    expect(bytes.length).toBeLessThanOrEqual(template.length + 1000 * 1024);
    const file = folder.write('thousand.pdf', bytes);
    expectQpdfClean(file);
    expect(pdfInfo(file).pages).toBe(1000);
    const pages = pageTexts(file);
    expect(pages[999]).toContain('Person 1000');
    expect(pages[999]).toContain('1,999');
    expect(pages[999]).toContain('ONE PAGE TEMPLATE');
  });

  it('streams 2,000 rows as many chunks, none of them the whole file', async () => {
    const merge = await prepare({ template, sheet: sheetOf(2000), placeholders, options: { isCombinedOutput: true } });
    const generator = merge.combined();
    const first = generator.next();
    expect(first.done).toBe(false);
    const chunks = [first.value as Uint8Array, ...generator];
    const total = chunks.reduce((sum, chunk) => sum + chunk.length, 0);
    expect(chunks.length).toBeGreaterThan(10);
    expect(Math.max(...chunks.map((chunk) => chunk.length))).toBeLessThan(total / 4);
    const file = folder.write('two-thousand.pdf', concat(chunks));
    expectQpdfClean(file);
    expect(pdfInfo(file).pages).toBe(2000);
    // A deep page tree: qpdf finds every page, the last one with its own row.
    expect(run('pdftotext', ['-f', '2000', '-l', '2000', file, '-']).stdout).toContain('Person 2000');
  });
});
