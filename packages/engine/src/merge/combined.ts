/**
 * Several rows in one document (combined output, or a "multiple" group): the template bytes stay as
 * the base, each template page becomes one shared Form XObject, and every row adds only a page
 * dictionary and a small content stream that draws the form and the row's values. Streamed: chunks
 * are yielded as they are made, so memory stays flat however many rows there are.
 */
import { PDFArray, PDFDict, PDFName, PDFRef, PDFRawStream, type PDFObject } from 'pdf-lib';
import { decodeStreamWithin } from '../pdf/decode.ts';
import { zlibSync } from 'fflate';
import { ascii, concatBytes } from '../pdf/bytes.ts';
import { classicXrefSection, serializeObject, serializeSection, xrefStreamSection, type XrefPlacement } from '../pdf/writer.ts';
import { catalogWithFieldCopies, updatedFormObjects, type MergePlan } from './plan.ts';
import { drawPage } from './rowDrawing.ts';
import { resourcesWith } from './pageObjects.ts';
import { streamObject } from './streams.ts';
import type { TemplatePage } from '../pdf/template.ts';

const KIDS_PER_NODE = 256;
const FORM_NAME = 'SheafPage';

/** Catalog entries that point into the template's page tree or structure and would dangle. */
const DROPPED_CATALOG_KEYS = ['Outlines', 'PageLabels', 'StructTreeRoot', 'MarkInfo', 'OpenAction', 'PageMode'];

export class CombinedWriter {
  private readonly shared: Uint8Array;
  private readonly sharedPlacements: XrefPlacement[];
  /** Per template page: the shared resources (form + fonts) unless images make them per row. */
  private readonly pageResources = new Map<number, PDFRef | undefined>();
  private readonly pageEntries = new Map<number, string>();
  private readonly forms = new Map<number, PDFRef>();
  private readonly signaturesByPage = new Map<number, MergePlan['signatures']['placed']>();
  /** Per template page: its links, notes and other non-field annotations, copied onto each output page. */
  private readonly annotations = new Map<number, PDFDict[]>();

  constructor(private readonly plan: MergePlan) {
    const { context, template } = plan;
    const sharedObjects: Array<[PDFRef, PDFObject]> = plan.sharedRefs.map((ref) => [ref, context.lookup(ref)!]);
    sharedObjects.push(...plan.forms.repairedAppearances);
    for (const page of template.pages) {
      this.annotations.set(page.index, copyableAnnotations(plan, page));
      this.signaturesByPage.set(page.index, plan.signatures.placed.filter((p) => p.page === page));
      const form = context.register(pageForm(plan, page));
      this.forms.set(page.index, form);
      sharedObjects.push([form, context.lookup(form)!]);
      const hasImages = (plan.byPage.get(page.index) ?? []).some((p) => p.placeholder.type === 'image');
      if (hasImages) continue;
      const resources = context.register(resourcesFor(plan, page, form, new Map()));
      this.pageResources.set(page.index, resources);
      sharedObjects.push([resources, context.lookup(resources)!]);
    }
    const section = serializeSection(sharedObjects, template.base.length);
    this.shared = section.bytes;
    this.sharedPlacements = section.placements;
  }

  /** Streams the whole document of `rows` (data-row indices, in order), in chunks of about 64 KB. */
  write(rows: readonly number[]): Generator<Uint8Array> {
    return batched(this.objects(rows));
  }

  /** The page dictionary's entries every copy of a template page shares (boxes, rotation, resources), as PDF text. */
  private sharedPageEntries(page: TemplatePage): string {
    let entries = this.pageEntries.get(page.index);
    if (entries === undefined) {
      const dict = this.plan.context.obj({ MediaBox: page.mediaBox, CropBox: page.cropBox, Rotate: page.rotation, Resources: this.pageResources.get(page.index) });
      entries = dict.toString().replace(/^<<\n?/, '').replace(/>>$/, '');
      this.pageEntries.set(page.index, entries);
    }
    return entries;
  }

