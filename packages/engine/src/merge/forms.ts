/**
 * Template form fields: fields named like a heading are filled per row. Kept editable, a filled field
 * gets its value and a fresh appearance per row; flattened (or in combined output, where fields
 * cannot repeat), every widget's appearance is drawn into the page and the form removed.
 */
import { PDFDict, PDFHexString, PDFName, PDFRef, PDFStream, PDFNumber, PDFArray, PDFRawStream, type PDFContext, type PDFObject } from 'pdf-lib';
import { pdfNumber } from '../pdf/bytes.ts';
import { transformRect } from '../pdf/geometry.ts';
import type { FontRegistry } from '../text/index.ts';
import type { TextStyle } from '../text/types.ts';
import type { SheetData } from '../sheet/types.ts';
import type { Template } from '../pdf/template.ts';
import { formNeedsAppearances, readFormFields, resolve, textOf, type FormField, type FormWidget } from './formFields.ts';
import { columnIndex } from './placed.ts';
import { fieldAppearance, widgetLook, type WidgetLook } from './fieldAppearance.ts';
import { copyFieldTree, readFieldTree, type CopyTarget, type RowFormCopy } from './formCopies.ts';

const TRUTHY = new Set(['true', 'yes', 'y', 'x', '1', 'on', 'checked', '✓', '✔', 'ja', 'oui', 'sí', 'si', '是']);
const HIDDEN_FLAG = 2;

export interface FormPlan {
  flatten: boolean;
  /** Whether the template has any field at all (flattening then changes the catalog). */
  hasFields: boolean;
  /** Flatten: widget object numbers to drop from each page's /Annots. */
  removedWidgets(pageIndex: number): ReadonlySet<number> | undefined;
  /** Flatten: appearance forms to add to each page's /XObject resources. */
  xObjects(pageIndex: number): ReadonlyMap<string, PDFRef>;
  /**
   * Flatten: appearance streams redefined as proper Form XObjects (the template's lack /Subtype
   * /Form, which annotations may omit but a stream drawn with Do may not), for every document.
   */
  repairedAppearances: Array<[PDFRef, PDFObject]>;
  /** Flatten: user-space operators drawing the widgets' appearances for a row. */
  appearanceOperators(pageIndex: number, row: number): string;
  /** Keep: the field, widget and appearance objects that carry a row's values. */
  rowObjects(row: number): Array<[PDFRef, PDFObject]>;
  /**
   * Keep, several rows in one document: the row's own copy of every field, filled with its values
   * (undefined when flattening or without fields).
   */
  rowCopy(row: number, target: CopyTarget): RowFormCopy | undefined;
  /** Text each row shows in fields, for font collection. */
  collect(fonts: FontRegistry, row: number): void;
  /** Whether rows fill any template field (kept editable, XFA must then go). */
  fillsFields: boolean;
}

interface MatchedField {
  field: FormField;
  column: number;
  style: TextStyle;
  /** Per widget: its size, frame and comb cells. */
  looks: WidgetLook[];
  /** Keep mode: one appearance stream object per widget, reused by every row. */
  appearanceRefs: PDFRef[];
}

