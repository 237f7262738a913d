/**
 * Everything decided once per merge: validated options, resolved placeholders, selected rows and
 * groups, fonts subset over all rows, images embedded once, the template parsed once.
 */
import { PDFDocument, PDFName, PDFRef, PDFDict, PDFString, PDFArray, type PDFContext } from 'pdf-lib';
import {
  OutputOptionsSchema, SheafError, columnTags, fillColumnTags, hasColumnTags, isValidPasswordPattern,
  type OutputOptions, type Placeholder,
} from '@sheaf/shared';
import { FontRegistry } from '../text/index.ts';
import { loadTemplate, type Template, type TemplatePage } from '../pdf/template.ts';
import { compactTemplate } from '../pdf/compact/compact-template.ts';
import { pdfNumber } from '../pdf/bytes.ts';
import { transformRect } from '../pdf/geometry.ts';
import { columnIndex, placePlaceholders, type PlacedPlaceholder } from './placed.ts';
import { groupRows, selectRows } from './selection.ts';
import { embedImages } from './images.ts';
import { isTextLike, placeholderText, type DrawContext } from './rowDrawing.ts';
import { createFileNamer } from './fileNames.ts';
import { planForms, type FormPlan } from './forms.ts';
import { watermarkStyle, watermarkOperators } from './watermark.ts';
import type { MergeInput } from './types.ts';
import type { SheetData } from '../sheet/types.ts';

export interface MergePlan {
  template: Template;
  context: PDFContext;
  sheet: SheetData;
  options: OutputOptions;
  placed: PlacedPlaceholder[];
  /** Placeholders per page index. */
  byPage: Map<number, PlacedPlaceholder[]>;
  /** Pages something is drawn on or added to, in page order. */
  touchedPages: TemplatePage[];
  draw: DrawContext;
  fontRefs: Map<string, PDFRef>;
  /** Objects every document shares (fonts), serialised by the writers. */
  sharedRefs: PDFRef[];
  /** Data-row indices per output document (one per row unless grouped). */
  groups: number[][];
  /** A namer for one pass over the documents: names are unique within a pass, the same every pass. */
  newFileNamer: () => (row: number) => string;
  passwords: (row: number) => { userPassword: string; ownerPassword: string } | undefined;
  signatures: SignaturePlan;
  forms: FormPlan;
}

export interface SignaturePlan {
  placed: PlacedPlaceholder[];
  /** Builds a signature widget for a page; `suffix` keeps field names unique in combined output. */
  widget(placed: PlacedPlaceholder, pageRef: PDFRef, suffix: string): PDFDict;
}

export async function buildPlan(input: MergeInput): Promise<MergePlan> {
  const parsed = OutputOptionsSchema.safeParse(input.options ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new SheafError('generic/invalid-input', { detail: `${issue.path.join('.')}: ${issue.message}` });
  }
  const options = parsed.data;
  const { sheet } = input;
  if (input.placeholders.length === 0) throw new SheafError('merge/no-placeholders');
  checkPasswords(options, sheet);

  const rows = selectRows(sheet, input.rows);
  const loaded = options.isOnlyPlaceholdersOutput
    ? await blankTemplate(input.template, options.isTryRepair)
    : await loadTemplate(input.template, { repair: options.isTryRepair });
  // Compressed output leaves out what the template embeds but never shows (whole fonts). Not for one
  // row (a preview, a single letter), where pruning would cost more time than the bytes it saves.
  const template = options.isCompressedOutput && !options.isOnlyPlaceholdersOutput && rows.length > 1 ? compactTemplate(loaded) : loaded;
  const context = template.doc.context;
  // Kept in combined output too: each row gets its own copy of the fields (formCopies.ts).
  const flatten = !options.isKeepFormOutput;
  let fontRefs = new Map<string, PDFRef>();
  const fonts = new FontRegistry({ customFonts: input.fonts ?? new Map(), fallbackFonts: input.fallbackFonts, resourcePrefix: 'Sheaf' });
  const forms = planForms(template, sheet, flatten, () => fonts, () => fontRefs);
  const placed = placePlaceholders(input.placeholders, sheet, template.pages);
  const groupBy = placed.find((p) => p.placeholder.type === 'multiple');
  const groups = groupRows(sheet, rows, groupBy?.column);

  const textPlaced = placed.filter(isTextLike);
  for (const row of rows) {
    for (const p of textPlaced) fonts.collect(placeholderText(p, sheet, row), p.style);
    forms.collect(fonts, row);
  }
  if (options.watermark) for (const page of template.pages) fonts.collect(options.watermark, watermarkStyle(page));
  fonts.freeze();

  const before = context.largestObjectNumber;
  fontRefs = fonts.embed(context);
  const signatures = signaturePlan(context, placed);
  // Everything registered since `before` (fonts, signature appearances) is shared by every document.
  const sharedRefs: PDFRef[] = [];
  for (let n = before + 1; n <= context.largestObjectNumber; n++) sharedRefs.push(PDFRef.of(n));

  const imageCells = placed.filter((p) => p.placeholder.type === 'image').flatMap((p) => rows.map((row) => sheet.text(row, p.column)));
  const images = await embedImages(template.doc, input.images ?? new Map(), imageCells);

  const byPage = new Map<number, PlacedPlaceholder[]>();
  for (const p of placed) byPage.set(p.page.index, [...(byPage.get(p.page.index) ?? []), p]);
  const watermark = options.watermark;
  const touchedPages = template.pages.filter((page) => watermark || byPage.has(page.index) || forms.removedWidgets(page.index));

  createFileNamer(options.fileNamePattern, sheet.headers); // refuses unknown tags now, not mid-merge
  const cell = (row: number) => (column: string) => {
    const index = columnIndex(sheet, column);
    return index === undefined ? '' : sheet.text(row, index);
  };

  return {
    template,
    context,
    sheet,
    options,
    placed,
    byPage,
    touchedPages,
    draw: {
      sheet,
      fonts,
      images,
      watermark: watermark ? watermarkPerPage(template.pages, (page) => watermarkOperators(fonts, watermark, page)) : () => '',
      userSpaceOperators: (page, row) => forms.appearanceOperators(page.index, row),
    },
    forms,
    fontRefs,
    sharedRefs,
    groups,
    newFileNamer: () => {
      const namer = createFileNamer(options.fileNamePattern, sheet.headers);
      return (row) => namer(cell(row), sheet.rowNumber(row));
    },
    passwords: passwordsFor(options, cell),
    signatures,
  };
}