  private *objects(rows: readonly number[]): Generator<Uint8Array> {
    const { plan } = this;
    const { context, template } = plan;
    const pageCount = rows.length * template.pages.length;
    // Object numbers: page-tree nodes first (so pages know their parent), then per page as we go.
    let next = context.largestObjectNumber + 1;
    const leafCount = Math.ceil(pageCount / KIDS_PER_NODE);
    const rootPages = leafCount > 1 ? next++ : -1;
    const leaves = Array.from({ length: leafCount }, () => next++);
    const placements: XrefPlacement[] = [...this.sharedPlacements];
    let offset = template.base.length + this.shared.length;
    yield template.base;
    yield this.shared;
    const emit = (number: number, bytes: Uint8Array) => {
      placements.push({ number, generation: 0, offset });
      offset += bytes.length;
      return bytes;
    };

    const kids: number[] = [];
    const writtenImages = new Set<number>();
    const fields: PDFRef[] = [];
    const rowFields: PDFRef[] = [];
    let pageIndex = 0;
    for (const row of rows) {
      const pageNumbers = template.pages.map(() => next++);
      // Kept form fields: the row's own copy, named for the row when rows share the document.
      const formCopy = plan.forms.rowCopy(row, {
        pageRef: (index) => PDFRef.of(pageNumbers[index]!),
        allocate: () => PDFRef.of(next++),
        parentName: rows.length > 1 ? `row${plan.sheet.rowNumber(row)}` : undefined,
      });
      if (formCopy) {
        for (const [ref, object] of formCopy.objects) yield emit(ref.objectNumber, serializeObject(ref, object));
        rowFields.push(...formCopy.fields);
      }
      for (const page of template.pages) {
        const parent = leaves[Math.floor(pageIndex / KIDS_PER_NODE)]!;
        const used = new Set<string>();
        const operators = drawPage(plan.draw, page, plan.byPage.get(page.index) ?? [], row, (name) => used.add(name));
        const contentNumber = next++;
        const pageNumber = pageNumbers[page.index]!;
        kids.push(pageNumber);
        yield emit(contentNumber, streamObject(contentNumber, `q /${FORM_NAME} Do Q\n${operators}`, plan.options.isCompressedOutput));

        let resources: PDFRef | PDFDict | undefined = this.pageResources.get(page.index);
        if (!resources) {
          const images = new Map<string, PDFRef>();
          for (const name of used) {
            const image = plan.draw.images.byResourceName(name);
            images.set(name, image.ref);
            // Each image is written once per document, the first time a page uses it.
            for (const object of image.objects) {
              if (writtenImages.has(object.ref.objectNumber)) continue;
              writtenImages.add(object.ref.objectNumber);
              yield emit(object.ref.objectNumber, object.bytes);
            }
          }
          resources = resourcesFor(plan, page, this.forms.get(page.index)!, images);
        }
        const annots: PDFRef[] = [...(formCopy?.widgetsByPage.get(page.index) ?? [])];
        // An annotation belongs to one page: each output page gets its own copies.
        for (const annotation of this.annotations.get(page.index)!) {
          const copyNumber = next++;
          const copy = context.obj({}) as PDFDict;
          for (const [key, value] of annotation.entries()) copy.set(key, value);
          copy.set(PDFName.of('P'), PDFRef.of(pageNumber));
          yield emit(copyNumber, serializeObject(PDFRef.of(copyNumber), copy));
          annots.push(PDFRef.of(copyNumber));
        }
        for (const placed of this.signaturesByPage.get(page.index) ?? []) {
          const widgetNumber = next++;
          const ref = PDFRef.of(widgetNumber);
          const suffix = rows.length > 1 ? `_${plan.sheet.rowNumber(row)}` : '';
          yield emit(widgetNumber, serializeObject(ref, plan.signatures.widget(placed, PDFRef.of(pageNumber), suffix)));
          annots.push(ref);
          fields.push(ref);
        }
        const shared = this.pageResources.get(page.index) && !annots.length ? this.sharedPageEntries(page) : undefined;
        if (shared) {
          // Tens of thousands of pages: written from text, not built and serialised as pdf-lib objects.
          yield emit(pageNumber, ascii(`${pageNumber} 0 obj\n<<\n/Type /Page\n/Parent ${parent} 0 R\n/Contents ${contentNumber} 0 R\n${shared}>>\nendobj\n`));
        } else {
          const dict = context.obj({
            Type: 'Page',
            Parent: PDFRef.of(parent),
            MediaBox: page.mediaBox,
            CropBox: page.cropBox,
            Rotate: page.rotation,
            Resources: resources,
            Contents: PDFRef.of(contentNumber),
            ...(annots.length ? { Annots: annots } : {}),
          });
          yield emit(pageNumber, serializeObject(PDFRef.of(pageNumber), dict));
        }
        pageIndex++;
      }
    }

    for (let leaf = 0; leaf < leafCount; leaf++) {
      const leafKids = kids.slice(leaf * KIDS_PER_NODE, (leaf + 1) * KIDS_PER_NODE).map((n) => PDFRef.of(n));
      const dict = context.obj({ Type: 'Pages', Count: leafKids.length, Kids: leafKids, ...(rootPages > 0 ? { Parent: PDFRef.of(rootPages) } : {}) });
      yield emit(leaves[leaf]!, serializeObject(PDFRef.of(leaves[leaf]!), dict));
    }
    if (rootPages > 0) {
      const dict = context.obj({ Type: 'Pages', Count: pageCount, Kids: leaves.map((n) => PDFRef.of(n)) });
      yield emit(rootPages, serializeObject(PDFRef.of(rootPages), dict));
    }

    const rootRef = template.chain.trailer.get(PDFName.of('Root')) as PDFRef;
    // Fields are flattened into the page forms, or kept as per-row copies.
    const catalog = plan.forms.flatten || !plan.forms.hasFields
      ? (updatedFormObjects(context, rootRef, { signatureFields: fields, dropTemplateFields: true, dropXfa: true }) as [[PDFRef, PDFDict]])[0][1]
      : catalogWithFieldCopies(context, rootRef, rowFields, fields);
    for (const key of DROPPED_CATALOG_KEYS) catalog.delete(PDFName.of(key));
    catalog.set(PDFName.of('Pages'), PDFRef.of(rootPages > 0 ? rootPages : leaves[0]!));
    yield emit(rootRef.objectNumber, serializeObject(rootRef, catalog));

    const trailerDict = template.chain.trailer;
    const trailer = {
      // The xref stream, when there is one, takes number `next`.
      size: template.chain.newestIsStream ? next + 1 : next,
      root: rootRef,
      info: trailerDict.get(PDFName.of('Info')),
      id: trailerDict.get(PDFName.of('ID')),
      prev: template.chain.startxref,
    };
    yield template.chain.newestIsStream
      ? xrefStreamSection(placements, trailer, context, PDFRef.of(next), offset)
      : classicXrefSection(placements, trailer, context, offset);
  }
}

