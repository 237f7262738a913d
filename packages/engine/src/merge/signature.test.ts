/**
 * eSignature placeholders become unsigned signature fields (/FT /Sig) at the placeholder's box, seen
 * through qpdf's JSON: one per document in separate output, one per row with unique names in
 * combined output.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  blankTemplate, expectQpdfClean, formFields, mergeCombined, mergeSeparate, objectValue, pdfText, placeholder, scratch, table,
  type FormFieldJson,
} from './test-support.ts';

const folder = scratch('signature');
afterAll(() => folder.remove());

const BOX = { relativeX: 0.1, relativeY: 0.7, relativeWidth: 0.4, relativeHeight: 0.08 };
const A4 = { width: 595, height: 842 };

let template: Uint8Array;
beforeAll(async () => {
  template = await blankTemplate([{ label: 'SIGN HERE' }, { label: 'PAGE TWO', rotation: 90 }]);
});

function request(rows: string[][], pageNumber = 1) {
  return {
    template,
    sheet: table(['Name', 'Signer'], rows),
    placeholders: [
      placeholder({ id: 'name', column: 'Name', relativeY: 0.2 }),
      placeholder({ id: 'signature', type: 'eSignature', column: 'Signer', pageNumber, ...BOX }),
    ],
  };
}

function signatureFields(file: string): FormFieldJson[] {
  return formFields(file).filter((field) => field.fieldtype === '/Sig');
}

function rectOf(file: string, field: FormFieldJson): number[] {
  return (objectValue(file, field.annotation.object)['/Rect'] as number[]).map(Number);
}

function expectRect(actual: number[], expected: number[]): void {
  expect(actual).toHaveLength(4);
  actual.forEach((value, i) => expect(Math.abs(value - expected[i]!)).toBeLessThan(0.5));
}

/** The box in user space of an unrotated A4 page: x right, y up from the bottom. */
const UPRIGHT_RECT = [
  BOX.relativeX * A4.width,
  (1 - BOX.relativeY - BOX.relativeHeight) * A4.height,
  (BOX.relativeX + BOX.relativeWidth) * A4.width,
  (1 - BOX.relativeY) * A4.height,
];

describe('eSignature placeholders', () => {
  it('add one unsigned signature field at the box to every separate document', async () => {
    const { documents } = await mergeSeparate(folder, request([['Ann', 'ann@example.com'], ['Ben', 'ben@example.com']]));
    expect(documents).toHaveLength(2);
    for (const document of documents) {
      expectQpdfClean(document.file);
      const fields = signatureFields(document.file);
      expect(fields).toHaveLength(1);
      expect(fields[0]).toMatchObject({ fullname: 'signature', pageposfrom1: 1, value: null });
      expectRect(rectOf(document.file, fields[0]!), UPRIGHT_RECT);
    }
    expect(pdfText(documents[1]!.file)).toContain('Ben');
  });

  it('put the field where the displayed box is on a page rotated by 90 degrees', async () => {
    const { documents } = await mergeSeparate(folder, request([['Ann', 'ann@example.com']], 2));
    expectQpdfClean(documents[0]!.file);
    const [field] = signatureFields(documents[0]!.file);
    expect(field).toMatchObject({ pageposfrom1: 2 });
    // Rotate 90 shows user-space y to the right and x downwards: displayed (X, Y) = user (Y, X).
    const displayed = { width: A4.height, height: A4.width };
    const left = BOX.relativeX * displayed.width;
    const top = BOX.relativeY * displayed.height;
    expectRect(rectOf(documents[0]!.file, field!), [top, left, top + BOX.relativeHeight * displayed.height, left + BOX.relativeWidth * displayed.width]);
  });

  it('add one field per row with a unique name in combined output', async () => {
    const rows = [['Ann', 'a'], ['Ben', 'b'], ['Cid', 'c']];
    const { file } = await mergeCombined(folder, request(rows));
    expectQpdfClean(file);
    const fields = signatureFields(file);
    expect(fields).toHaveLength(3);
    expect(new Set(fields.map((field) => field.fullname)).size).toBe(3);
    // Two template pages per row: each row's field sits on that row's first page.
    expect(fields.map((field) => field.pageposfrom1).sort((a, b) => a - b)).toEqual([1, 3, 5]);
    for (const field of fields) expectRect(rectOf(file, field), UPRIGHT_RECT);
  });
});