/** The watermark is the same on every row: laid out once per page, on first use (after the fonts froze). */
function watermarkPerPage(pages: readonly TemplatePage[], make: (page: TemplatePage) => string): (page: TemplatePage) => string {
  const cache = new Array<string | undefined>(pages.length);
  return (page) => (cache[page.index] ??= make(page));
}

function checkPasswords(options: OutputOptions, sheet: SheetData): void {
  const protection = options.passwordProtection;
  if (!protection) return;
  const patterns = [protection.readPassword, protection.modifyPassword];
  if (!patterns.every(isValidPasswordPattern)) throw new SheafError('merge/password-invalid');
  if (options.isCombinedOutput && patterns.some(hasColumnTags)) throw new SheafError('merge/password-tags-combined');
  for (const column of patterns.flatMap(columnTags)) {
    if (columnIndex(sheet, column) === undefined) throw new SheafError('merge/password-tag-unknown', { column });
  }
}

function passwordsFor(options: OutputOptions, cell: (row: number) => (column: string) => string): MergePlan['passwords'] {
  const protection = options.passwordProtection;
  // A protection with both passwords empty is removed (docs/merging.md#password-protection).
  if (!protection || (protection.readPassword === '' && protection.modifyPassword === '')) return () => undefined;
  const fill = (pattern: string, row: number) => fillColumnTags(pattern, cell(row));
  return (row) => ({ userPassword: fill(protection.readPassword, row), ownerPassword: fill(protection.modifyPassword, row) });
}

/**
 * Signature fields: one unsigned /Sig widget per placeholder and page. Each gets a thin grey frame as
 * its appearance (one shared stream per placeholder) so recipients see where to sign.
 */
function signaturePlan(context: PDFContext, placed: PlacedPlaceholder[]): SignaturePlan {
  const signatures = placed.filter((p) => p.placeholder.type === 'eSignature');
  const rects = new Map(signatures.map((p) => {
    const { x, y, width, height } = p.box;
    return [p, transformRect(p.page.visualToUser, [x, y, x + width, y + height]).map((value) => Number(pdfNumber(value)))] as const;
  }));
  const appearances = new Map(signatures.map((p) => {
    const [x0, y0, x1, y1] = rects.get(p)!;
    const [w, h] = [Number(pdfNumber(x1! - x0!)), Number(pdfNumber(y1! - y0!))];
    const frame = `q 0.6 0.6 0.6 RG 0.75 w 0.375 0.375 ${pdfNumber(w - 0.75)} ${pdfNumber(h - 0.75)} re S Q\n`;
    return [p, context.register(context.stream(frame, { Type: 'XObject', Subtype: 'Form', BBox: [0, 0, w, h] }))] as const;
  }));
  return {
    placed: signatures,
    widget(p: PlacedPlaceholder, pageRef: PDFRef, suffix: string): PDFDict {
      return context.obj({
        Type: 'Annot', Subtype: 'Widget', FT: 'Sig', F: 4, P: pageRef,
        T: PDFString.of(`${p.placeholder.id}${suffix}`), Rect: rects.get(p)!,
        MK: { BC: [0.6, 0.6, 0.6] }, AP: { N: appearances.get(p)! },
      }) as PDFDict;
    },
  };
}

