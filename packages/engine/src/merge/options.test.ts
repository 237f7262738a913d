/**
 * Output options of docs/merging.md#output-options: placeholders only, repair, compression, watermark
 * and file names. Each checked on the written files with qpdf, pdfinfo, pdftotext and pixels.
 */
import { afterAll, describe, expect, it } from 'vitest';
import {
  concat, expectQpdfClean, expectSheafError, fixture, inkIn, mergeCombined, mergeSeparate, pageTexts, pdfInfo, pdfText, placeholder, prepare,
  render, scratch, table, wordBoxes,
} from './test-support.ts';

const folder = scratch('options');
afterAll(() => folder.remove());

const latin1 = (bytes: Uint8Array) => Buffer.from(bytes).toString('latin1');

describe('isOnlyPlaceholdersOutput', () => {
  it.each(['rotated.pdf', 'cropbox-offset.pdf', 'inherited-attributes.pdf', 'negative-origin.pdf'])(
    '%s: values on blank pages of the template’s sizes and rotations',
    async (name) => {
      const template = fixture(`corpus/${name}`);
      const templateFile = folder.write(name, template);
      const pages = pdfInfo(templateFile).pages;
      const own = pdfText(templateFile).split(/\s+/).filter((word) => word.startsWith('CORPUS-'));
      expect(own.length).toBeGreaterThan(0);
      const request = {
        template,
        sheet: table(['Name'], [['ONLY-VALUE-A'], ['ONLY-VALUE-B']]),
        placeholders: Array.from({ length: pages }, (_, i) => placeholder({ id: `p${i}`, column: 'Name', pageNumber: i + 1, relativeX: 0.3, relativeY: 0.5 })),
        options: { isOnlyPlaceholdersOutput: true },
      };
      const { documents } = await mergeSeparate(folder, request);
      const combined = await mergeCombined(folder, request);
      for (const file of [documents[0]!.file, documents[1]!.file, combined.file]) {
        expectQpdfClean(file);
        const text = pdfText(file);
        for (const word of own) expect(text).not.toContain(word);
      }
      const templateInfo = pdfInfo(templateFile).pageInfo;
      expect(pdfInfo(documents[1]!.file).pageInfo).toEqual(templateInfo);
      expect(pdfInfo(combined.file).pageInfo).toEqual([...templateInfo, ...templateInfo]);
      expect(pageTexts(documents[1]!.file).map((page) => page.trim())).toEqual(Array(pages).fill('ONLY-VALUE-B'));
      // The value sits where it would on the full template.
      const full = await mergeSeparate(folder, { ...request, options: {} });
      const at = (file: string) => wordBoxes(file, 1).find((word) => word.word === 'ONLY-VALUE-A')!;
      expect(at(documents[0]!.file)).toEqual(at(full.documents[0]!.file));
    },
  );
});

describe('isTryRepair', () => {
  it('repairs a damaged template only when asked, and the repaired output is sound', async () => {
    const request = {
      template: fixture('corpus/damaged-wrong-offsets.pdf'),
      sheet: table(['Name'], [['REPAIRED-ROW']]),
      placeholders: [placeholder({ column: 'Name' })],
    };
    await expectSheafError(prepare(request), 'template/damaged');
    const { documents } = await mergeSeparate(folder, { ...request, options: { isTryRepair: true } });
    expectQpdfClean(documents[0]!.file);
    expect(pdfText(documents[0]!.file)).toContain('REPAIRED-ROW');
    expect(pdfText(documents[0]!.file)).toContain('CORPUS-WRONG-OFFSETS');
  });
});

describe('isCompressedOutput', () => {
  it('stores the rows’ content streams uncompressed when off, with the same text', async () => {
    const long = Array.from({ length: 120 }, (_, i) => `word${i}`).join(' ');
    const request = (isCompressedOutput: boolean) => ({
      template: fixture('corpus/classic-xref.pdf'),
      sheet: table(['Long'], [[long]]),
      placeholders: [placeholder({ column: 'Long', relativeY: 0.2, relativeHeight: 0.6 })],
      options: { isCompressedOutput },
    });
    const compressed = (await mergeSeparate(folder, request(true))).documents[0]!;
    const plain = (await mergeSeparate(folder, request(false))).documents[0]!;
    // What each document adds after the prefix all documents share.
    const added = (document: typeof plain) => latin1(concat(document.chunks.slice(document.sharedPrefixChunks)));
    expect(added(compressed)).toContain('/FlateDecode');
    expect(added(plain)).not.toContain('/FlateDecode');
    expect(added(plain)).toMatch(/stream\r?\n[^]{1024,}?endstream/);
    expect(plain.bytes.length).toBeGreaterThan(compressed.bytes.length + 500);
    for (const document of [compressed, plain]) expectQpdfClean(document.file);
    expect(pdfText(plain.file)).toBe(pdfText(compressed.file));
    expect(pdfText(plain.file).replace(/\s+/g, ' ')).toContain(long);
  });
});

