/**
 * Every template of the real-world corpus through the whole merge: per-row documents and the combined
 * document, checked with qpdf, pdftotext, pdfinfo and a QR scanner; damaged files refused or repaired;
 * files that are not templates refused with the catalogue's error.
 */
import { afterAll, describe, expect, it } from 'vitest';
import {
  corpus, decodeQr, expectQpdfClean, expectSheafError, fixture, mergeCombined, mergeSeparate, pageTexts, pdfInfo,
  placeholder, prepare, render, scratch, table, type CorpusEntry, type MergeRequest,
} from './test-support.ts';

const folder = scratch('corpus');
afterAll(() => folder.remove());

const entries = corpus();
const ok = entries.filter((entry) => entry.expect === 'ok');
const repair = entries.filter((entry) => entry.expect === 'repair');
const refuse = entries.filter((entry) => entry.expect === 'refuse');

const ROWS = [
  { recipient: 'RCPT-ALPHA', amount: 1234.5, amountText: '1,234.5', when: new Date(Date.UTC(2024, 0, 15)), whenText: '15/01/2024', link: 'https://example.com/a?id=1', footer: 'FOOT-ONE' },
  { recipient: 'RCPT-BRAVO', amount: 98765, amountText: '98,765', when: 45000, whenText: '15/03/2023', link: 'https://example.com/b?id=2', footer: 'FOOT-TWO' },
  { recipient: 'RCPT-CHARLIE', amount: 0.25, amountText: '0.25', when: '2023-12-31', whenText: '31/12/2023', link: 'https://example.com/c?id=3', footer: 'FOOT-THREE' },
];

/** Text, number, date and QR code on page 1, text on the last page. */
function request(template: Uint8Array, pages: number): MergeRequest {
  return {
    template,
    sheet: table(['Recipient', 'Amount', 'When', 'Link', 'Footer'], ROWS.map((row) => [row.recipient, row.amount, row.when, row.link, row.footer])),
    placeholders: [
      placeholder({ id: 'recipient', column: 'Recipient', relativeY: 0.5 }),
      placeholder({ id: 'amount', type: 'number', column: 'Amount', relativeY: 0.57 }),
      placeholder({ id: 'when', type: 'date', column: 'When', relativeY: 0.64 }),
      placeholder({ id: 'link', type: 'qrcode', column: 'Link', relativeX: 0.55, relativeY: 0.72, relativeWidth: 0.4, relativeHeight: 0.26 }),
      placeholder({ id: 'footer', column: 'Footer', pageNumber: pages, relativeY: 0.9, relativeWidth: 0.4 }),
    ],
  };
}

function rowValues(row: (typeof ROWS)[number]): string[] {
  return [row.recipient, row.amountText, row.whenText, row.footer];
}

describe('corpus templates that merge as they are', () => {
  it.each(ok.map((entry) => [entry.file, entry] as const))('%s: one document per row, each with its own values', async (_name, entry) => {
    const { documents } = await mergeSeparate(folder, request(fixture(entry.file), entry.pages));
    expect(documents).toHaveLength(3);
    expect(documents.map((document) => document.rowNumbers)).toEqual([[2], [3], [4]]);
    documents.forEach((document, index) => {
      expectQpdfClean(document.file);
      expect(pdfInfo(document.file).pages).toBe(entry.pages);
      const pages = pageTexts(document.file);
      const row = ROWS[index]!;
      for (const value of [row.recipient, row.amountText, row.whenText]) expect(pages[0]).toContain(value);
      expect(pages[entry.pages - 1]).toContain(row.footer);
      const all = pages.join('\n');
      for (const own of entry.text) expect(all).toContain(own);
      for (const other of ROWS.filter((_, i) => i !== index)) for (const value of [other.recipient, other.footer]) expect(all).not.toContain(value);
      expect(decodeQr(render(document.file, 1, { dpi: 72 }))).toBe(row.link);
    });
  });

  it.each(ok.map((entry) => [entry.file, entry] as const))('%s: one combined document of rows x pages pages', async (_name, entry) => {
    const { bytes, file } = await mergeCombined(folder, request(fixture(entry.file), entry.pages));
    expect(bytes.length).toBeGreaterThan(0);
    expectQpdfClean(file);
    expect(pdfInfo(file).pages).toBe(3 * entry.pages);
    const pages = pageTexts(file);
    ROWS.forEach((row, index) => {
      const first = pages[index * entry.pages]!;
      for (const value of [row.recipient, row.amountText, row.whenText]) expect(first).toContain(value);
      expect(pages[(index + 1) * entry.pages - 1]).toContain(row.footer);
      const rowText = pages.slice(index * entry.pages, (index + 1) * entry.pages).join('\n');
      for (const own of entry.text) expect(rowText).toContain(own);
    });
    expect(decodeQr(render(file, 1 + entry.pages, { dpi: 72 }))).toBe(ROWS[1]!.link);
  });
});

/** pdf-lib 1.17 cannot read it (qpdf and poppler can): refused as corrupt, with or without repair. */
const UNRECOVERABLE = new Set(['corpus/damaged-truncated.pdf']);

describe('damaged corpus templates', () => {
  const refusable = repair.filter((entry) => !UNRECOVERABLE.has(entry.file));

  it.each(refusable.map((entry) => [entry.file, entry] as const))('%s: refused without repair', async (_name, entry) => {
    await expectSheafError(prepare(request(fixture(entry.file), entry.pages)), 'template/damaged');
  });

  async function mergesWithRepair(entry: CorpusEntry): Promise<void> {
    const repaired = { ...request(fixture(entry.file), entry.pages), options: { isTryRepair: true } };
    const { documents } = await mergeSeparate(folder, repaired);
    expect(documents).toHaveLength(3);
    documents.forEach((document, index) => {
      expectQpdfClean(document.file);
      expect(pdfInfo(document.file).pages).toBe(entry.pages);
      const all = pageTexts(document.file).join('\n');
      for (const value of rowValues(ROWS[index]!)) expect(all).toContain(value);
      for (const own of entry.text) expect(all).toContain(own);
    });
    const combined = await mergeCombined(folder, repaired);
    expectQpdfClean(combined.file);
    expect(pdfInfo(combined.file).pages).toBe(3 * entry.pages);
  }

  it.each(refusable.map((entry) => [entry.file, entry] as const))('%s: merged with repair', async (_name, entry) => mergesWithRepair(entry));

  it.each([...UNRECOVERABLE])('%s: refused as corrupt, with or without repair', async (file) => {
    await expectSheafError(prepare(request(fixture(file), 2)), 'template/corrupt');
    await expectSheafError(prepare({ ...request(fixture(file), 2), options: { isTryRepair: true } }), 'template/corrupt');
  });
});

describe('files that are not usable templates', () => {
  it.each(refuse.map((entry) => [entry.file, entry] as const))('%s: refused with its catalogue error', async (_name, entry: CorpusEntry) => {
    expect(entry.error).toBeDefined();
    await expectSheafError(prepare(request(fixture(entry.file), 1)), entry.error!);
    await expectSheafError(prepare({ ...request(fixture(entry.file), 1), options: { isTryRepair: true } }), entry.error!);
  });
});