export function planForms(template: Template, sheet: SheetData, flatten: boolean, registry: () => FontRegistry, fontRefs: () => Map<string, PDFRef>): FormPlan {
  const context = template.doc.context;
  const fields = readFormFields(template);
  const matched: MatchedField[] = [];
  for (const field of fields) {
    const column = columnIndex(sheet, field.name) ?? columnIndex(sheet, field.name.split('.').pop()!);
    if (column === undefined || (field.kind !== 'Tx' && field.kind !== 'Ch' && field.kind !== 'Btn')) continue;
    matched.push({
      field,
      column,
      style: styleOf(field),
      looks: field.widgets.map((widget) => widgetLook(context, field, widget)),
      appearanceRefs: flatten ? [] : field.widgets.map(() => context.nextRef()),
    });
  }
  const matchedByField = new Map(matched.map((m) => [m.field.ref.objectNumber, m]));
  const fieldTree = flatten ? undefined : readFieldTree(template);

  const removed = new Map<number, Set<number>>();
  const forms = new Map<number, Map<string, PDFRef>>();
  /** Per page: draws for a row; built once. */
  const drawers = new Map<number, Array<(row: number) => string>>();
  const repaired = new Map<number, [PDFRef, PDFObject]>();
  /** Flatten: values of unfilled fields we draw ourselves, the same on every row. */
  const fixedTexts: Array<{ value: string; style: TextStyle; comb: boolean }> = [];
  const needAppearances = flatten && formNeedsAppearances(template);
  if (flatten) {
    let formCount = 0;
    const formName = (ref: PDFRef, pageIndex: number) => {
      const names = forms.get(pageIndex) ?? new Map<string, PDFRef>();
      forms.set(pageIndex, names);
      for (const [name, existing] of names) if (existing === ref) return name;
      const name = `SheafAP${++formCount}`;
      names.set(name, ref);
      const repair = asFormXObject(context, ref);
      if (repair) repaired.set(ref.objectNumber, [ref, repair]);
      return name;
    };
    for (const field of fields) {
      const match = matchedByField.get(field.ref.objectNumber);
      field.widgets.forEach((widget, widgetIndex) => {
        const page = template.pages[widget.pageIndex]!;
        removed.set(page.index, (removed.get(page.index) ?? new Set()).add(widget.ref.objectNumber));
        if (hidden(widget)) return;
        const list = drawers.get(page.index) ?? [];
        drawers.set(page.index, list);
        if (match && field.kind !== 'Btn') {
          const [x, y] = widget.rect;
          const look = match.looks[widgetIndex]!;
          const fonts = registry();
          list.push((row) => `q 1 0 0 1 ${pdfNumber(x)} ${pdfNumber(y)} cm\n${fieldAppearance(fonts, look, match.style, sheet.text(row, match.column))}Q\n`);
          return;
        }
        const states = appearanceStates(context, widget.dict);
        if (match) {
          const on = onState(states);
          const onOps = on ? appearanceOps(context, widget, states.get(on)!, formName(states.get(on)!, page.index)) : '';
          const off = states.get('Off');
          const offOps = off ? appearanceOps(context, widget, off, formName(off, page.index)) : '';
          list.push((row) => (checked(sheet.text(row, match.column), on) ? onOps : offOps));
        } else {
          const current = currentAppearance(context, widget.dict, states);
          // A reader draws a text or choice field's value itself when the form asks it to
          // (NeedAppearances, e.g. after pypdf filled it) or the widget has no appearance: so do we.
          if ((field.kind === 'Tx' || field.kind === 'Ch') && (needAppearances || !current)) {
            const [x, y] = widget.rect;
            const look = widgetLook(context, field, widget);
            const style = styleOf(field);
            const value = fieldValue(context, field);
            const fonts = registry();
            fixedTexts.push({ value, style, comb: look.combCells > 0 });
            let ops: string | undefined;
            list.push(() => (ops ??= `q 1 0 0 1 ${pdfNumber(x)} ${pdfNumber(y)} cm\n${fieldAppearance(fonts, look, style, value)}Q\n`));
          } else if (current) {
            const ops = appearanceOps(context, widget, current, formName(current, page.index));
            list.push(() => ops);
          }
        }
      });
    }
  }

  let fixedCollected = false;
  return {
    flatten,
    hasFields: fields.length > 0,
    fillsFields: matched.length > 0,
    removedWidgets: (pageIndex) => removed.get(pageIndex),
    xObjects: (pageIndex) => forms.get(pageIndex) ?? new Map(),
    repairedAppearances: [...repaired.values()],
    appearanceOperators: (pageIndex, row) => (drawers.get(pageIndex) ?? []).map((draw) => draw(row)).join(''),
    collect(fonts, row) {
      if (!fixedCollected) {
        fixedCollected = true;
        for (const { value, style, comb } of fixedTexts) collectText(fonts, value, style, comb);
      }
      for (const m of matched) {
        if (m.field.kind === 'Btn') continue;
        collectText(fonts, sheet.text(row, m.column), m.style, m.looks.some((look) => look.combCells > 0));
      }
    },
    rowCopy(row, target) {
      if (!fieldTree) return undefined;
      const copied = copyFieldTree(context, fieldTree, target);
      for (const m of matched) {
        fillField(context, m, sheet.text(row, m.column), registry(), fontRefs(), {
          dictOf: (ref) => copied.copies.get(ref.objectNumber)?.[1] ?? (context.obj({}) as PDFDict),
          appearanceRef: () => target.allocate(),
          addAppearance: (ref, stream) => copied.objects.push([ref, stream]),
        });
      }
      return copied;
    },
    rowObjects(row) {
      if (flatten) return [];
      const objects: Array<[PDFRef, PDFObject]> = [];
      for (const m of matched) objects.push(...filledField(context, m, sheet.text(row, m.column), registry(), fontRefs()));
      return objects;
    },
  };
}

/** Where a filled field's entries go: the dictionaries standing for the template's objects. */
interface FieldTarget {
  /** The dictionary to write for the template's field or widget `ref` (the same one when they are merged). */
  dictOf(ref: PDFRef): PDFDict;
  /** The object the appearance stream of widget `index` is written as. */
  appearanceRef(index: number): PDFRef;
  addAppearance(ref: PDFRef, stream: PDFObject): void;
}

