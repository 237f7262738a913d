/**
 * Number, date and QR-code placeholders through the whole merge: what pdftotext reads back and what
 * a QR scanner decodes from the rendered page, row by row.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  blankTemplate, decodeQr, expectQpdfClean, mergeCombined, mergeSeparate, pdfText, placeholder, render, scratch, table,
} from './test-support.ts';
import type { DateFormat, NumberFormat, Placeholder } from '@sheaf/shared';

const folder = scratch('values');
afterAll(() => folder.remove());

let template: Uint8Array;
beforeAll(async () => {
  template = await blankTemplate([{ label: 'VALUES TEMPLATE' }]);
});

/** Lines of a page's text, with every kind of space made a plain one. */
function lines(file: string, page?: number): string[] {
  return pdfText(file, page ? { first: page, last: page } : {})
    .replace(/[\u00a0\u202f]/g, ' ')
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
}

function stacked(type: 'number' | 'date', column: string, settings: Array<Partial<NumberFormat> | Partial<DateFormat>>): Placeholder[] {
  return settings.map((format, i) =>
    placeholder({
      id: `${type}${i}`,
      type,
      column,
      relativeY: 0.1 + i * 0.07,
      typeSettings: type === 'number' ? { numberFormat: format as NumberFormat } : { dateFormat: format as DateFormat },
    }),
  );
}

describe('number placeholders', () => {
  it('format each row with the decimals, separators, currency and percent asked for', async () => {
    const formats: Array<Partial<NumberFormat>> = [
      {},
      { locale: 'de-DE', decimals: 2 },
      { style: 'currency', currency: 'USD', decimals: 2 },
      { style: 'currency', currency: 'EUR', locale: 'de-DE', decimals: 2 },
      { style: 'percent', decimals: 0 },
      { thousandsSeparator: false, decimals: 1 },
    ];
    const rows: Array<[unknown, string[]]> = [
      [1234.5, ['1,234.5', '1.234,50', '$1,234.50', '1.234,50 €', '123,450%', '1234.5']],
      [0.25, ['0.25', '0,25', '$0.25', '0,25 €', '25%', '0.3']],
      [-42, ['-42', '-42,00', '-$42.00', '-42,00 €', '-4,200%', '-42.0']],
      // A number typed as text (CSV cells are text) is read as the number it is.
      ['1234.5', ['1,234.5', '1.234,50', '$1,234.50', '1.234,50 €', '123,450%', '1234.5']],
    ];
    const { documents } = await mergeSeparate(folder, {
      template,
      sheet: table(['Amount'], rows.map(([value]) => [value as number])),
      placeholders: stacked('number', 'Amount', formats),
    });
    expect(documents).toHaveLength(rows.length);
    documents.forEach((document, i) => {
      expectQpdfClean(document.file);
      expect(lines(document.file)).toEqual(['VALUES TEMPLATE', ...rows[i]![1]]);
    });
  });
});

describe('date placeholders', () => {
  const formats: Array<Partial<DateFormat>> = [
    {},
    { format: 'YYYY-MM-DD' },
    { format: 'MM/DD/YYYY' },
    { format: 'D MMMM YYYY', locale: 'en-GB' },
    { format: 'dddd, D MMMM YYYY', locale: 'de-DE' },
    { format: 'custom', customFormat: '[Due] DD.MM.YY' },
  ];
  const expected = ['05/03/2024', '2024-03-05', '03/05/2024', '5 March 2024', 'Dienstag, 5 März 2024', 'Due 05.03.24'];

  it('print the same day from a Date cell, an Excel serial number and an ISO text', async () => {
    const cells = [new Date(Date.UTC(2024, 2, 5)), 45356, '2024-03-05'];
    const { documents } = await mergeSeparate(folder, {
      template,
      sheet: table(['Due'], cells.map((cell) => [cell])),
      placeholders: stacked('date', 'Due', formats),
    });
    expect(documents).toHaveLength(3);
    for (const document of documents) {
      expectQpdfClean(document.file);
      expect(lines(document.file)).toEqual(['VALUES TEMPLATE', ...expected]);
    }
  });

  it('print each row its own date in combined output', async () => {
    const { file } = await mergeCombined(folder, {
      template,
      sheet: table(['Due'], [[new Date(Date.UTC(1999, 11, 31))], [45000], ['2030-01-02']]),
      placeholders: stacked('date', 'Due', [{ format: 'YYYY-MM-DD' }]),
    });
    expectQpdfClean(file);
    expect([1, 2, 3].map((page) => lines(file, page)[1])).toEqual(['1999-12-31', '2023-03-15', '2030-01-02']);
  });
});

describe('QR code placeholders', () => {
  const links = ['https://example.com/invoice?id=1001&c=Smith', 'Zoë Ærø — 東京 🎉', 'MECARD:N:Doe,John;TEL:+441234567890;;'];

  it('encode each row its own value, read back by a scanner from the rendered page', async () => {
    const { documents } = await mergeSeparate(folder, {
      template,
      sheet: table(['Link'], links.map((link) => [link])),
      placeholders: [
        placeholder({ id: 'qr', type: 'qrcode', column: 'Link', relativeX: 0.3, relativeY: 0.3, relativeWidth: 0.4, relativeHeight: 0.3, typeSettings: { errorCorrection: 'Q' } }),
      ],
    });
    expect(documents).toHaveLength(3);
    documents.forEach((document, i) => {
      expectQpdfClean(document.file);
      expect(decodeQr(render(document.file, 1, { dpi: 72 }))).toBe(links[i]);
    });
  });

  it('draws in the placeholder colour and leaves the rest of the box white', async () => {
    const { documents } = await mergeSeparate(folder, {
      template,
      sheet: table(['Link'], [[links[0]]]),
      placeholders: [placeholder({ id: 'qr', type: 'qrcode', column: 'Link', relativeX: 0.3, relativeY: 0.3, relativeWidth: 0.4, relativeHeight: 0.3, fill: '#003399' })],
    });
    const image = render(documents[0]!.file, 1, { dpi: 72, colour: true });
    const colours = new Set<string>();
    for (let i = 0; i < image.pixels.length; i += 3) {
      const [r, g, b] = [image.pixels[i]!, image.pixels[i + 1]!, image.pixels[i + 2]!];
      if (r > 200 && g > 200 && b > 200) continue;
      colours.add(b > 100 && r < 60 ? 'blue' : 'other');
    }
    // The label is black ("other"); the symbol's modules are blue.
    expect(colours).toEqual(new Set(['blue', 'other']));
    const grey = render(documents[0]!.file, 1, { dpi: 72 });
    expect(decodeQr(grey)).toBe(links[0]);
  });

  it('skip a row whose text is too long for a QR code, with an issue, and make the others', async () => {
    const { documents, merge } = await mergeSeparate(folder, {
      template,
      sheet: table(['Link'], [['short-one'], ['x'.repeat(3000)], ['short-two']]),
      placeholders: [placeholder({ id: 'qr', type: 'qrcode', column: 'Link', relativeX: 0.3, relativeY: 0.3, relativeWidth: 0.4, relativeHeight: 0.3 })],
    });
    expect(documents.map((document) => document.rowNumbers)).toEqual([[2], [4]]);
    expect(merge.issues).toEqual([expect.objectContaining({ rowNumber: 3, code: 'merge/qr-too-long' })]);
    expect(decodeQr(render(documents[1]!.file, 1, { dpi: 72 }))).toBe('short-two');
  });
});
