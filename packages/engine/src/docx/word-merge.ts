/**
 * A merge of a Word template (docs/word-templates.md#merging): the rows chosen and grouped as for a
 * PDF template, named by the same file-name rule, filled from one compiled template. DOCX output is
 * made here, one document at a time. PDF output needs a converter (LibreOffice, outside the engine):
 * the documents come in batches, each batch one DOCX whose documents start on a page of their own
 * at a bookmark, converted once and cut at the bookmarks (`openBatchPdf`, pdf/split.ts).
 */
import { SheafError, columnIndex, columnTags, fillColumnTags, hasColumnTags, isValidPasswordPattern, type PasswordProtection, type RowSelection } from '@sheaf/shared';
import { createFileNamer } from '../merge/fileNames.ts';
import { groupRows, selectRows } from '../merge/selection.ts';
import type { OutputDocument } from '../merge/index.ts';
import type { RowIssue } from '../merge/types.ts';
import type { SheetData } from '../sheet/types.ts';
import { prepareDocx } from './prepare.ts';
import type { StampLayout } from '../pdf/stamp/stamp-pdf.ts';
import { pictureIssuesOf } from './image-issues.ts';

export interface WordMergeInput {
  /** The template as DOCX (other source types are converted at upload). */
  template: Uint8Array;
  sheet: SheetData;
  rows?: RowSelection;
  /** A heading: rows sharing its value make one document ("multiple", {{#each}} table rows). */
  groupBy?: string;
  /** File names of separate documents, with column tags; the extension is added. */
  fileNamePattern?: string;
  output: 'docx' | 'pdf';
  isCombinedOutput: boolean;
  /** PDF output only: DOCX files are not protected by Sheaf. */
  passwordProtection?: PasswordProtection;
  /** BCP 47 locale of MERGEFIELD date and number switches. */
  locale?: string;
  /** Text printed diagonally behind the text of every page (the Free plan's watermark; docs/plans.md#watermark). */
  watermark?: string;
  /** Images supplied with the template, by name (PNG or JPEG), for {{%image Column}} tags. */
  images?: ReadonlyMap<string, Uint8Array>;
  /** PDF output: false prints every document whole, never as a stamp batch (docs/word-templates.md#stamped-batches). Default true. */
  stamp?: boolean;
}

/** One document of a batch: where it goes in the merge and what it is called. */
export interface WordBatchDocument {
  index: number;
  fileName: string;
  rowNumbers: number[];
}

export interface WordBatch {
  /** One DOCX holding every document of the batch, each from a bookmark on a new page. */
  docx: Uint8Array;
  documents: WordBatchDocument[];
  /**
   * When the template prints page counts and the batch has several documents: the documents at
   * `positions` as one DOCX (in that order), each one's NUMPAGES/SECTIONPAGES printing its entry of
   * `pageCounts` (a guess, or the pages a conversion gave it). Convert this instead of `docx`.
   */
  countedDocx?: (positions: readonly number[], pageCounts: readonly number[]) => Uint8Array;
  /** The document at `position` alone: LibreOffice counts its pages itself (when page counts do not settle). */
  alone(position: number): Uint8Array;
  /** The documents at `positions` as one ordinary batch DOCX, in that order (those a stamp batch could not make). */
  subset(positions: readonly number[]): Uint8Array;
  /**
   * The batch as a stamp batch (docx/stamp-plan.ts, pdf/stamp/): convert this and open it with
   * `openStampPdf(pdf, documents.length, layout)` instead of converting `docx`. Undefined when the
   * template cannot be stamped or the batch holds one document.
   */
  readonly stamp: { docx: Uint8Array; layout: StampLayout } | undefined;
}

export interface PreparedWordMerge {
  readonly documentCount: number;
  readonly rowCount: number;
  readonly isCombined: boolean;
  readonly output: 'docx' | 'pdf';
  /** Per-row problems found so far (documents skipped: an image nobody supplied, a QR code text too long). */
  readonly issues: RowIssue[];
  /** DOCX output: the separate documents, made lazily, from `start` (a resumed merge). */
  documents(start?: number): Generator<OutputDocument>;
  /**
   * The combined document as DOCX (every document one after another, each from a new page). For PDF
   * output each document numbers its footnotes from the start, and with `pageCounts` (by position)
   * prints its own page count.
   */
  combinedDocx(pageCounts?: readonly number[]): Uint8Array;
  /** Documents in the combined document (those not skipped). */
  readonly combinedDocumentCount: number;
  /** Whether the template prints a page count ("Page X of N"): its PDF output takes a second conversion (docs/word-templates.md). */
  readonly countsPages: boolean;
  /** Whether the template has endnotes: LibreOffice prints a batch's endnotes after its last document, so PDF batches hold one document. */
  readonly hasEndnotes: boolean;
  /** PDF output: the separate documents in batches of `size` documents, from `start`. */
  batches(size: number, start?: number): Generator<WordBatch>;
  /** The passwords of document `index` (PDF output), or undefined. */
  passwords(index: number): { userPassword: string; ownerPassword: string } | undefined;
}

