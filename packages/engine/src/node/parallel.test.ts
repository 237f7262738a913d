import { describe, expect, it } from 'vitest';
import { PDFDocument } from 'pdf-lib';
import { PlaceholderSchema } from '@sheaf/shared';
import { prepareMerge } from '../merge/index.ts';
import { sheetFromTable } from '../sheet/table.ts';
import { loadBundledFallbackFonts } from './fonts.ts';
import { mergeDocumentsInParallel, prepareMergeInWorkers } from './parallel.ts';
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

  it('makes a combined document, and one range of documents, with the same bytes as one thread', async () => {
    const merge = await input();
    const combinedInput = { ...merge, options: { ...merge.options, isCombinedOutput: true } };
    const expected = Buffer.concat([...(await prepareMerge(combinedInput)).combined()]);
    const threaded = await prepareMergeInWorkers(combinedInput);
    const combined = threaded.combined();
    const chunks: Uint8Array[] = [];
    for await (const chunk of combined.chunks) chunks.push(chunk);
    threaded.close();
    expect(Buffer.concat(chunks).equals(expected)).toBe(true);
    expect(combined.issues.map((issue) => issue.rowNumber)).toEqual([9]);

    const single = [...(await prepareMerge(merge)).documents()].filter((d) => d.index >= 10 && d.index < 20);
    const workers = await prepareMergeInWorkers(merge, { workers: 2, batchSize: 3 });
    const range: string[] = [];
    for await (const d of workers.documents({ start: 10, end: 20 }).documents) range.push(`${d.index} ${d.fileName} ${Buffer.concat(d.chunks).length}`);
    workers.close();
    expect(range).toEqual(single.map((d) => `${d.index} ${d.fileName} ${d.byteLength}`));
  });

  it('fails with merge/too-complex at its heap cap, and an abort ends a merge at once', async () => {
    const merge = await input();
    await expect(prepareMergeInWorkers(merge, { workers: 1, maxMemoryMb: 8 })).rejects.toMatchObject({ code: 'merge/too-complex' });

    const controller = new AbortController();
    const threaded = await prepareMergeInWorkers(merge, { workers: 1, batchSize: 1, signal: controller.signal });
    const made = threaded.documents({}, controller.signal).documents;
    await made.next();
    controller.abort(new Error('cancelled by the user'));
    await expect(made.next()).rejects.toThrow('cancelled by the user');
    expect(threaded.closed).toBe(true);
  });
});
