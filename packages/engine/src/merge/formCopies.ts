/**
 * Form fields kept editable where several rows share one document (combined output, "multiple"
 * groups): each row gets its own copy of the template's field tree, under a parent field named for
 * the row ("row2", so `name` becomes `row2.name`), with widgets on that row's pages. Field names stay
 * distinct, so each row's values stay its own (docs/merging.md, "Form fields").
 */
import { PDFArray, PDFDict, PDFName, PDFRef, PDFString, type PDFContext, type PDFObject } from 'pdf-lib';
import type { Template } from '../pdf/template.ts';
import { annotationPages, pageOfP, resolve } from './formFields.ts';

const MAX_DEPTH = 32;

export interface RowFormCopy {
  /** New objects: the copied fields and widgets (and the row's parent field). */
  objects: Array<[PDFRef, PDFObject]>;
  /** What goes into the AcroForm's /Fields for this row. */
  fields: PDFRef[];
  /** Widget copies per template page index, for that page's /Annots. */
  widgetsByPage: Map<number, PDFRef[]>;
  /** The copy standing for a template field or widget object, by its object number. */
  copies: Map<number, [PDFRef, PDFDict]>;
}

export interface CopyTarget {
  /** The output page a template page becomes for this row. */
  pageRef(pageIndex: number): PDFRef;
  /** A fresh object number in the output. */
  allocate(): PDFRef;
  /** The row's parent field name, or undefined to keep the template's names (one row per document). */
  parentName?: string;
}

export interface FieldTree {
  /** The AcroForm's top-level fields. */
  roots: PDFRef[];
  /** Page index of each widget, by object number. */
  pageOf(widgetRef: PDFRef, widget: PDFDict): number | undefined;
}

/** The template's field tree as copies need it; undefined without an AcroForm. */
export function readFieldTree(template: Template): FieldTree | undefined {
  const { context } = template.doc;
  const catalog = context.lookup(template.chain.trailer.get(PDFName.of('Root'))) as PDFDict;
  const acroForm = resolve(context, catalog.get(PDFName.of('AcroForm')));
  if (!(acroForm instanceof PDFDict)) return undefined;
  const fields = resolve(context, acroForm.get(PDFName.of('Fields')));
  if (!(fields instanceof PDFArray)) return undefined;
  const pages = annotationPages(template);
  return {
    roots: fields.asArray().filter((ref): ref is PDFRef => ref instanceof PDFRef),
    pageOf: (ref, widget) => pages.get(ref.objectNumber) ?? pageOfP(template, widget),
  };
}

/** One row's copy of the whole field tree: every field and widget, with new object numbers. */
export function copyFieldTree(context: PDFContext, tree: FieldTree, target: CopyTarget): RowFormCopy {
  const copies = new Map<number, [PDFRef, PDFDict]>();
  const widgetsByPage = new Map<number, PDFRef[]>();
  const parentRef = target.parentName === undefined ? undefined : target.allocate();

  const visit = (ref: PDFRef, parent: PDFRef | undefined, depth: number): PDFRef | undefined => {
    if (copies.has(ref.objectNumber) || depth > MAX_DEPTH) return undefined;
    const dict = context.lookup(ref);
    if (!(dict instanceof PDFDict)) return undefined;
    const newRef = target.allocate();
    const copy = context.obj({}) as PDFDict;
    for (const [key, value] of dict.entries()) copy.set(key, value);
    copies.set(ref.objectNumber, [newRef, copy]);
    if (parent) copy.set(PDFName.of('Parent'), parent);
    else copy.delete(PDFName.of('Parent'));
    const kids = resolve(context, dict.get(PDFName.of('Kids')));
    if (kids instanceof PDFArray) {
      const kidCopies = kids.asArray().flatMap((kid) => (kid instanceof PDFRef ? (visit(kid, newRef, depth + 1) ?? []) : []));
      copy.set(PDFName.of('Kids'), context.obj(kidCopies));
    }
    if (dict.get(PDFName.of('Subtype')) === PDFName.of('Widget') || (!(kids instanceof PDFArray) && dict.has(PDFName.of('Rect')))) {
      const pageIndex = tree.pageOf(ref, dict);
      copy.delete(PDFName.of('Popup'));
      if (pageIndex !== undefined) {
        copy.set(PDFName.of('P'), target.pageRef(pageIndex));
        widgetsByPage.set(pageIndex, [...(widgetsByPage.get(pageIndex) ?? []), newRef]);
      } else {
        copy.delete(PDFName.of('P'));
      }
    }
    return newRef;
  };

  const roots = tree.roots.flatMap((root) => visit(root, parentRef, 0) ?? []);
  const objects: Array<[PDFRef, PDFObject]> = [...copies.values()];
  if (parentRef === undefined) return { objects, fields: roots, widgetsByPage, copies };
  objects.unshift([parentRef, context.obj({ T: PDFString.of(target.parentName!), Kids: roots })]);
  return { objects, fields: [parentRef], widgetsByPage, copies };
}