/** A filled field's objects for one row: the field with /V, each widget with its appearance. */
function filledField(context: PDFContext, m: MatchedField, value: string, fonts: FontRegistry, fontRefs: Map<string, PDFRef>): Array<[PDFRef, PDFObject]> {
  const copies = new Map<number, [PDFRef, PDFDict]>();
  const appearances: Array<[PDFRef, PDFObject]> = [];
  fillField(context, m, value, fonts, fontRefs, {
    dictOf(ref) {
      let entry = copies.get(ref.objectNumber);
      if (!entry) copies.set(ref.objectNumber, (entry = [ref, copy(context, context.lookup(ref) as PDFDict)]));
      return entry[1];
    },
    appearanceRef: (index) => m.appearanceRefs[index]!,
    addAppearance: (ref, stream) => appearances.push([ref, stream]),
  });
  return [...copies.values(), ...appearances];
}

/** Writes a row's value into the field: /V, and per widget its /AS (buttons) or a fresh appearance. */
function fillField(context: PDFContext, m: MatchedField, value: string, fonts: FontRegistry, fontRefs: Map<string, PDFRef>, target: FieldTarget): void {
  const { field } = m;
  const fieldDict = target.dictOf(field.ref);
  if (field.kind === 'Btn') {
    let chosen: string | undefined;
    for (const widget of field.widgets) {
      const states = appearanceStates(context, widget.dict);
      const on = onState(states);
      const isOn = field.widgets.length > 1 ? on !== undefined && on.toLowerCase() === value.trim().toLowerCase() : checked(value, on);
      if (isOn) chosen = on;
      target.dictOf(widget.ref).set(PDFName.of('AS'), PDFName.of(isOn && on ? on : 'Off'));
    }
    fieldDict.set(PDFName.of('V'), PDFName.of(chosen ?? 'Off'));
    return;
  }
  fieldDict.set(PDFName.of('V'), PDFHexString.fromText(value));
  field.widgets.forEach((widget, i) => {
    const look = m.looks[i]!;
    const stream = context.stream(`/Tx BMC\n${fieldAppearance(fonts, look, m.style, value)}EMC\n`, {
      Type: 'XObject',
      Subtype: 'Form',
      BBox: [0, 0, Number(pdfNumber(look.width)), Number(pdfNumber(look.height))],
      Resources: { Font: Object.fromEntries(fontRefs) },
    });
    const ref = target.appearanceRef(i);
    target.addAppearance(ref, stream);
    target.dictOf(widget.ref).set(PDFName.of('AP'), context.obj({ N: ref }));
  });
}

/** Collects a field value's glyphs; comb cells draw character by character, centred. */
function collectText(fonts: FontRegistry, value: string, style: TextStyle, comb: boolean): void {
  fonts.collect(value, style);
  if (comb) for (const character of value) fonts.collect(character, { ...style, align: 'center', wrap: false });
}

/** The text a field holds (/V, inherited from its parents; a choice's first), or ''. */
function fieldValue(context: PDFContext, field: FormField): string {
  let dict: PDFDict | undefined = field.dict;
  for (let depth = 0; dict && depth < 32; depth++) {
    const value = resolve(context, dict.get(PDFName.of('V')));
    if (value !== undefined) {
      const first = value instanceof PDFArray ? resolve(context, value.get(0)) : value;
      return textOf(first) ?? (first instanceof PDFName ? first.decodeText() : '');
    }
    const parent = resolve(context, dict.get(PDFName.of('Parent')));
    dict = parent instanceof PDFDict ? parent : undefined;
  }
  return '';
}

/** The field's text style from its default appearance (/DA) and quadding (/Q). */
function styleOf(field: FormField): TextStyle {
  const font = /\/([^\s/]+)\s+([\d.]+)\s+Tf/.exec(field.da);
  const size = font ? Number(font[2]) : 0;
  const name = font?.[1]?.toLowerCase() ?? 'helv';
  const family = name.startsWith('cour') ? 'Courier' : name.startsWith('tiro') || name.startsWith('times') ? 'Times New Roman' : 'Helvetica';
  const rgb = /([\d.]+)\s+([\d.]+)\s+([\d.]+)\s+rg/.exec(field.da);
  const gray = /([\d.]+)\s+g(?:\s|$)/.exec(field.da);
  const channels = rgb ? [rgb[1], rgb[2], rgb[3]] : gray ? [gray[1], gray[1], gray[1]] : ['0', '0', '0'];
  const fill = `#${channels.map((c) => Math.round(Math.min(1, Number(c)) * 255).toString(16).padStart(2, '0')).join('')}`;
  const q = field.dict.get(PDFName.of('Q'));
  const quadding = q instanceof PDFNumber ? q.asNumber() : 0;
  const height = field.widgets[0] ? field.widgets[0].rect[3] - field.widgets[0].rect[1] : 20;
  return {
    fontFamily: family,
    fontStyle: 'normal',
    // Size 0 means "auto" in forms: fit the box.
    fontSize: size > 0 ? size : Math.min(12, height * 0.7),
    align: quadding === 1 ? 'center' : quadding === 2 ? 'right' : 'left',
    textDecoration: 'none',
    fill,
    wrap: false,
    shrinkToFit: size === 0,
  };
}

