/** Merge requests the engine refuses before producing anything, each with its catalogue error. */
import { afterAll, describe, expect, it } from 'vitest';
import { SheafError } from '@sheaf/shared';
import { expectSheafError, fixture, mergeSeparate, pdfText, placeholder, prepare, scratch, table } from './test-support.ts';

const folder = scratch('requests');
afterAll(() => folder.remove());

const base = () => ({
  template: fixture('corpus/classic-xref.pdf'),
  sheet: table(['First Name', 'City'], [['Ann', 'Oslo']]),
  placeholders: [placeholder({ column: 'First Name' })],
});

describe('refused merge requests', () => {
  it('a placeholder whose column the sheet lacks: merge/missing-column naming both', async () => {
    const request = { ...base(), placeholders: [placeholder({ id: 'zip-box', column: 'Zip' })] };
    await expectSheafError(prepare(request), 'merge/missing-column');
    const error = await prepare(request).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(SheafError);
    expect((error as SheafError).params).toMatchObject({ column: 'Zip', name: 'zip-box' });
  });

  it('no placeholders at all: merge/no-placeholders', async () => {
    await expectSheafError(prepare({ ...base(), placeholders: [] }), 'merge/no-placeholders');
  });

  it('a placeholder on a page the template does not have: template/page-out-of-range', async () => {
    const request = { ...base(), placeholders: [placeholder({ id: 'late', column: 'City', pageNumber: 3 })] };
    await expectSheafError(prepare(request), 'template/page-out-of-range');
    const error = (await prepare(request).catch((caught: unknown) => caught)) as SheafError;
    expect(error.params).toMatchObject({ name: 'late', page: 3, pages: 2 });
  });

  it('options outside their schema: generic/invalid-input', async () => {
    await expectSheafError(prepare({ ...base(), options: { watermark: 'x'.repeat(201) } }), 'generic/invalid-input');
  });

  it('an encrypted template that was not unlocked: template/encrypted', async () => {
    await expectSheafError(prepare({ ...base(), template: fixture('encrypted-aes-256.pdf') }), 'template/encrypted');
  });
});

describe('column matching', () => {
  it('matches a heading ignoring case and surrounding spaces', async () => {
    const { documents } = await mergeSeparate(folder, { ...base(), placeholders: [placeholder({ column: '  first name ' })] });
    expect(pdfText(documents[0]!.file)).toContain('Ann');
  });
});
