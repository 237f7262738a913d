/**
 * Cutting a batch PDF at its rows' named destinations (docs/word-templates.md#pdf-output-in-batches),
 * on PDFs made here with pdf-lib: destinations in the /Names tree, page attributes inherited from the
 * page tree, and the refusals.
 */
import { PDFDocument, PDFName, PDFString, StandardFonts } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { openBatchPdf } from './split.ts';

/** `pages` pages, page i showing "Page i"; destinations name -> page index in a /Names /Dests tree. */
async function batchPdf(pages: number, destinations: Record<string, number>): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let index = 0; index < pages; index++) doc.addPage([300, 400]).drawText(`Page ${index}`, { x: 20, y: 300, font });
  const refs = doc.getPages().map((page) => page.ref);
  const pairs = Object.entries(destinations).sort(([a], [b]) => (a < b ? -1 : 1)).flatMap(([name, page]) => [PDFString.of(name), doc.context.obj([refs[page]!, 'XYZ', null, null, 0])]);
  doc.catalog.set(PDFName.of('Names'), doc.context.obj({ Dests: doc.context.register(doc.context.obj({ Names: pairs })) }));
  return doc.save({ useObjectStreams: false });
}

describe('cutting a batch PDF into one PDF per row', () => {
  it('cuts at each row\'s destination; every document is a PDF of its own pages', async () => {
    const pdf = await batchPdf(5, { SheafRow0: 0, SheafRow1: 1, SheafRow2: 4 });
    const batch = await openBatchPdf(pdf, 3);
    expect(batch.ranges).toEqual([{ first: 0, last: 0 }, { first: 1, last: 3 }, { first: 4, last: 4 }]);
    const counts = [];
    for (let row = 0; row < 3; row++) {
      const doc = await PDFDocument.load(batch.document(row));
      counts.push(doc.getPageCount());
      expect(doc.getPage(0).getSize()).toEqual({ width: 300, height: 400 });
    }
    expect(counts).toEqual([1, 3, 1]);
  });

  it('refuses a PDF lacking a row\'s destination, or whose rows are out of order', async () => {
    await expect(openBatchPdf(await batchPdf(3, { SheafRow0: 0, SheafRow2: 2 }), 3)).rejects.toMatchObject({ code: 'merge/word-pdf-row-missing', params: { row: 2 } });
    await expect(openBatchPdf(await batchPdf(3, { SheafRow0: 0, SheafRow1: 2, SheafRow2: 1 }), 3)).rejects.toMatchObject({ code: 'merge/word-pdf-row-missing', params: { row: 3 } });
  });
});
