/**
 * Reads the template's AcroForm: terminal fields with their full names, kinds, widgets and pages.
 * Fields whose name matches a spreadsheet heading are filled per row.
 */
import { PDFArray, PDFBool, PDFDict, PDFHexString, PDFName, PDFNumber, PDFRef, PDFString, type PDFContext, type PDFObject } from 'pdf-lib';
import type { Template } from '../pdf/template.ts';
import type { Rect } from '../pdf/geometry.ts';

export type FieldKind = 'Tx' | 'Btn' | 'Ch' | 'Sig' | 'other';

export interface FormWidget {
  ref: PDFRef;
  dict: PDFDict;
  pageIndex: number;
  /** User-space rectangle, normalised. */
  rect: Rect;
}

export interface FormField {
  ref: PDFRef;
  dict: PDFDict;
  name: string;
  kind: FieldKind;
  /** Default appearance string (inherited), e.g. "/Helv 12 Tf 0 g". */
  da: string;
  widgets: FormWidget[];
}

const MAX_DEPTH = 32;

export function readFormFields(template: Template): FormField[] {
  const { context } = template.doc;
  const catalog = context.lookup(template.chain.trailer.get(PDFName.of('Root'))) as PDFDict;
  const acroForm = resolve(context, catalog.get(PDFName.of('AcroForm')));
  if (!(acroForm instanceof PDFDict)) return [];
  const fieldsArray = resolve(context, acroForm.get(PDFName.of('Fields')));
  if (!(fieldsArray instanceof PDFArray)) return [];
  const pageByAnnot = annotationPages(template);
  const defaultDa = textOf(resolve(context, acroForm.get(PDFName.of('DA')))) ?? '/Helv 0 Tf 0 g';
  const fields: FormField[] = [];
  const seen = new Set<number>();

  const visit = (ref: PDFObject, parentName: string, inherited: { kind?: FieldKind; da: string }, depth: number) => {
    if (!(ref instanceof PDFRef) || seen.has(ref.objectNumber) || depth > MAX_DEPTH) return;
    seen.add(ref.objectNumber);
    const dict = context.lookup(ref);
    if (!(dict instanceof PDFDict)) return;
    const partial = textOf(resolve(context, dict.get(PDFName.of('T'))));
    const name = partial === undefined ? parentName : parentName ? `${parentName}.${partial}` : partial;
    const ft = dict.get(PDFName.of('FT'));
    const kind = ft instanceof PDFName ? kindOf(ft) : inherited.kind;
    const da = textOf(resolve(context, dict.get(PDFName.of('DA')))) ?? inherited.da;
    const kids = resolve(context, dict.get(PDFName.of('Kids')));
    const kidRefs = kids instanceof PDFArray ? kids.asArray() : [];
    const kidFields = kidRefs.filter((kid) => {
      const kidDict = kid instanceof PDFRef ? context.lookup(kid) : undefined;
      return kidDict instanceof PDFDict && kidDict.get(PDFName.of('T')) !== undefined;
    });
    if (kidFields.length > 0) {
      for (const kid of kidFields) visit(kid, name, { kind, da }, depth + 1);
      return;
    }
    // Terminal field: its widgets are its kids, or itself when field and widget are merged.
    const widgetRefs = kidRefs.length ? kidRefs : [ref];
    const widgets: FormWidget[] = [];
    for (const widgetRef of widgetRefs) {
      if (!(widgetRef instanceof PDFRef)) continue;
      const widget = context.lookup(widgetRef);
      if (!(widget instanceof PDFDict)) continue;
      const pageIndex = pageByAnnot.get(widgetRef.objectNumber) ?? pageOfP(template, widget);
      const rect = rectOf(resolve(context, widget.get(PDFName.of('Rect'))));
      if (pageIndex === undefined || !rect) continue;
      widgets.push({ ref: widgetRef, dict: widget, pageIndex, rect });
    }
    if (name) fields.push({ ref, dict, name, kind: kind ?? 'other', da, widgets });
  };
  for (const ref of fieldsArray.asArray()) visit(ref, '', { da: defaultDa }, 0);
  return fields;
}

function kindOf(name: PDFName): FieldKind {
  const value = name.asString().slice(1);
  return value === 'Tx' || value === 'Btn' || value === 'Ch' || value === 'Sig' ? value : 'other';
}

/** Whether the AcroForm asks readers to draw the fields' appearances themselves (NeedAppearances). */
export function formNeedsAppearances(template: Template): boolean {
  const { context } = template.doc;
  const catalog = context.lookup(template.chain.trailer.get(PDFName.of('Root'))) as PDFDict;
  const acroForm = resolve(context, catalog.get(PDFName.of('AcroForm')));
  if (!(acroForm instanceof PDFDict)) return false;
  const need = resolve(context, acroForm.get(PDFName.of('NeedAppearances')));
  return need instanceof PDFBool && need.asBoolean();
}

/** Page index of each annotation object number the pages list. */
export function annotationPages(template: Template): Map<number, number> {
  const { context } = template.doc;
  const map = new Map<number, number>();
  for (const page of template.pages) {
    const annots = resolve(context, page.dict.get(PDFName.of('Annots')));
    if (!(annots instanceof PDFArray)) continue;
    for (const annot of annots.asArray()) if (annot instanceof PDFRef) map.set(annot.objectNumber, page.index);
  }
  return map;
}

export function pageOfP(template: Template, widget: PDFDict): number | undefined {
  const p = widget.get(PDFName.of('P'));
  if (!(p instanceof PDFRef)) return undefined;
  const page = template.pages.find((candidate) => candidate.ref.objectNumber === p.objectNumber);
  return page?.index;
}

export function resolve(context: PDFContext, value: PDFObject | undefined): PDFObject | undefined {
  return value instanceof PDFRef ? context.lookup(value) : value;
}

export function textOf(value: PDFObject | undefined): string | undefined {
  if (value instanceof PDFString || value instanceof PDFHexString) return value.decodeText();
  return undefined;
}

function rectOf(value: PDFObject | undefined): Rect | undefined {
  if (!(value instanceof PDFArray) || value.size() < 4) return undefined;
  const [a, b, c, d] = value.asArray().map((item) => (item instanceof PDFNumber ? item.asNumber() : NaN));
  if (![a, b, c, d].every((n) => Number.isFinite(n))) return undefined;
  return [Math.min(a!, c!), Math.min(b!, d!), Math.max(a!, c!), Math.max(b!, d!)];
}
