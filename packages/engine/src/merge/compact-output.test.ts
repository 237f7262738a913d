/**
 * Compressed output with templates that embed whole fonts: each document carries only the glyphs the
 * template shows, and looks and reads exactly as the uncompressed document does (poppler's pixels and
 * text, qpdf's check). Templates whose fonts a reader may still need whole are left as they are.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import fontkit from '@pdf-lib/fontkit';
import { PDFDict, PDFDocument, PDFName, PDFRawStream, PDFString, decodePDFRawStream, rgb, type PDFFont } from 'pdf-lib';
import { afterAll, describe, expect, it } from 'vitest';
import type { OutputOptionsInput } from '@sheaf/shared';
import { differingShare, expectQpdfClean, mergeCombined, mergeSeparate, pdfText, placeholder, render, scratch, table } from './test-support.ts';

const folder = scratch('compact');
afterAll(() => folder.remove());
const require = createRequire(import.meta.url);
const dejavu = (file: string) => readFileSync(require.resolve(`dejavu-fonts-ttf/ttf/${file}`));

const ROWS = [
  ['Chloé', 'Øster'],
  ['Søren', 'Wagner-Lefèvre'],
  ['Zoë', 'Nowak'],
];
const HEADING = 'Statement for the quarter — Northwind Utilities';
const FOOTNOTE = 'Footnote in a form XObject: ½ ∑ ≈ ünïcödé';

/** A 2-page template with DejaVu Serif embedded whole on its pages and DejaVu Sans whole inside a form XObject. */
async function wholeFontTemplate(extra?: (doc: PDFDocument, serif: PDFFont) => void): Promise<Uint8Array> {
  const doc = await PDFDocument.create({ updateMetadata: false });
  doc.registerFontkit(fontkit);
  const serif = await doc.embedFont(dejavu('DejaVuSerif.ttf'), { subset: false });
  const first = doc.addPage([595, 842]);
  first.drawText(HEADING, { x: 50, y: 780, size: 16, font: serif, color: rgb(0.1, 0.2, 0.45) });
  first.drawText('Dear customer, your payments are listed below. Amounts in €.', { x: 50, y: 740, size: 10, font: serif });

  const source = await PDFDocument.create();
  source.registerFontkit(fontkit);
  const sans = await source.embedFont(dejavu('DejaVuSans.ttf'), { subset: false });
  source.addPage([400, 60]).drawText(FOOTNOTE, { x: 10, y: 20, size: 11, font: sans });
  // pdf-lib writes an embedded font's objects when its document is saved: embed the saved copy.
  const [form] = await doc.embedPdf(await source.save(), [0]);
  const second = doc.addPage([595, 842]);
  second.drawText('Page two: terms and conditions.', { x: 50, y: 780, size: 12, font: serif });
  second.drawPage(form!, { x: 50, y: 600 });
  extra?.(doc, serif);
  return doc.save({ useObjectStreams: false });
}

/** Decoded sizes of every embedded TrueType program in a PDF. */
async function fontPrograms(bytes: Uint8Array): Promise<number[]> {
  const doc = await PDFDocument.load(bytes);
  const sizes: number[] = [];
  for (const [, object] of doc.context.enumerateIndirectObjects()) {
    const program = object instanceof PDFDict ? object.lookup(PDFName.of('FontFile2')) : undefined;
    if (program instanceof PDFRawStream) sizes.push(decodePDFRawStream(program).decode().length);
  }
  return sizes.sort((a, b) => a - b);
}

function request(template: Uint8Array, options: OutputOptionsInput = {}, rows = ROWS) {
  return {
    template,
    sheet: table(['First', 'Last'], rows),
    placeholders: [placeholder({ column: 'First', relativeX: 0.1, relativeY: 0.2 }), placeholder({ column: 'Last', relativeX: 0.5, relativeY: 0.2 })],
    options,
  };
}