describe('watermark', () => {
  it('prints the watermark on every page, with or without placeholders, in both outputs', async () => {
    const request = {
      template: fixture('corpus/rotated.pdf'),
      sheet: table(['Name'], [['WM-ROW-A'], ['WM-ROW-B']]),
      placeholders: [placeholder({ column: 'Name' })],
      options: { watermark: 'SHEAF FREE PLAN' },
    };
    const { documents } = await mergeSeparate(folder, request);
    const combined = await mergeCombined(folder, request);
    for (const file of [documents[0]!.file, combined.file]) {
      expectQpdfClean(file);
      const pages = pageTexts(file, { raw: true });
      expect(pages.length).toBeGreaterThanOrEqual(3);
      // Diagonal glyphs come back letter by letter on some rotations: compare without spaces.
      for (const page of pages) expect(page.replace(/\s+/g, '')).toContain('SHEAFFREEPLAN');
    }
    // Light grey ink across the middle of a page without placeholders.
    const templateFile = folder.write('rotated.pdf', fixture('corpus/rotated.pdf'));
    const centre = { x: 0.3, y: 0.3, width: 0.4, height: 0.4 };
    const grey = (file: string) => {
      const image = render(file, 3, { dpi: 40 });
      return inkIn(image, centre, 240) - inkIn(image, centre, 100);
    };
    expect(grey(templateFile)).toBe(0);
    expect(grey(documents[0]!.file)).toBeGreaterThan(50);
  });
});

describe('fileNamePattern', () => {
  it('names documents from the row’s columns, unique, with unsafe characters removed', async () => {
    const rows = [
      ['Smith', 'John'],
      ['Smith', 'John'],
      ['smith', 'john'],
      ['O/Brien: "The*Best"?', 'Ann<1>|x'],
      ['', ''],
    ];
    const { documents } = await mergeSeparate(folder, {
      template: fixture('corpus/classic-xref.pdf'),
      sheet: table(['First', 'Last'], rows.map(([last, first]) => [first!, last!])),
      placeholders: [placeholder({ column: 'First' })],
      options: { fileNamePattern: '{{Last}}-{{First}}' },
    });
    const names = documents.map((document) => document.fileName);
    expect(names.slice(0, 3)).toEqual(['Smith-John.pdf', 'Smith-John (2).pdf', 'smith-john (3).pdf']);
    expect(new Set(names.map((name) => name.toLowerCase())).size).toBe(names.length);
    for (const name of names) {
      expect(name).toMatch(/\.pdf$/);
      expect(name).not.toMatch(/[/\\:*?"<>|]/);
    }
    expect(names[3]).toContain('O-Brien');
    expect(names[3]).toContain('Ann');
    // Nothing usable left: named after the row.
    expect(names[4]).toBe('document-6.pdf');
  });

  it('refuses a pattern naming a column the sheet does not have', async () => {
    await expectSheafError(
      prepare({
        template: fixture('corpus/classic-xref.pdf'),
        sheet: table(['First'], [['A']]),
        placeholders: [placeholder({ column: 'First' })],
        options: { fileNamePattern: '{{Surname}}' },
      }),
      'merge/file-name-tag-unknown',
    );
  });

  it('gives the same names when the documents are made a second time', async () => {
    const merge = await prepare({
      template: fixture('corpus/classic-xref.pdf'),
      sheet: table(['First'], [['Ann'], ['Ben']]),
      placeholders: [placeholder({ column: 'First' })],
      options: { fileNamePattern: '{{First}}' },
    });
    const first = [...merge.documents()].map((document) => document.fileName);
    const second = [...merge.documents()].map((document) => document.fileName);
    expect(first).toEqual(['Ann.pdf', 'Ben.pdf']);
    expect(second).toEqual(first);
  });
});