function appearanceStates(context: PDFContext, widget: PDFDict): Map<string, PDFRef> {
  const states = new Map<string, PDFRef>();
  const ap = resolve(context, widget.get(PDFName.of('AP')));
  if (!(ap instanceof PDFDict)) return states;
  const normal = ap.get(PDFName.of('N'));
  if (normal instanceof PDFRef && context.lookup(normal) instanceof PDFStream) states.set('', normal);
  const dict = resolve(context, normal);
  if (dict instanceof PDFDict) {
    for (const [key, value] of dict.entries()) if (value instanceof PDFRef) states.set(key.asString().slice(1), value);
  }
  return states;
}

function onState(states: Map<string, PDFRef>): string | undefined {
  return [...states.keys()].find((state) => state !== 'Off' && state !== '');
}

function currentAppearance(context: PDFContext, widget: PDFDict, states: Map<string, PDFRef>): PDFRef | undefined {
  if (states.has('')) return states.get('');
  const as = resolve(context, widget.get(PDFName.of('AS')));
  return as instanceof PDFName ? states.get(as.asString().slice(1)) : undefined;
}

function checked(value: string, on: string | undefined): boolean {
  const text = value.trim().toLowerCase();
  return TRUTHY.has(text) || (on !== undefined && text === on.toLowerCase());
}

function hidden(widget: FormWidget): boolean {
  const flags = widget.dict.get(PDFName.of('F'));
  return flags instanceof PDFNumber && (flags.asNumber() & HIDDEN_FLAG) !== 0;
}

/** Operators drawing an appearance form into the widget's rectangle (ISO 32000 12.5.5). */
function appearanceOps(context: PDFContext, widget: FormWidget, ref: PDFRef, name: string): string {
  const stream = context.lookup(ref);
  if (!(stream instanceof PDFStream)) return '';
  const numbers = (key: string, fallback: number[]) => {
    const value = resolve(context, stream.dict.get(PDFName.of(key)));
    return value instanceof PDFArray ? value.asArray().map((n) => (n instanceof PDFNumber ? n.asNumber() : 0)) : fallback;
  };
  const [b0 = 0, b1 = 0, b2 = 1, b3 = 1] = numbers('BBox', [0, 0, 1, 1]);
  const matrix = numbers('Matrix', [1, 0, 0, 1, 0, 0]) as [number, number, number, number, number, number];
  const [x0, y0, x1, y1] = transformRect(matrix, [b0, b1, b2, b3]);
  const [r0, r1, r2, r3] = widget.rect;
  const sx = x1 - x0 === 0 ? 1 : (r2 - r0) / (x1 - x0);
  const sy = y1 - y0 === 0 ? 1 : (r3 - r1) / (y1 - y0);
  return `q ${pdfNumber(sx)} 0 0 ${pdfNumber(sy)} ${pdfNumber(r0 - x0 * sx)} ${pdfNumber(r1 - y0 * sy)} cm /${name} Do Q\n`;
}

/**
 * The appearance stream with /Type /XObject and /Subtype /Form when it lacks them (ISO 32000 8.10.2
 * requires them for a stream drawn with Do; many tools leave them out of annotation appearances,
 * which viewers draw directly), or undefined when it already is a Form XObject.
 */
function asFormXObject(context: PDFContext, ref: PDFRef): PDFStream | undefined {
  const stream = context.lookup(ref);
  if (!(stream instanceof PDFRawStream)) return undefined;
  if (stream.dict.get(PDFName.of('Subtype')) === PDFName.of('Form') && stream.dict.get(PDFName.of('Type')) === PDFName.of('XObject')) return undefined;
  const dict = copy(context, stream.dict);
  dict.set(PDFName.of('Type'), PDFName.of('XObject'));
  dict.set(PDFName.of('Subtype'), PDFName.of('Form'));
  return PDFRawStream.of(dict, stream.contents);
}

function copy(context: PDFContext, dict: PDFDict): PDFDict {
  const out = context.obj({}) as PDFDict;
  for (const [key, value] of dict.entries()) out.set(key, value);
  return out;
}
