/**
 * One document per row as an incremental update of the template: the original bytes, then a shared
 * section serialised once per merge (fonts, the page dictionaries, signature fields), then the row's
 * own content streams and a small xref section. Per row we write a few hundred bytes.
 */
import { PDFName, PDFRef, type PDFDict, type PDFObject } from 'pdf-lib';
import { classicXrefSection, serializeObject, serializeSection, xrefStreamSection, type TrailerFields, type XrefPlacement } from '../pdf/writer.ts';
import { updatedFormObjects, type MergePlan } from './plan.ts';
import { drawPage } from './rowDrawing.ts';
import { updatedPageDict } from './pageObjects.ts';
import { streamObject } from './streams.ts';
import type { TemplatePage } from '../pdf/template.ts';

export interface RowDocument {
  chunks: Uint8Array[];
  byteLength: number;
}

export class SeparateDocumentWriter {
  private readonly shared: Uint8Array;
  private readonly sharedPlacements: XrefPlacement[];
  private readonly contentRefs = new Map<number, PDFRef>();
  private readonly perRowPages: TemplatePage[];
  private readonly openRef: PDFRef;
  private readonly widgetsByPage = new Map<number, PDFRef[]>();
  private readonly xrefStreamRef?: PDFRef;
  private readonly trailer: Omit<TrailerFields, 'size'>;
  private readonly size: number;

  constructor(private readonly plan: MergePlan) {
    const { context, template, touchedPages, byPage } = plan;
    this.openRef = context.register(context.stream('q\n'));
    for (const page of touchedPages) this.contentRefs.set(page.index, context.nextRef());

    const sharedObjects: Array<[PDFRef, PDFObject]> = plan.sharedRefs.map((ref) => [ref, context.lookup(ref)!]);
    sharedObjects.push([this.openRef, context.lookup(this.openRef)!]);

    const root = template.chain.trailer.get(PDFName.of('Root')) as PDFRef;
    const widgets: PDFRef[] = [];
    for (const placed of plan.signatures.placed) {
      const ref = context.register(plan.signatures.widget(placed, placed.page.ref, ''));
      widgets.push(ref);
      this.widgetsByPage.set(placed.page.index, [...(this.widgetsByPage.get(placed.page.index) ?? []), ref]);
      sharedObjects.push([ref, context.lookup(ref)!]);
    }
    const dropTemplateFields = plan.forms.flatten && plan.forms.hasFields;
    const dropXfa = !plan.forms.flatten && plan.forms.fillsFields;
    sharedObjects.push(...updatedFormObjects(context, root, { signatureFields: widgets, dropTemplateFields, dropXfa }));
    sharedObjects.push(...plan.forms.repairedAppearances);

    // Pages whose images change per row get their dictionary per row; the others share one.
    const hasImages = (page: TemplatePage) => (byPage.get(page.index) ?? []).some((p) => p.placeholder.type === 'image');
    this.perRowPages = touchedPages.filter(hasImages);
    for (const page of touchedPages) {
      if (hasImages(page)) continue;
      sharedObjects.push([page.ref, this.pageDict(page, new Map())]);
    }

    const section = serializeSection(sharedObjects, template.base.length);
    this.shared = section.bytes;
    this.sharedPlacements = section.placements;

    if (template.chain.newestIsStream) this.xrefStreamRef = context.nextRef();
    const trailer = template.chain.trailer;
    this.trailer = { root, info: trailer.get(PDFName.of('Info')), id: trailer.get(PDFName.of('ID')), prev: template.chain.startxref };
    this.size = Math.max(template.chain.size, context.largestObjectNumber + 1);
  }

  /** The document of one data row. */
  write(row: number): RowDocument {
    const { plan } = this;
    const base = plan.template.base;
    const chunks: Uint8Array[] = [base, this.shared];
    const placements = [...this.sharedPlacements];
    let offset = base.length + this.shared.length;
    const place = (number: number, generation: number, bytes: Uint8Array) => {
      placements.push({ number, generation, offset });
      chunks.push(bytes);
      offset += bytes.length;
    };

    const usedImages = new Set<string>();
    for (const page of plan.touchedPages) {
      const operators = drawPage(plan.draw, page, plan.byPage.get(page.index) ?? [], row, (name) => usedImages.add(name));
      place(this.contentRefs.get(page.index)!.objectNumber, 0, streamObject(this.contentRefs.get(page.index)!.objectNumber, `Q\n${operators}`, plan.options.isCompressedOutput));
    }
    for (const [ref, object] of plan.forms.rowObjects(row)) place(ref.objectNumber, ref.generationNumber, serializeObject(ref, object));
    if (this.perRowPages.length) {
      const xObjects = new Map<string, PDFRef>();
      for (const name of usedImages) {
        const image = plan.draw.images.byResourceName(name);
        xObjects.set(name, image.ref);
        for (const object of image.objects) place(object.ref.objectNumber, object.ref.generationNumber, object.bytes);
      }
      for (const page of this.perRowPages) place(page.ref.objectNumber, page.ref.generationNumber, serializeObject(page.ref, this.pageDict(page, xObjects)));
    }

    const trailer = { ...this.trailer, size: this.size };
    const tail = this.xrefStreamRef
      ? xrefStreamSection(placements, trailer, plan.context, this.xrefStreamRef, offset)
      : classicXrefSection(placements, trailer, plan.context, offset);
    chunks.push(tail);
    return { chunks, byteLength: offset + tail.length };
  }

  private pageDict(page: TemplatePage, xObjects: Map<string, PDFRef>): PDFDict {
    const { context, fontRefs } = this.plan;
    return updatedPageDict(context, page, this.openRef, this.contentRefs.get(page.index), {
      fonts: fontRefs,
      xObjects: new Map([...this.plan.forms.xObjects(page.index), ...xObjects]),
      annotations: this.widgetsByPage.get(page.index),
      removedAnnotations: this.plan.forms.removedWidgets(page.index),
    });
  }
}
