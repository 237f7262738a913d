import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { PDFDocument } from 'pdf-lib';
import { checkTemplateSafely } from './guarded.ts';

const fixture = (name: string) => new Uint8Array(readFileSync(path.resolve(import.meta.dirname, '../../../../fixtures/generated', name)));

describe('checkTemplateSafely', () => {
  it('reports the pages of a good template, and unlocks an encrypted one', async () => {
    const doc = await PDFDocument.create();
    doc.addPage([200, 300]);
    doc.addPage([300, 200]);
    const facts = await checkTemplateSafely({ bytes: await doc.save() });
    expect(facts.pages).toEqual([{ width: 200, height: 300 }, { width: 300, height: 200 }]);
    expect(facts.encrypted).toBe(false);
  });

  it('turns a bad file into the catalogue error, across the thread boundary', async () => {
    await expect(checkTemplateSafely({ bytes: new TextEncoder().encode('First,Last\n') })).rejects.toMatchObject({ code: 'template/wrong-type' });
    await expect(checkTemplateSafely({ bytes: fixture('corpus/damaged-wrong-offsets.pdf') })).rejects.toMatchObject({ code: 'template/damaged' });
    await expect(checkTemplateSafely({ bytes: fixture('corpus/damaged-wrong-offsets.pdf'), repair: true })).resolves.toMatchObject({ repaired: true });
  });

  it('gives up with template/timeout when reading takes longer than allowed', async () => {
    const doc = await PDFDocument.create();
    for (let i = 0; i < 300; i++) doc.addPage([200, 300]).drawText(`page ${i}`);
    await expect(checkTemplateSafely({ bytes: await doc.save() }, { timeoutMs: 1 })).rejects.toMatchObject({ code: 'template/timeout' });
  });
});
