/**
 * The documents of a stamp batch (docs/word-templates.md#stamped-batches), on PDFs built here in
 * LibreOffice's shape: reference pages (the first document whole), then pages of blocks with every
 * document's variable blocks between sentinels. Each document is the reference with its own blocks
 * moved into place; anything that cannot be matched exactly is refused.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PDFDocument, PDFName, PDFRawStream, decodePDFRawStream, type PDFRef } from 'pdf-lib';
import { afterAll, describe, expect, it } from 'vitest';
import { readPageContent, type PageContent } from './content-items.ts';
import { openStampPdf, type StampLayout } from './stamp-pdf.ts';

const A4: [number, number] = [595.275, 841.861];
const TALL: [number, number] = [595.275, 2000];
const layout: StampLayout = { zones: ['body', 'header'] };
const NAMES = ['Ada', 'Grace', 'Linus'];

const SENTINEL_COLOUR = '0.0705882352 0.2039215686 0.3372549019 rg';
/** One line of text as LibreOffice groups it. */
const line = (x: number, y: number, text: string) => `q 0 0 0 rg\nBT\n${x} ${y} Td /F1 11 Tf(${text})Tj\nET\nQ\n`;
const sentinel = (y: number) => `q ${SENTINEL_COLOUR}\nBT\n72 ${y} Td /F1 1 Tf(.)Tj\nET\nQ\n`;
/** LibreOffice's page: line width, the page clip, the groups, the clip's end. */
const page = (groups: string[], size: [number, number] = A4) => `0.1 w\nq 0 0.028 ${size[0]} ${size[1]} re\nW* n\n${groups.join('')}Q\n`;

/** The reference page of document 0 (or of `name`): header line, greeting, static lines. */
const letterPage = (name = 'Ada', extra: string[] = []) =>
  page([line(72, 790, `Ref. ${name}`), line(72, 700, `Dear ${name},`), line(72, 680, 'Thank you for your order.'), ...extra, line(72, 640, 'Yours sincerely')]);

/** A document's blocks (each a list of lines) as the stamp batch prints them: a sentinel, then each block followed by one. */
type Blocks = string[][];
const blocksOf = (name: string): Blocks => [[`Dear ${name},`], [`Ref. ${name}`]];

/**
 * A page of blocks: the template's header as the first document prints it (the section of the pages of
 * blocks keeps it), then each document's group from the top, 15 pt a line, 5 pt before each closing sentinel.
 */
function blocksPage(documents: readonly Blocks[], options: { dropSentinel?: number } = {}): string {
  const groups: string[] = [line(72, TALL[1] - 50, 'Ref. Ada')];
  let y = TALL[1] - 100;
  let index = 0;
  const mark = () => {
    if (index++ !== options.dropSentinel) groups.push(sentinel(y));
  };
  for (const blocks of documents) {
    mark();
    for (const block of blocks) {
      for (const text of block) {
        y -= 15;
        groups.push(line(72, y, text));
      }
      y -= 5;
      mark();
    }
    y -= 40;
  }
  return page(groups, TALL);
}

interface BatchOptions {
  reference?: string[];
  blocks?: string[];
  /** Give the pages of blocks /Resources of their own (same content, another object). */
  ownResources?: boolean;
}

/** A stamp batch PDF: reference pages then pages of blocks, one shared /Resources with Helvetica as /F1. */
async function stampBatchPdf(options: BatchOptions = {}): Promise<Uint8Array> {
  const reference = options.reference ?? [letterPage()];
  const blocks = options.blocks ?? [blocksPage(NAMES.map(blocksOf))];
  const doc = await PDFDocument.create();
  const { context } = doc;
  const resources = () => {
    const font = context.register(context.obj({ Type: 'Font', Subtype: 'Type1', BaseFont: 'Helvetica', Encoding: 'WinAnsiEncoding' }));
    return context.register(context.obj({ Font: { F1: font } }));
  };
  const shared = resources();
  const add = (content: string, size: [number, number], own: boolean) => {
    const added = doc.addPage(size);
    added.node.set(PDFName.of('Resources'), own ? resources() : shared);
    added.node.set(PDFName.of('Contents'), context.register(context.flateStream(content)));
  };
  for (const content of reference) add(content, A4, false);
  for (const content of blocks) add(content, TALL, options.ownResources === true);
  return doc.save();
}

/** Page `index` of a PDF: its content read as items, and the text of each item's group. */
async function pageItems(pdf: Uint8Array, index = 0): Promise<{ content: PageContent; groups: string[]; pages: number }> {
  const doc = await PDFDocument.load(pdf);
  const stream = doc.getPage(index).node.lookup(PDFName.of('Contents'));
  if (!(stream instanceof PDFRawStream)) throw new Error('expected one content stream');
  const data = decodePDFRawStream(stream).decode();
  const box = doc.getPage(index).getMediaBox();
  const content = readPageContent(data, { width: box.x + box.width, height: box.y + box.height });
  const groups = content.items.map((item) => new TextDecoder().decode(data.subarray(item.start, item.end)));
  return { content, groups, pages: doc.getPageCount() };
}

