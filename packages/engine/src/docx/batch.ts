/**
 * Many rows in one DOCX, for PDF output (docs/word-templates.md#pdf-output-in-batches): converting
 * one document costs LibreOffice seconds, so a batch of rows becomes one document, converted once,
 * and the PDF is cut at each row's bookmark (pdf/split.ts). Each row's body follows the previous
 * one and starts a new page section numbered from 1, with a bookmark `SheafRow<k>` in its first
 * paragraph; headers and footers with fields get a copy per row. Planned once per merge from the
 * compiled segments; a row only joins segments.
 */
import { SheafError } from '@sheaf/shared';
import { concatBytes } from '../pdf/bytes.ts';
import type { SheetData } from '../sheet/types.ts';
import { idSpans, markRowElements, renderMarked, sectionSlot, type RowContext, type Slot } from './batch-ids.ts';
import { addRowParts, partText, planRowParts, type BatchPart } from './batch-parts.ts';
import { footnoteNumbering, hasPageCountField, withDocumentFootnoteNumbers, withPageCount } from './batch-numbering.ts';
import { withMarkAtStart, withSectionAtEnd } from './batch-xml.ts';
import { fillSegments, type Segment } from './compile.ts';
import type { PictureLibrary } from './images.ts';
import { assembleZip, packEntry, type PackedEntry } from './pack.ts';
import { notDocx } from './xml.ts';

export type { BatchPart } from './batch-parts.ts';

/** Letters and digits only: LibreOffice 7.4 writes other characters of a destination name wrongly ("_" as "5F", without "#"). */
export const ROW_BOOKMARK_PREFIX = 'SheafRow';

/** The bookmark (and PDF named destination) at the start of group `index` of a batch. */
export function rowBookmarkName(index: number): string {
  return `${ROW_BOOKMARK_PREFIX}${index}`;
}

/** ZIP entries a batch may have (no ZIP64 here): smaller batches for templates with many per-row headers. */
const MAX_ENTRIES = 65_535;

/** How a batch is filled for its conversion to PDF (batch-numbering.ts); without them, as a combined DOCX. */
export interface BatchFillOptions {
  /** Number each document's footnotes from the template's start (custom marks LibreOffice prints). */
  documentFootnotes?: boolean;
  /** Each document's page count (by group), printed by its NUMPAGES and SECTIONPAGES fields. */
  pageCounts?: readonly number[];
  /**
   * XML after the last document, which then ends its own section (`section`, its w:sectPr): the
   * pages of blocks of a stamp batch (stamp-plan.ts), ending with the body's final w:sectPr.
   */
  tail?: (section: string) => string;
}

export interface BatchPlan {
  /** Whether the template prints a page count (NUMPAGES, SECTIONPAGES) in its body, headers or footers. */
  readonly countsPages: boolean;
  /** Whether the template's body has endnotes (LibreOffice prints a batch's endnotes after its last document). */
  readonly hasEndnotes: boolean;
  fill(sheet: SheetData, groups: readonly (readonly number[])[], options?: BatchFillOptions): Uint8Array;
}

interface MainDocument {
  /** Through <w:body>. */
  prefix: string;
  body: Segment[];
  /** The body's own w:sectPr, the last section's properties ("" when it has none). */
  finalSection: Slot;
  suffix: string;
}

const encoder = new TextEncoder();

