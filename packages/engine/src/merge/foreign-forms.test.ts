/**
 * Forms made by other tools (fixtures/generated/foreign, see scripts/fixtures/foreign-forms.ts): a
 * filled-in ReportLab AcroForm as ReportLab writes it, and with /Subtype /Form left out of its
 * appearance streams as some authoring tools do. Flattened, every value a reader showed in the
 * template must show in the output: in poppler's text and renders (without poppler errors) and in
 * pdf.js's text.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PDFArray, PDFCheckBox, PDFDocument, PDFName, PDFRadioGroup, PDFTextField, type PDFNumber } from 'pdf-lib';
import { afterAll, describe, expect, it } from 'vitest';
import { PYPDF_FILLED_FORM, PYPDF_MISSING, REPORTLAB_FORM, REPORTLAB_FORM_WITHOUT_SUBTYPE, REPORTLAB_MISSING } from '../../../../scripts/fixtures/foreign-forms.ts';
import {
  expectQpdfClean, fixture, inkIn, mergeCombined, mergeSeparate, pageTexts, placeholder, render, run, scratch, table, type RelativeBox,
} from './test-support.ts';

const folder = scratch('foreign-forms');
afterAll(() => folder.remove());

const GENERATED = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../fixtures/generated');
const hasFixtures = [REPORTLAB_FORM, REPORTLAB_FORM_WITHOUT_SUBTYPE].every((name) => existsSync(path.join(GENERATED, name)));
if (!hasFixtures) console.warn(`foreign-forms.test.ts skipped: ${REPORTLAB_MISSING}.`);

/** The values the ReportLab form carries (scripts/fixtures/foreign-forms/reportlab_form.py). */
const TEXT_VALUES = ['Grace Hopper', '12 Harbour Lane', 'Arlington', '22201', 'grace@example.com', '555 0142', 'US Navy', 'Rear Admiral', 'Computing'];
const ROWS = [['ROW-ONE-NOTE'], ['ROW-TWO-NOTE']];

interface Widget {
  field: string;
  /** The middle of the widget, as a relative box of the page. */
  box: RelativeBox;
  /** The appearance state it shows (/AS), for check boxes and radio buttons. */
  state?: string;
}

/** Every widget of the template's buttons, read with pdf-lib. */
async function buttonWidgets(bytes: Uint8Array): Promise<Widget[]> {
  const doc = await PDFDocument.load(bytes);
  const { width, height } = doc.getPage(0).getSize();
  const widgets: Widget[] = [];
  for (const field of doc.getForm().getFields()) {
    if (field.acroField.dict.get(PDFName.of('FT')) !== PDFName.of('Btn')) continue;
    for (const widget of field.acroField.getWidgets()) {
      const rect = widget.dict.lookup(PDFName.of('Rect'), PDFArray).asArray().map((n) => (n as PDFNumber).asNumber());
      const [x0, y0, x1, y1] = [Math.min(rect[0]!, rect[2]!), Math.min(rect[1]!, rect[3]!), Math.max(rect[0]!, rect[2]!), Math.max(rect[1]!, rect[3]!)];
      // The middle of the widget: the tick or the dot, clear of the box or circle around it.
      const inset = Math.min(x1 - x0, y1 - y0) * 0.3;
      const state = widget.dict.get(PDFName.of('AS'));
      widgets.push({
        field: field.getName(),
        box: { x: (x0 + inset) / width, y: (height - y1 + inset) / height, width: (x1 - x0 - 2 * inset) / width, height: (y1 - y0 - 2 * inset) / height },
        state: state instanceof PDFName ? state.decodeText() : undefined,
      });
    }
  }
  return widgets;
}

/** The text pdf.js reads from each page (another reader than poppler, as browsers show PDFs). */
async function pdfjsPageTexts(bytes: Uint8Array): Promise<string[]> {
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const doc = await pdfjs.getDocument({ data: bytes.slice(), verbosity: 0 }).promise;
  const pages: string[] = [];
  for (let number = 1; number <= doc.numPages; number++) {
    const content = await (await doc.getPage(number)).getTextContent();
    pages.push(content.items.map((item) => ('str' in item ? item.str : '')).join(' '));
  }
  await doc.destroy();
  return pages;
}

/** pdftoppm's render of page `page`, failing on anything poppler complains about. */
function renderQuietly(file: string, page: number) {
  const result = run('pdftoppm', ['-gray', '-r', '100', '-f', String(page), '-l', String(page), '-singlefile', file, `${file}-quiet-${page}`]);
  expect(result.stderr, `poppler on ${file}`).toBe('');
  return render(file, page, { dpi: 100 });
}

/** Ink in each button widget: ticked boxes and chosen radios are dark, the others nearly white. */
function buttonInk(file: string, page: number, widgets: Widget[]): string[] {
  const raster = renderQuietly(file, page);
  return widgets.map((widget) => `${widget.field}=${widget.state}: ${inkIn(raster, widget.box) > 15 ? 'marked' : 'blank'}`);
}