export function prepareWordMerge(input: WordMergeInput): PreparedWordMerge {
  const { sheet } = input;
  const prepared = prepareDocx(input.template, sheet.headers, { locale: input.locale, compress: input.output === 'docx', images: input.images, watermark: input.watermark });
  const rows = selectRows(sheet, input.rows);
  let groupColumn: number | undefined;
  if (input.groupBy) {
    groupColumn = columnIndex(sheet.headers, input.groupBy);
    if (groupColumn === undefined) throw new SheafError('merge/word-field-unknown', { column: input.groupBy });
  }
  const groups = groupRows(sheet, rows, groupColumn);
  const extension = input.output === 'docx' ? '.docx' : '.pdf';
  const pattern = input.isCombinedOutput ? undefined : input.fileNamePattern;
  createFileNamer(pattern, sheet.headers, extension); // refuses unknown tags now, not mid-merge
  const cell = (row: number) => (column: string) => {
    const index = columnIndex(sheet.headers, column);
    return index === undefined ? '' : sheet.text(row, index);
  };
  let names: string[] | undefined;
  const allNames = () => {
    if (names) return names;
    const namer = createFileNamer(pattern, sheet.headers, extension);
    return (names = groups.map((group) => namer(cell(group[0]!), sheet.rowNumber(group[0]!))));
  };
  const describe = (index: number): WordBatchDocument => ({
    index,
    fileName: allNames()[index]!,
    rowNumbers: groups[index]!.map((row) => sheet.rowNumber(row)),
  });
  const passwords = passwordsOf(input, sheet, cell);
  const issues: RowIssue[] = [];
  const pictureIssues = pictureIssuesOf(prepared.fields, sheet, input.images);
  /** Whether document `index` is skipped; its rows' issues are reported. */
  const skipped = (index: number) => {
    const found = pictureIssues?.(groups[index]!) ?? [];
    issues.push(...found);
    return found.length > 0;
  };
  // A resumed merge reports the issues of the documents an earlier run skipped again.
  const reportBefore = (start: number) => {
    for (let index = 0; index < start; index++) skipped(index);
  };

  // Once: a second combined document (with page counts) reports no issue twice.
  let kept: (readonly number[])[] | undefined;
  const combinedGroups = () => (kept ??= groups.filter((_, index) => !skipped(index)));

  return {
    documentCount: groups.length,
    rowCount: rows.length,
    isCombined: input.isCombinedOutput,
    output: input.output,
    issues,
    *documents(start = 0) {
      reportBefore(start);
      for (let index = start; index < groups.length; index++) {
        if (skipped(index)) continue;
        const bytes = prepared.fill(sheet, groups[index]!);
        yield { ...describe(index), chunks: [bytes], byteLength: bytes.length, sharedPrefixChunks: 0 };
      }
    },
    combinedDocx: (pageCounts) => prepared.fillBatch(sheet, combinedGroups(), { documentFootnotes: input.output === 'pdf', pageCounts }),
    get combinedDocumentCount() {
      return combinedGroups().length;
    },
    get countsPages() {
      return prepared.batchTraits().countsPages;
    },
    get hasEndnotes() {
      return prepared.batchTraits().hasEndnotes;
    },
    *batches(size, start = 0) {
      reportBefore(start);
      for (let first = start; first < groups.length; first += size) {
        const last = Math.min(groups.length, first + size);
        const documents: WordBatchDocument[] = [];
        for (let index = first; index < last; index++) if (!skipped(index)) documents.push(describe(index));
        if (documents.length === 0) continue;
        const batchGroups = documents.map((document) => groups[document.index]!);
        const fill = (positions: readonly number[], pageCounts?: readonly number[]) =>
          prepared.fillBatch(sheet, positions.map((position) => batchGroups[position]!), { documentFootnotes: true, pageCounts });
        const countedDocx = prepared.batchTraits().countsPages && documents.length > 1 ? fill : undefined;
        let docx: Uint8Array | undefined;
        let stamp: WordBatch['stamp'] | null | undefined;
        yield {
          get docx() {
            return (docx ??= fill(batchGroups.map((_, position) => position)));
          },
          get stamp() {
            stamp ??= (input.stamp !== false && batchGroups.length > 1 && prepared.stampBatch(sheet, batchGroups)) || null;
            return stamp ?? undefined;
          },
          documents,
          countedDocx,
          alone: (position) => fill([position]),
          subset: (positions) => fill(positions),
        };
      }
    },
    passwords: (index) => passwords?.(groups[index]![0]!),
  };
}

/** Per-document passwords (column tags filled from the document's first row); both empty: none. */
function passwordsOf(input: WordMergeInput, sheet: SheetData, cell: (row: number) => (column: string) => string) {
  const protection = input.passwordProtection;
  if (input.output !== 'pdf' || !protection || (protection.readPassword === '' && protection.modifyPassword === '')) return undefined;
  // The rules of PDF templates' passwords (merge/plan.ts), for callers that did not check them first.
  const patterns = [protection.readPassword, protection.modifyPassword];
  if (!patterns.every(isValidPasswordPattern)) throw new SheafError('merge/password-invalid');
  if (input.isCombinedOutput && patterns.some(hasColumnTags)) throw new SheafError('merge/password-tags-combined');
  for (const column of columnTags(`${protection.readPassword} ${protection.modifyPassword}`)) {
    if (columnIndex(sheet.headers, column) === undefined) throw new SheafError('merge/password-tag-unknown', { column });
  }
  return (row: number) => ({
    userPassword: fillColumnTags(protection.readPassword, cell(row)),
    ownerPassword: fillColumnTags(protection.modifyPassword, cell(row)),
  });
}