/** Where the item drawing `text` is on the page (its text origins), or undefined. */
function placeOf(read: { content: PageContent; groups: string[] }, text: string): number[] | undefined {
  const index = read.groups.findIndex((group) => group.includes(`(${text})`));
  return index < 0 ? undefined : read.content.items[index]!.anchors;
}

const scratch = mkdtempSync(path.join(tmpdir(), 'sheaf-stamp-pdf-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
let files = 0;
function onDisk(pdf: Uint8Array): string {
  const file = path.join(scratch, `doc-${files++}.pdf`);
  writeFileSync(file, pdf);
  return file;
}
const hasPdftotext = existsSync('/usr/bin/pdftotext');
const hasQpdf = existsSync('/usr/bin/qpdf');

describe('stamp batches: each document from the reference and its own blocks', () => {
  it('gives each document the reference page with its own block lines in the reference\'s place, static lines untouched', async () => {
    const pdf = await stampBatchPdf();
    const stamp = await openStampPdf(pdf, 3, layout);
    expect(stamp).toBeDefined();
    const reference = await pageItems(pdf, 0);
    for (const [index, name] of NAMES.entries()) {
      const out = stamp!.document(index);
      expect(out, `document ${index}`).toBeDefined();
      const read = await pageItems(out!);
      expect(read.pages).toBe(1);
      expect(read.content.loose).toBe(false);
      // The document's own lines, at the reference's places (moved there by a cm translation).
      expect(placeOf(read, `Dear ${name},`)).toEqual([72, 700]);
      expect(placeOf(read, `Ref. ${name}`)).toEqual([72, 790]);
      for (const other of NAMES.filter((candidate) => candidate !== name)) {
        expect(read.groups.some((group) => group.includes(other))).toBe(false);
      }
      // Static lines: the reference's groups, byte for byte, at their places.
      for (const text of ['Thank you for your order.', 'Yours sincerely']) {
        const original = reference.groups.find((group) => group.includes(`(${text})`))!;
        expect(read.groups).toContain(original);
        expect(placeOf(read, text)).toEqual(placeOf(reference, text));
      }
      if (hasPdftotext) {
        const text = execFileSync('/usr/bin/pdftotext', ['-layout', onDisk(out!), '-'], { encoding: 'utf8' });
        expect(text.split('\n').map((row) => row.trim()).filter(Boolean)).toEqual([`Ref. ${name}`, `Dear ${name},`, 'Thank you for your order.', 'Yours sincerely']);
      }
      if (hasQpdf) {
        // Exit status 0: no errors, no warnings.
        expect(() => execFileSync('/usr/bin/qpdf', ['--check', onDisk(out!)], { encoding: 'utf8' })).not.toThrow();
      }
    }
    expect(() => stamp!.document(3)).toThrow(RangeError);
  });

  it('puts a header block in place on every reference page', async () => {
    const second = page([line(72, 790, 'Ref. Ada'), line(72, 700, 'Page two, static.')]);
    const pdf = await stampBatchPdf({ reference: [letterPage(), second] });
    const stamp = await openStampPdf(pdf, 3, layout);
    expect(stamp).toBeDefined();
    const out = stamp!.document(2)!;
    const first = await pageItems(out, 0);
    const other = await pageItems(out, 1);
    expect(first.pages).toBe(2);
    expect(placeOf(first, 'Ref. Linus')).toEqual([72, 790]);
    expect(placeOf(other, 'Ref. Linus')).toEqual([72, 790]);
    expect(placeOf(other, 'Page two, static.')).toEqual([72, 700]);
    expect(other.groups.some((group) => group.includes('Ada'))).toBe(false);
  });

  it('leaves a document whose block is one line taller to the ordinary batch, the others stamped', async () => {
    const documents = NAMES.map(blocksOf);
    documents[1]![0]!.push('and family,');
    const stamp = await openStampPdf(await stampBatchPdf({ blocks: [blocksPage(documents)] }), 3, layout);
    expect(stamp).toBeDefined();
    expect(stamp!.document(0)).toBeDefined();
    expect(stamp!.document(1)).toBeUndefined();
    expect(placeOf(await pageItems(stamp!.document(2)!), 'Dear Linus,')).toEqual([72, 700]);
  });

  it('reads documents whose groups continue on a second page of blocks', async () => {
    const documents = NAMES.map(blocksOf);
    const pdf = await stampBatchPdf({ blocks: [blocksPage(documents.slice(0, 2)), blocksPage(documents.slice(2))] });
    const stamp = await openStampPdf(pdf, 3, layout);
    expect(stamp).toBeDefined();
    const read = await pageItems(stamp!.document(2)!);
    expect(placeOf(read, 'Dear Linus,')).toEqual([72, 700]);
    expect(placeOf(read, 'Ref. Linus')).toEqual([72, 790]);
  });

  it('matches a block whose neighbour in the reference is closer than the sentinels are (a table border right below it)', async () => {
    // In the pages of blocks a sentinel follows 5 pt below "Dear X,"; in the reference a rule is drawn 3 pt below it.
    const rule = 'q 0.25 w\n72 697 m\n300 697 l\nS\nQ\n';
    const stamp = await openStampPdf(await stampBatchPdf({ reference: [letterPage('Ada', [rule])] }), 3, layout);
    expect(stamp).toBeDefined();
    const read = await pageItems(stamp!.document(1)!);
    expect(placeOf(read, 'Dear Grace,')).toEqual([72, 700]);
    expect(read.groups).toContain(rule.trimEnd());
  });

  it('takes positions LibreOffice rounded to 0.1 pt on the pages of blocks as the same', async () => {
    // The pages of blocks put "and family" 15 pt below "Dear X,"; the reference, written to 3 decimals, 15.047 pt.
    const reference = page([line(72, 790, 'Ref. Ada'), line(72, 700.047, 'Dear Ada,'), line(72, 685, 'and family'), line(72, 640, 'Yours sincerely')]);
    const documents = NAMES.map((name): Blocks => [[`Dear ${name},`, 'and family'], [`Ref. ${name}`]]);
    const stamp = await openStampPdf(await stampBatchPdf({ reference: [reference], blocks: [blocksPage(documents)] }), 3, layout);
    expect(stamp).toBeDefined();
    // Each line lands where the reference printed that line, not where the pages of blocks rounded it to.
    const read = await pageItems(stamp!.document(2)!);
    expect(placeOf(read, 'Dear Linus,')!.map((value) => Number(value.toFixed(3)))).toEqual([72, 700.047]);
    expect(placeOf(read, 'and family')!.map((value) => Number(value.toFixed(3)))).toEqual([72, 685]);
    // 0.2 pt off is another place.
    const moved = page([line(72, 790, 'Ref. Ada'), line(72, 700.2, 'Dear Ada,'), line(72, 685, 'and family'), line(72, 640, 'Yours sincerely')]);
    expect(await openStampPdf(await stampBatchPdf({ reference: [moved], blocks: [blocksPage(documents)] }), 3, layout)).toBeUndefined();
  });

  describe('is not stamped (undefined) when', () => {
    it('a reference page has drawing outside the items (marked content)', async () => {
      const loose = letterPage().replace('W* n\n', 'W* n\n/Artifact BMC\n').replace(/Q\n$/, 'EMC\nQ\n');
      expect(await openStampPdf(await stampBatchPdf({ reference: [loose] }), 3, layout)).toBeUndefined();
    });


    it('a sentinel is missing', async () => {
      expect(await openStampPdf(await stampBatchPdf({ blocks: [blocksPage(NAMES.map(blocksOf), { dropSentinel: 4 })] }), 3, layout)).toBeUndefined();
    });

    it('the batch holds another number of documents than said', async () => {
      const pdf = await stampBatchPdf();
      expect(await openStampPdf(pdf, 2, layout)).toBeUndefined();
      expect(await openStampPdf(pdf, 4, layout)).toBeUndefined();
    });

    it('a block of the first document matches nothing in the reference', async () => {
      const reference = page([line(72, 790, 'Ref. Ada'), line(72, 700, 'Hello Ada,'), line(72, 680, 'Thank you for your order.'), line(72, 640, 'Yours sincerely')]);
      expect(await openStampPdf(await stampBatchPdf({ reference: [reference] }), 3, layout)).toBeUndefined();
      // Nor at another x.
      const shifted = page([line(72, 790, 'Ref. Ada'), line(90, 700, 'Dear Ada,'), line(72, 680, 'Thank you for your order.'), line(72, 640, 'Yours sincerely')]);
      expect(await openStampPdf(await stampBatchPdf({ reference: [shifted] }), 3, layout)).toBeUndefined();
    });

    it('a block of the first document matches twice (the same line also static elsewhere)', async () => {
      expect(await openStampPdf(await stampBatchPdf({ reference: [letterPage('Ada', [line(72, 660, 'Dear Ada,')])] }), 3, layout)).toBeUndefined();
      // Another static line there is fine.
      expect(await openStampPdf(await stampBatchPdf({ reference: [letterPage('Ada', [line(72, 660, 'Dear all,')])] }), 3, layout)).toBeDefined();
    });

    it('a header block is missing from one of two reference pages', async () => {
      const second = page([line(72, 700, 'Page two, static.')]);
      expect(await openStampPdf(await stampBatchPdf({ reference: [letterPage(), second] }), 3, layout)).toBeUndefined();
    });

    it('the pages do not share /Resources', async () => {
      const pdf = await stampBatchPdf({ ownResources: true });
      const doc = await PDFDocument.load(pdf);
      const refs = doc.getPages().map((each) => (each.node.get(PDFName.of('Resources')) as PDFRef).toString());
      expect(refs[0]).not.toBe(refs[1]);
      expect(await openStampPdf(pdf, 3, layout)).toBeUndefined();
    });
  });
});