/** The template page's content as one Form XObject, compressed once per merge. */
function pageForm(plan: MergePlan, page: TemplatePage): PDFRawStream {
  const { context } = plan;
  const parts: Uint8Array[] = [];
  for (const ref of page.contents) {
    const stream = context.lookup(ref);
    if (!(stream instanceof PDFRawStream)) continue;
    parts.push(decodeStreamWithin(stream, plan.template.budget), ascii('\n'));
  }
  const content = zlibSync(concatBytes(parts), { level: 6 });
  return context.stream(content, {
    Type: 'XObject',
    Subtype: 'Form',
    BBox: page.mediaBox,
    Resources: page.dict.get(PDFName.of('Resources')) ?? page.resources,
    Filter: 'FlateDecode',
  });
}

function resourcesFor(plan: MergePlan, page: TemplatePage, form: PDFRef, images: Map<string, PDFRef>): PDFDict {
  const xObjects = new Map([...plan.forms.xObjects(page.index), ...images, [FORM_NAME, form]]);
  return resourcesWith(plan.context, page, { fonts: plan.fontRefs, xObjects });
}

/** Joins the many small objects into blocks so consumers make few, large writes. */
function* batched(source: Iterable<Uint8Array>, blockSize = 65_536): Generator<Uint8Array> {
  let parts: Uint8Array[] = [];
  let length = 0;
  for (const chunk of source) {
    if (chunk.length >= blockSize) {
      if (length) yield concatBytes(parts);
      parts = [];
      length = 0;
      yield chunk;
      continue;
    }
    parts.push(chunk);
    length += chunk.length;
    if (length >= blockSize) {
      yield concatBytes(parts);
      parts = [];
      length = 0;
    }
  }
  if (length) yield concatBytes(parts);
}

/** Annotation keys that point at other annotations, which are not copied with it. */
const LINKED_ANNOTATION_KEYS = ['Popup', 'IRT', 'Parent'];

/**
 * The page's annotations other than form widgets (flattened into the page, or copied per row with
 * their fields) and pop-ups (they hang off another annotation), as templates to copy.
 */
function copyableAnnotations(plan: MergePlan, page: TemplatePage): PDFDict[] {
  const { context } = plan;
  const annots = page.dict.get(PDFName.of('Annots'));
  const list = annots instanceof PDFRef ? context.lookup(annots) : annots;
  if (!(list instanceof PDFArray)) return [];
  const copies: PDFDict[] = [];
  for (const item of list.asArray()) {
    const annotation = item instanceof PDFRef ? context.lookup(item) : item;
    if (!(annotation instanceof PDFDict)) continue;
    const subtype = annotation.get(PDFName.of('Subtype'));
    if (subtype === PDFName.of('Widget') || subtype === PDFName.of('Popup')) continue;
    const copy = context.obj({}) as PDFDict;
    for (const [key, value] of annotation.entries()) if (!LINKED_ANNOTATION_KEYS.includes(key.asString().slice(1))) copy.set(key, value);
    copies.push(copy);
  }
  return copies;
}
