/**
 * Template form fields named like spreadsheet headings (corpus/acroform.pdf: name, subscribe,
 * postcode, country, signature): kept editable with each row's values, or flattened into the page.
 */
import { PDFCheckBox, PDFDocument, PDFDropdown, PDFTextField } from 'pdf-lib';
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

describe('form fields kept editable in combined output', () => {
  /** The output's AcroForm as pdf-lib reads it: full name -> value (text, or the chosen state). */
  async function fieldValues(bytes: Uint8Array): Promise<Map<string, string | undefined>> {
    const form = (await PDFDocument.load(bytes)).getForm();
    return new Map(form.getFields().map((field) => {
      if (field instanceof PDFTextField) return [field.getName(), field.getText()];
      if (field instanceof PDFCheckBox) return [field.getName(), field.isChecked() ? 'checked' : 'unchecked'];
      if (field instanceof PDFDropdown) return [field.getName(), field.getSelected().join()];
      return [field.getName(), undefined];
    }));
  }

  it('keeps each row its own fields, named for the row, with the row’s values on its page', async () => {
    const { file, bytes } = await mergeCombined(folder, request());
    expectQpdfClean(file);
    const values = await fieldValues(bytes);
    ROWS.forEach((row, i) => {
      const prefix = `row${i + 2}.`;
      expect(values.get(`${prefix}name`)).toBe(row.name);
      expect(values.get(`${prefix}country`)).toBe(row.country);
      expect(values.get(`${prefix}postcode`)).toBe(row.postcode);
      expect(values.get(`${prefix}subscribe`)).toBe(row.subscribe === 'yes' ? 'checked' : 'unchecked');
      expect(values.has(`${prefix}signature`)).toBe(true);
    });
    // Every field once per row, and nothing else.
    expect([...values.keys()].sort()).toEqual(ROWS.flatMap((_, i) => ['country', 'name', 'postcode', 'signature', 'subscribe'].map((name) => `row${i + 2}.${name}`)).sort());
    // qpdf sees each row's widgets on that row's page, and the pages show the row's values.
    for (const field of formFields(file)) expect(field.pageposfrom1).toBe(field.fullname.startsWith('row2.') ? 1 : 2);
    const pages = pageTexts(file);
    ROWS.forEach((row, i) => {
      for (const value of [row.name, row.country, row.note]) expect(pages[i]).toContain(value);
      for (const old of TEMPLATE_VALUES) expect(pages[i]).not.toContain(old);
    });
    expect(inkIn(render(file, 1, { dpi: 100 }), CHECKBOX_INSIDE)).toBeGreaterThan(15);
    expect(inkIn(render(file, 2, { dpi: 100 }), CHECKBOX_INSIDE)).toBe(0);
  });

  it('keeps them in grouped documents too ("multiple" placeholders), each row its own', async () => {
    const rows = [...ROWS, { name: 'Ada Byron', subscribe: 'yes', country: 'France', postcode: '75001', note: 'NOTE-THREE' }];
    const teams = ['Blue', 'Red', 'Blue'];
    const { documents } = await mergeSeparate(folder, {
      template: fixture('corpus/acroform.pdf'),
      sheet: table(['Team', 'name', 'subscribe', 'country'], rows.map((row, i) => [teams[i]!, row.name, row.subscribe, row.country])),
      placeholders: [placeholder({ id: 'team', type: 'multiple', column: 'Team', relativeY: 0.75 })],
    });
    expect(documents.map((document) => document.rowNumbers)).toEqual([[2, 4], [3]]);
    expectQpdfClean(documents[0]!.file);
    const blue = await fieldValues(documents[0]!.bytes);
    expect([blue.get('row2.name'), blue.get('row4.name'), blue.get('row2.subscribe'), blue.get('row4.country')]).toEqual(['Grace Hopper', 'Ada Byron', 'checked', 'France']);
    // A group of one row keeps the template's names.
    expect((await fieldValues(documents[1]!.bytes)).get('name')).toBe('Alan Turing');
  });

  it('keeps the template’s field names when the document holds one row', async () => {
    const { file, bytes } = await mergeCombined(folder, { ...request(), rows: { kind: 'range', startRow: 3, endRow: 3 } });
    expectQpdfClean(file);
    const values = await fieldValues(bytes);
    expect(values.get('name')).toBe(ROWS[1]!.name);
    expect(values.get('subscribe')).toBe('unchecked');
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

  it('are flattened in combined output too, one row per page', async () => {
    const { file } = await mergeCombined(folder, request({ isKeepFormOutput: false }));
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