describe('compressed output of a template with whole fonts', () => {
  it('each document carries only the glyphs it shows, and reads and renders exactly as the uncompressed one', async () => {
    const template = await wholeFontTemplate();
    const small = await mergeSeparate(folder, request(template));
    const whole = await mergeSeparate(folder, request(template, { isCompressedOutput: false }));
    expect(small.documents).toHaveLength(3);
    const programs = await fontPrograms(small.documents[0]!.bytes);
    expect(programs.length).toBeGreaterThanOrEqual(2);
    for (const file of ['DejaVuSerif.ttf', 'DejaVuSans.ttf']) expect(programs).not.toContain(dejavu(file).length);
    small.documents.forEach((document, i) => {
      // The two whole fonts are ~1 MB of the template's bytes; what is left is a few tens of KB.
      expect(whole.documents[i]!.bytes.length).toBeGreaterThan(template.length);
      expect(document.bytes.length).toBeLessThan(template.length * 0.15);
      expectQpdfClean(document.file);
      const text = pdfText(document.file);
      for (const expected of [HEADING, FOOTNOTE, 'Amounts in €', ...ROWS[i]!]) expect(text).toContain(expected);
      expect(text).toBe(pdfText(whole.documents[i]!.file));
      for (const page of [1, 2]) expect(differingShare(render(document.file, page, { dpi: 72 }), render(whole.documents[i]!.file, page, { dpi: 72 }), 0)).toBe(0);
    });
  });

  it('a combined document shrinks the same way and looks the same', async () => {
    const template = await wholeFontTemplate();
    const small = await mergeCombined(folder, request(template));
    const whole = await mergeCombined(folder, request(template, { isCompressedOutput: false }));
    expect(whole.bytes.length - small.bytes.length).toBeGreaterThan(template.length * 0.8);
    expectQpdfClean(small.file);
    expect(pdfText(small.file)).toBe(pdfText(whole.file));
    for (const page of [1, 4, 6]) expect(differingShare(render(small.file, page, { dpi: 72 }), render(whole.file, page, { dpi: 72 }), 0)).toBe(0);
  });

  it('one row (a preview, a single letter) keeps the template as it is', async () => {
    const template = await wholeFontTemplate();
    const { documents } = await mergeSeparate(folder, request(template, {}, ROWS.slice(0, 1)));
    expect(Buffer.from(documents[0]!.bytes.subarray(0, template.length)).equals(Buffer.from(template))).toBe(true);
  });

  it('a font the form fields may draw with (named in the form’s /DR) stays whole; the others are pruned', async () => {
    const template = await wholeFontTemplate((doc, serif) => {
      const field = doc.getForm().createTextField('remark');
      field.addToPage(doc.getPage(0), { x: 50, y: 500, width: 300, height: 20, font: serif });
      // Readers draw the field's text, typed later, with the /DR font its /DA names: any glyph.
      doc.getForm().acroForm.dict.set(PDFName.of('DR'), doc.context.obj({ Font: { Serif: serif.ref } }));
      doc.getForm().acroForm.dict.set(PDFName.of('DA'), PDFString.of('/Serif 12 Tf 0 g'));
    });
    const { documents } = await mergeSeparate(folder, request(template));
    const acroForm = (await PDFDocument.load(documents[0]!.bytes)).catalog.lookup(PDFName.of('AcroForm'));
    expect(String(acroForm)).toContain('/DR');
    const programs = await fontPrograms(documents[0]!.bytes);
    expect(programs).toContain(dejavu('DejaVuSerif.ttf').length);
    expect(programs).not.toContain(dejavu('DejaVuSans.ttf').length);
    expectQpdfClean(documents[0]!.file);
  });

  it('a signed template keeps its bytes: its signature covers them', async () => {
    const template = await wholeFontTemplate((doc) => {
      const sig = doc.context.obj({ Type: 'Sig', Filter: 'Adobe.PPKLite', ByteRange: [0, 10, 20, 30], Contents: doc.context.obj([]) });
      doc.catalog.set(PDFName.of('SheafTestSignature'), doc.context.register(sig));
    });
    const { documents } = await mergeSeparate(folder, request(template));
    expect(Buffer.from(documents[0]!.bytes.subarray(0, template.length)).equals(Buffer.from(template))).toBe(true);
  });
});

describe('compressed output with the other output options', () => {
  it('password-protected documents are pruned too and open with their password only', async () => {
    const template = await wholeFontTemplate();
    const protection = { readPassword: 'Open!2024', modifyPassword: '' };
    const small = await mergeSeparate(folder, request(template, { passwordProtection: protection }));
    const whole = await mergeSeparate(folder, request(template, { passwordProtection: protection, isCompressedOutput: false }));
    small.documents.forEach((document, i) => {
      expect(document.bytes.length).toBeLessThan(template.length * 0.15);
      expectQpdfClean(document.file, 'Open!2024');
      expect(pdfText(document.file, { password: 'Open!2024' })).toBe(pdfText(whole.documents[i]!.file, { password: 'Open!2024' }));
      expect(differingShare(render(document.file, 2, { dpi: 72, password: 'Open!2024' }), render(whole.documents[i]!.file, 2, { dpi: 72, password: 'Open!2024' }), 0)).toBe(0);
    });
  });

  it('a template saved with object and cross-reference streams is rewritten as a plain file that reads the same', async () => {
    const classic = await PDFDocument.load(await wholeFontTemplate());
    const template = await classic.save({ useObjectStreams: true });
    const small = await mergeSeparate(folder, request(template, { isKeepFormOutput: false }));
    const whole = await mergeSeparate(folder, request(template, { isCompressedOutput: false, isKeepFormOutput: false }));
    expect(small.documents[0]!.bytes.length).toBeLessThan(template.length * 0.15);
    expectQpdfClean(small.documents[0]!.file);
    expect(pdfText(small.documents[0]!.file)).toBe(pdfText(whole.documents[0]!.file));
    expect(differingShare(render(small.documents[0]!.file, 1, { dpi: 72 }), render(whole.documents[0]!.file, 1, { dpi: 72 }), 0)).toBe(0);
  });
});