describe.skipIf(!hasFixtures).each([
  ['as ReportLab writes it', REPORTLAB_FORM],
  ['without /Subtype /Form in its appearance streams', REPORTLAB_FORM_WITHOUT_SUBTYPE],
])('a filled-in ReportLab form %s, flattened', (_, name) => {
  const template = hasFixtures ? fixture(name) : new Uint8Array();
  const request = (options: { isKeepFormOutput?: boolean } = {}) => ({
    template,
    sheet: table(['Note'], ROWS),
    placeholders: [placeholder({ column: 'Note', relativeY: 0.9, relativeX: 0.55, relativeWidth: 0.4 })],
    options,
  });

  it('shows in the template what the tests compare against: 9 text values, 3 ticked boxes and 3 chosen radios', async () => {
    const file = folder.write('reportlab-form.pdf', template);
    const text = pageTexts(file)[0]!;
    for (const value of TEXT_VALUES) expect(text).toContain(value);
    const ink = buttonInk(file, 1, await buttonWidgets(template));
    expect(ink.filter((line) => line.endsWith('marked'))).toEqual(['newsletter=Yes', 'terms=Yes', 'member=Yes', 'size=medium', 'contact=phone', 'plan=premium'].map((on) => `${on}: marked`));
  });

  it('keeps every value with "Keep form fields" off', async () => {
    const widgets = await buttonWidgets(template);
    const before = buttonInk(folder.write('template.pdf', template), 1, widgets);
    const { documents } = await mergeSeparate(folder, request({ isKeepFormOutput: false }));
    expect(documents).toHaveLength(2);
    for (const [index, document] of documents.entries()) {
      expectQpdfClean(document.file);
      const text = pageTexts(document.file)[0]!;
      for (const value of [...TEXT_VALUES, ROWS[index]![0]!]) expect(text).toContain(value);
      expect(buttonInk(document.file, 1, widgets)).toEqual(before);
      const [pdfjsText] = await pdfjsPageTexts(document.bytes);
      for (const value of TEXT_VALUES) expect(pdfjsText).toContain(value);
    }
  });

  it('keeps the fields in combined output with "Keep form fields" on: each row its own copy, named for the row', async () => {
    const { file, bytes } = await mergeCombined(folder, { ...request(), sheet: table(['Note', 'city'], ROWS.map(([note], i) => [note!, `City ${i + 2}`])) });
    expectQpdfClean(file);
    const form = (await PDFDocument.load(bytes)).getForm();
    for (const rowNumber of [2, 3]) {
      const field = (name: string) => form.getField(`row${rowNumber}.${name}`);
      expect((field('city') as PDFTextField).getText()).toBe(`City ${rowNumber}`);
      expect((field('full_name') as PDFTextField).getText()).toBe('Grace Hopper');
      expect([(field('newsletter') as PDFCheckBox).isChecked(), (field('sms') as PDFCheckBox).isChecked()]).toEqual([true, false]);
      expect((field('size') as PDFRadioGroup).getSelected()).toBe('medium');
    }
    expect(form.getFields()).toHaveLength(2 * 17);
    const pages = pageTexts(file);
    pages.forEach((text, index) => expect(text).toContain(`City ${index + 2}`));
  });

  it('keeps every value in combined output, on every row’s page', async () => {
    const widgets = await buttonWidgets(template);
    const before = buttonInk(folder.write('template.pdf', template), 1, widgets);
    const { file, bytes } = await mergeCombined(folder, request({ isKeepFormOutput: false }));
    expectQpdfClean(file);
    for (const text of await pdfjsPageTexts(bytes)) for (const value of TEXT_VALUES) expect(text).toContain(value);
    const pages = pageTexts(file);
    expect(pages).toHaveLength(2);
    pages.forEach((text, index) => {
      for (const value of [...TEXT_VALUES, ROWS[index]![0]!]) expect(text).toContain(value);
      expect(buttonInk(file, index + 1, widgets)).toEqual(before);
    });
  });
});

const hasPypdfFixture = existsSync(path.join(GENERATED, PYPDF_FILLED_FORM));
if (hasFixtures && !hasPypdfFixture) console.warn(`foreign-forms.test.ts: the pypdf case is skipped: ${PYPDF_MISSING}.`);

describe.skipIf(!hasPypdfFixture)('a ReportLab form filled in by pypdf (new values, NeedAppearances, old appearances), flattened', () => {
  const template = hasPypdfFixture ? fixture(PYPDF_FILLED_FORM) : new Uint8Array();
  const NEW_VALUES = ['Springfield', 'Remington Rand'];
  const OLD_VALUES = ['Arlington', 'US Navy'];
  const KEPT = TEXT_VALUES.filter((value) => !OLD_VALUES.includes(value));
  const request = (options: { isKeepFormOutput?: boolean; isCombinedOutput?: boolean }) => ({
    template,
    sheet: table(['Note'], ROWS),
    placeholders: [placeholder({ column: 'Note', relativeY: 0.9, relativeX: 0.55, relativeWidth: 0.4 })],
    options,
  });

  it('shows the values a reader shows: the new ones, not the stale appearances', async () => {
    const before = pageTexts(folder.write('pypdf-filled.pdf', template))[0]!;
    for (const value of [...KEPT, ...NEW_VALUES]) expect(before).toContain(value);
    for (const value of OLD_VALUES) expect(before).not.toContain(value);

    const { documents } = await mergeSeparate(folder, request({ isKeepFormOutput: false }));
    const { file, bytes } = await mergeCombined(folder, request({ isKeepFormOutput: false }));
    const texts = [...documents.map((document) => pageTexts(document.file)[0]!), ...pageTexts(file), ...(await pdfjsPageTexts(bytes))];
    for (const text of texts) {
      for (const value of [...KEPT, ...NEW_VALUES]) expect(text).toContain(value);
      for (const value of OLD_VALUES) expect(text).not.toContain(value);
    }
    expectQpdfClean(file);
    renderQuietly(file, 2);
  });
});
