/**
 * Template form fields named like spreadsheet headings (corpus/acroform.pdf: name, subscribe,
 * postcode, country, signature): kept editable with each row's values, or flattened into the page.
 */
import { afterAll, describe, expect, it } from 'vitest';
import {
  allObjects, expectQpdfClean, fixture, formFields, mergeCombined, mergeSeparate, pageTexts, pdfText, placeholder, qpdfJson, render, inkIn, scratch,
  table, wordBoxes, type RelativeBox,
} from './test-support.ts';

const folder = scratch('forms');
afterAll(() => folder.remove());

const PAGE = { width: 612, height: 792 };
/** A field's rectangle in user space (x, y from the bottom, width, height) as a relative displayed box. */
function relativeRect(x: number, y: number, width: number, height: number): RelativeBox {
  return { x: x / PAGE.width, y: (PAGE.height - y - height) / PAGE.height, width: width / PAGE.width, height: height / PAGE.height };
}
const CHECKBOX_INSIDE = relativeRect(180 + 4, 600 + 4, 10, 10);
const NAME_TOP_EDGE = relativeRect(185, 662 - 1.5, 230, 3);
const POSTCODE_WIDTH = 150;

const ROWS = [
  { name: 'Grace Hopper', subscribe: 'yes', country: 'France', postcode: '10115', note: 'NOTE-ONE' },
  { name: 'Alan Turing', subscribe: 'no', country: 'Spain', postcode: 'SW1A1', note: 'NOTE-TWO' },
];
const TEMPLATE_VALUES = ['Ada Lovelace', 'Germany', '75008'];

function request(options: { isKeepFormOutput?: boolean } = {}) {
  return {
    template: fixture('corpus/acroform.pdf'),
    sheet: table(['name', 'subscribe', 'country', 'postcode', 'Note'], ROWS.map((row) => [row.name, row.subscribe, row.country, row.postcode, row.note])),
    placeholders: [placeholder({ id: 'note', column: 'Note', relativeY: 0.75 })],
    options,
  };
}

describe('form fields kept editable', () => {
  it('carry each row its values, the check box on or off, and keep the signature field', async () => {
    const { documents } = await mergeSeparate(folder, request());
    expect(documents).toHaveLength(2);
    documents.forEach((document, i) => {
      const row = ROWS[i]!;
      expectQpdfClean(document.file);
      const fields = new Map(formFields(document.file).map((field) => [field.fullname, field]));
      expect(fields.get('name')?.value).toBe(`u:${row.name}`);
      expect(fields.get('country')?.value).toBe(`u:${row.country}`);
      expect(fields.get('postcode')?.value).toBe(`u:${row.postcode}`);
      const checkbox = fields.get('subscribe')!;
      const state = row.subscribe === 'yes' ? '/Yes' : '/Off';
      expect([checkbox.value, checkbox.annotation.appearancestate]).toEqual([state, state]);
      expect(fields.get('signature')?.fieldtype).toBe('/Sig');
      // The fields' new appearances show the values; the template's own values are gone.
      const text = pdfText(document.file);
      for (const value of [row.name, row.country, row.note]) expect(text).toContain(value);
      // The comb field spreads its characters one per cell.
      expect(text.replace(/\s+/g, '')).toContain(row.postcode);
      for (const old of TEMPLATE_VALUES) expect(text).not.toContain(old);
    });
  });

  it('keep the field border the template shows', async () => {
    const template = folder.write('acroform.pdf', fixture('corpus/acroform.pdf'));
    expect(inkIn(render(template, 1, { dpi: 72 }), NAME_TOP_EDGE)).toBeGreaterThan(150);
    const { documents } = await mergeSeparate(folder, request());
    expect(inkIn(render(documents[0]!.file, 1, { dpi: 72 }), NAME_TOP_EDGE)).toBeGreaterThan(150);
  });

  it('spread a comb field one character per cell', async () => {
    const { documents } = await mergeSeparate(folder, request());
    const characters = wordBoxes(documents[0]!.file).filter((word) => /^[0-9]+$/.test(word.word));
    const span = Math.max(...characters.map((word) => word.xMax)) - Math.min(...characters.map((word) => word.xMin));
    expect(span).toBeGreaterThan(POSTCODE_WIDTH * 0.7);
  });
});

describe('XFA forms kept editable', () => {
  it('drop the XFA packets so every viewer shows the row’s value', async () => {
    const column = 'form1[0].#subform[0].name[0]';
    const { documents } = await mergeSeparate(folder, {
      template: fixture('corpus/xfa-form.pdf'),
      sheet: table([column, 'Note'], [['Row Value', 'XFA-NOTE']]),
      placeholders: [placeholder({ id: 'note', column: 'Note', relativeY: 0.75 })],
    });
    const file = documents[0]!.file;
    expectQpdfClean(file);
    expect(formFields(file).find((field) => field.fullname === column)?.value).toBe('u:Row Value');
    const forms = [...allObjects(file).values()].filter((object) => '/Fields' in object);
    expect(forms.length).toBeGreaterThan(0);
    for (const form of forms) expect(form).not.toHaveProperty('/XFA');
  });
});

describe('form fields flattened', () => {
  it('draw the values into the page and remove the form', async () => {
    const { documents } = await mergeSeparate(folder, request({ isKeepFormOutput: false }));
    const ticks: number[] = [];
    documents.forEach((document, i) => {
      const row = ROWS[i]!;
      expectQpdfClean(document.file);
      const form = qpdfJson(document.file, 'acroform') as { acroform: { hasacroform: boolean; fields: unknown[] } };
      expect(form.acroform).toMatchObject({ hasacroform: false, fields: [] });
      const text = pdfText(document.file);
      for (const value of [row.name, row.country, row.note, 'CORPUS-ACROFORM']) expect(text).toContain(value);
      expect(text.replace(/\s+/g, '')).toContain(row.postcode);
      for (const old of TEMPLATE_VALUES) expect(text).not.toContain(old);
      ticks.push(inkIn(render(document.file, 1, { dpi: 100 }), CHECKBOX_INSIDE));
    });
    // The check mark is drawn for "yes" and not for "no".
    expect(ticks[0]).toBeGreaterThan(15);
    expect(ticks[1]).toBe(0);
  });

  it('are always flattened in combined output, one row per page', async () => {
    const { file } = await mergeCombined(folder, request());
    expectQpdfClean(file);
    expect(formFields(file).filter((field) => field.fieldtype !== '/Sig')).toEqual([]);
    const pages = pageTexts(file);
    expect(pages).toHaveLength(2);
    ROWS.forEach((row, i) => {
      for (const value of [row.name, row.country, row.note]) expect(pages[i]).toContain(value);
      expect(pages[i]!.replace(/\s+/g, '')).toContain(row.postcode);
    });
    expect(inkIn(render(file, 1, { dpi: 100 }), CHECKBOX_INSIDE)).toBeGreaterThan(15);
    expect(inkIn(render(file, 2, { dpi: 100 }), CHECKBOX_INSIDE)).toBe(0);
  });
});
