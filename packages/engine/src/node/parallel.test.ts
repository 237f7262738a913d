import { describe, expect, it } from 'vitest';
import { PDFDocument } from 'pdf-lib';
import { PlaceholderSchema } from '@sheaf/shared';
import { prepareMerge } from '../merge/index.ts';
import { sheetFromTable } from '../sheet/table.ts';
import { loadBundledFallbackFonts } from './fonts.ts';
import { mergeDocumentsInParallel } from './parallel.ts';
import type { MergeInput } from '../merge/types.ts';

async function input(): Promise<MergeInput> {
  const doc = await PDFDocument.create();
  doc.addPage([300, 400]).drawText('Template', { x: 20, y: 360 });
  const rows = Array.from({ length: 45 }, (_, i) => [i % 4 === 0 ? 'Smith' : `Name ${i}`, i === 7 ? 'missing.png' : '']);
  return {
    template: await doc.save(),
    placeholders: [
      PlaceholderSchema.parse({ id: 'n', column: 'Name', pageNumber: 1, relativeX: 0.1, relativeY: 0.3, relativeWidth: 0.8, relativeHeight: 0.1 }),
      PlaceholderSchema.parse({ id: 'i', type: 'image', column: 'Photo', pageNumber: 1, relativeX: 0.1, relativeY: 0.5, relativeWidth: 0.3, relativeHeight: 0.3 }),
    ],
    sheet: sheetFromTable(['Name', 'Photo'], rows),
    options: { fileNamePattern: '{{Name}}' },
    fallbackFonts: await loadBundledFallbackFonts(),
  };
}

describe('mergeDocumentsInParallel', () => {
  it('makes the same documents, names and skipped rows as one thread, in order', async () => {
    const merge = await input();
    const single = await prepareMerge(merge);
    const expected = [...single.documents()].map((d) => ({ name: d.fileName, bytes: Buffer.concat(d.chunks).toString('latin1') }));

    const parallel = mergeDocumentsInParallel(merge, { workers: 2, batchSize: 4 });
    const actual: typeof expected = [];
    for await (const d of parallel.documents) actual.push({ name: d.fileName, bytes: Buffer.concat(d.chunks).toString('latin1') });

    expect(actual.map((d) => d.name)).toEqual(expected.map((d) => d.name));
    expect(actual.map((d) => d.name)).toContain('Smith (2).pdf');
    expect(actual).toEqual(expected);
    expect(parallel.issues.map((issue) => issue.rowNumber)).toEqual([9]);
  });
});
