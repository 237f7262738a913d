/** Builds the page and resource dictionaries an output document uses in place of the template's. */
import { PDFArray, PDFDict, PDFName, PDFRef, type PDFContext, type PDFObject } from 'pdf-lib';
import type { TemplatePage } from '../pdf/template.ts';

export interface PageExtras {
  /** Font resources to add (resource name -> font dictionary). */
  fonts: ReadonlyMap<string, PDFRef>;
  /** XObject resources to add (images, template page forms). */
  xObjects?: ReadonlyMap<string, PDFRef>;
  /** Annotations to add (signature fields). */
  annotations?: readonly PDFRef[];
  /** Annotation object numbers to drop (widgets of a flattened form). */
  removedAnnotations?: ReadonlySet<number>;
}

function resolveDict(context: PDFContext, value: PDFObject | undefined): PDFDict | undefined {
  const resolved = value instanceof PDFRef ? context.lookup(value) : value;
  return resolved instanceof PDFDict ? resolved : undefined;
}

/** A copy of `base` with `additions` merged in (the copy never aliases the template's objects). */
function mergedSubdict(context: PDFContext, base: PDFObject | undefined, additions: ReadonlyMap<string, PDFRef> | undefined): PDFDict | undefined {
  const existing = resolveDict(context, base);
  if (!additions?.size) return existing;
  const dict = context.obj({}) as PDFDict;
  if (existing) for (const [key, value] of existing.entries()) dict.set(key, value);
  for (const [name, ref] of additions) dict.set(PDFName.of(name), ref);
  return dict;
}

/** The page's effective resources plus ours, as a new dictionary. */
export function resourcesWith(context: PDFContext, page: TemplatePage, extras: PageExtras): PDFDict {
  const resources = context.obj({}) as PDFDict;
  for (const [key, value] of page.resources.entries()) resources.set(key, value);
  const font = mergedSubdict(context, page.resources.get(PDFName.of('Font')), extras.fonts);
  if (font) resources.set(PDFName.of('Font'), font);
  const xObject = mergedSubdict(context, page.resources.get(PDFName.of('XObject')), extras.xObjects);
  if (xObject) resources.set(PDFName.of('XObject'), xObject);
  return resources;
}

/**
 * The template page redefined for an incremental update: contents wrapped so the template's graphics
 * state cannot leak into ours ([q-stream, ...original, row stream starting with Q]).
 */
export function updatedPageDict(context: PDFContext, page: TemplatePage, openRef: PDFRef, rowContentRef: PDFRef | undefined, extras: PageExtras): PDFDict {
  const dict = context.obj({}) as PDFDict;
  for (const [key, value] of page.dict.entries()) dict.set(key, value);
  if (rowContentRef) dict.set(PDFName.of('Contents'), context.obj([openRef, ...page.contents, rowContentRef]));
  dict.set(PDFName.of('Resources'), resourcesWith(context, page, extras));
  if (extras.annotations?.length || extras.removedAnnotations?.size) {
    const existing = page.dict.get(PDFName.of('Annots'));
    const resolved = existing instanceof PDFRef ? context.lookup(existing) : existing;
    const removed = extras.removedAnnotations;
    const items = (resolved instanceof PDFArray ? resolved.asArray() : []).filter(
      (item) => !(removed && item instanceof PDFRef && removed.has(item.objectNumber)),
    );
    dict.set(PDFName.of('Annots'), context.obj([...items, ...(extras.annotations ?? [])]));
  }
  return dict;
}