/**
 * The objects to redefine so the document's form is as the merge needs it: our signature fields added
 * to the AcroForm, the template's fields gone when the form is flattened, and XFA gone when rows fill
 * fields (XFA viewers would show the template's own data). An indirect AcroForm is redefined in place,
 * so no copy with the old data stays reachable; the template's objects stay untouched.
 */
export function updatedFormObjects(context: PDFContext, rootRef: PDFRef, change: { signatureFields: PDFRef[]; dropTemplateFields: boolean; dropXfa: boolean }): Array<[PDFRef, PDFDict]> {
  const catalog = context.lookup(rootRef) as PDFDict;
  const existing = catalog.get(PDFName.of('AcroForm'));
  const resolved = existing instanceof PDFRef ? context.lookup(existing) : existing;
  const copyOf = (dict: PDFDict) => {
    const copy = context.obj({}) as PDFDict;
    for (const [key, value] of dict.entries()) copy.set(key, value);
    return copy;
  };
  if (change.dropTemplateFields) {
    const newCatalog = copyOf(catalog);
    if (!change.signatureFields.length) {
      newCatalog.delete(PDFName.of('AcroForm'));
      return [[rootRef, newCatalog]];
    }
    newCatalog.set(PDFName.of('AcroForm'), context.obj({ Fields: change.signatureFields, SigFlags: 1 }));
    return [[rootRef, newCatalog]];
  }
  if (!change.signatureFields.length && !(change.dropXfa && resolved instanceof PDFDict && resolved.has(PDFName.of('XFA')))) return [];
  const acroForm = resolved instanceof PDFDict ? copyOf(resolved) : (context.obj({}) as PDFDict);
  if (change.signatureFields.length) {
    const oldFields = acroForm.get(PDFName.of('Fields'));
    const oldList = oldFields instanceof PDFRef ? context.lookup(oldFields) : oldFields;
    const list = oldList instanceof PDFArray ? oldList.asArray() : [];
    acroForm.set(PDFName.of('Fields'), context.obj([...list, ...change.signatureFields]));
    acroForm.set(PDFName.of('SigFlags'), context.obj(1));
  }
  // XFA would override the AcroForm fields we fill or add.
  acroForm.delete(PDFName.of('XFA'));
  if (existing instanceof PDFRef) return [[existing, acroForm]];
  const newCatalog = copyOf(catalog);
  newCatalog.set(PDFName.of('AcroForm'), acroForm);
  return [[rootRef, newCatalog]];
}

/**
 * The catalog of a document where several rows keep their form fields: the template's AcroForm
 * (default appearance, resources) with /Fields replaced by the rows' copies and our signature fields,
 * XFA dropped (it would describe the template's single set of fields).
 */
export function catalogWithFieldCopies(context: PDFContext, rootRef: PDFRef, fields: PDFRef[], signatureFields: PDFRef[]): PDFDict {
  const catalog = context.lookup(rootRef) as PDFDict;
  const existing = catalog.get(PDFName.of('AcroForm'));
  const resolved = existing instanceof PDFRef ? context.lookup(existing) : existing;
  const acroForm = context.obj({}) as PDFDict;
  if (resolved instanceof PDFDict) for (const [key, value] of resolved.entries()) acroForm.set(key, value);
  acroForm.set(PDFName.of('Fields'), context.obj([...fields, ...signatureFields]));
  if (signatureFields.length) acroForm.set(PDFName.of('SigFlags'), context.obj(1));
  acroForm.delete(PDFName.of('XFA'));
  const newCatalog = context.obj({}) as PDFDict;
  for (const [key, value] of catalog.entries()) newCatalog.set(key, value);
  newCatalog.set(PDFName.of('AcroForm'), acroForm);
  return newCatalog;
}

/** "Placeholders only": blank pages of the template's size, built once and used as the base. */
async function blankTemplate(bytes: Uint8Array, repair: boolean): Promise<Template> {
  const source = await loadTemplate(bytes, { repair: true }).catch((error) => {
    if (!repair && error instanceof SheafError && error.code === 'template/damaged') return loadTemplate(bytes, { repair: true });
    throw error;
  });
  const blank = await PDFDocument.create({ updateMetadata: false });
  for (const page of source.pages) {
    const added = blank.addPage([page.mediaBox[2] - page.mediaBox[0], page.mediaBox[3] - page.mediaBox[1]]);
    added.setMediaBox(page.mediaBox[0], page.mediaBox[1], page.mediaBox[2] - page.mediaBox[0], page.mediaBox[3] - page.mediaBox[1]);
    const [x0, y0, x1, y1] = page.cropBox;
    added.setCropBox(x0, y0, x1 - x0, y1 - y0);
    added.setRotation({ type: 'degrees', angle: page.rotation } as never);
  }
  return loadTemplate(await blank.save({ useObjectStreams: false }));
}

export type { Placeholder };