/** `pictures`: the merge's pictures, when the template has picture tags. */
export function planBatch(parts: readonly BatchPart[], level: 0 | 2 | 6, pictures?: PictureLibrary): BatchPlan {
  const rowParts = planRowParts(parts);
  const main = parts.find((part) => part.name === rowParts.mainName)!;
  const mainSegments = main.segments ?? [partText(main)];
  const mainText = partText(main);
  const settings = parts.find((part) => /(^|\/)settings\.xml$/i.test(part.name));
  const countsPages = hasPageCountField(mainText) || rowParts.countsPages;
  const perRowSegments = [...rowParts.perRow.values()].map((entry) => entry.segments);
  const notes = [...rowParts.notes.values()].map((entry) => entry.segments);
  const spans = idSpans([mainSegments, ...perRowSegments, ...notes]);
  const slots: Slot[] = [];
  const document = splitMain(mainSegments, slots, spans);
  for (const entry of rowParts.perRow.values()) entry.segments = markRowElements(entry.segments, slots, spans);
  const bookmarkBase = spans.bookmark;
  const footnotes = footnoteNumbering(settings ? partText(settings) : '', mainText.slice(mainText.lastIndexOf('<w:sectPr')));

  return {
    countsPages,
    hasEndnotes: /<w:endnoteReference\b/.test(mainText),
    fill(sheet, groups, options = {}) {
      const { pageCounts } = options;
      if (pageCounts && pageCounts.length !== groups.length) throw new RangeError(`${pageCounts.length} page counts for ${groups.length} documents`);
      if (groups.length === 0 || groups.some((rows) => rows.length === 0)) throw new SheafError('merge/no-rows');
      const copies = rowParts.perRow.size * 2 * (groups.length - 1);
      if (parts.length + copies > MAX_ENTRIES) throw new RangeError(`a batch of ${groups.length} rows needs more than ${MAX_ENTRIES} ZIP entries; make smaller batches`);
      const extra: PackedEntry[] = [];
      // Picture ids after every row's copy of the template's drawing ids (batch-ids.ts).
      const documentPictures = pictures?.newDocument(pictures.drawingSpan * groups.length, level);
      const pageCount = pageCounts && ((row: number) => pageCounts[row]);
      const fillSettings = { slots, spans, level, pictures: documentPictures, pageCount };
      const chunks: Uint8Array[] = [encoder.encode(document.prefix)];
      // The row's own id space: bookmarks of later rows start after every copied template bookmark.
      const sheafBookmarkId = (row: number) => bookmarkBase * groups.length + row;
      groups.forEach((rows, row) => {
        const context: RowContext = { row, sections: 0, relId: (id) => rowParts.relId(id, row) };
        const out: string[] = [];
        fillSegments(document.body, sheet, rows[0]!, rows, out, documentPictures?.part(main.name));
        const id = sheafBookmarkId(row);
        let body = renderMarked(out.join(''), slots, context);
        if (pageCounts) body = withPageCount(body, pageCounts[row]!);
        if (options.documentFootnotes) body = withDocumentFootnoteNumbers(body, footnotes);
        body = withMarkAtStart(body, `<w:bookmarkStart w:id="${id}" w:name="${rowBookmarkName(row)}"/><w:bookmarkEnd w:id="${id}"/>`);
        const section = document.finalSection(context);
        if (row < groups.length - 1) body = withSectionAtEnd(body, section);
        else body = options.tail ? withSectionAtEnd(body, section) + options.tail(section) : body + section;
        chunks.push(encoder.encode(body));
        if (row > 0) extra.push(...rowParts.copies(sheet, rows, context, fillSettings));
      });
      chunks.push(encoder.encode(document.suffix));
      const entries = parts.map((part) => {
        if (part.name === main.name) return packJoined(part.name, chunks, level);
        return addRowParts(part, rowParts, sheet, groups, fillSettings);
      });
      const all = [...entries, ...extra];
      return assembleZip(documentPictures ? documentPictures.finish(all) : all);
    },
  };
}

/** The main document's XML around its body, and the body's segments with their row elements marked. */
function splitMain(segments: Segment[], slots: Slot[], spans: ReturnType<typeof idSpans>): MainDocument {
  const first = segments[0];
  const last = segments.at(-1);
  if (typeof first !== 'string' || typeof last !== 'string') throw notDocx('the main document has no w:body');
  const bodyOpen = /<w:body\b[^>]*>/.exec(first);
  if (!bodyOpen) throw notDocx('the main document has no w:body');
  const bodyStart = bodyOpen.index + bodyOpen[0].length;
  const bodyEnd = last.lastIndexOf('</w:body>');
  if (bodyEnd < 0 || (segments.length === 1 && bodyEnd < bodyStart)) throw notDocx('the main document has no w:body');
  // The body's own w:sectPr is its last element; one inside the last paragraph is not it.
  const sectionAt = last.lastIndexOf('<w:sectPr', bodyEnd);
  const finalSection = sectionAt >= 0 && (segments.length > 1 || sectionAt >= bodyStart) && /^<w:sectPr\b[\s\S]*<\/w:sectPr>\s*$|^<w:sectPr\b[^>]*\/>\s*$/.test(last.slice(sectionAt, bodyEnd)) && !last.slice(sectionAt, bodyEnd).includes('</w:p>')
    ? last.slice(sectionAt, bodyEnd).trimEnd()
    : '';
  const contentEnd = finalSection ? sectionAt : bodyEnd;
  let body: Segment[];
  if (segments.length === 1) body = [first.slice(bodyStart, contentEnd)];
  else body = [first.slice(bodyStart), ...segments.slice(1, -1), last.slice(0, contentEnd)];
  return {
    prefix: first.slice(0, bodyStart),
    body: markRowElements(body, slots, spans),
    finalSection: sectionSlot(finalSection || '<w:sectPr/>'),
    suffix: last.slice(bodyEnd),
  };
}

/** One entry from the row chunks: they are joined once, then dropped. */
function packJoined(name: string, chunks: Uint8Array[], level: 0 | 2 | 6): PackedEntry {
  const data = concatBytes(chunks);
  chunks.length = 0;
  return packEntry(name, data, level);
}
