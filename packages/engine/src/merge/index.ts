/**
 * The merge engine's entry point. `prepareMerge` does everything that is the same for all rows once
 * (parse, fonts, images, shared objects); the returned object then produces the documents row by
 * row, or the combined document as a stream of chunks.
 */
import { SheafError, isSheafError } from '@sheaf/shared';
import { concatBytes } from '../pdf/bytes.ts';
import { createTemplateEncryptor, encryptPdf } from '../security/index.ts';
import { buildPlan, type MergePlan } from './plan.ts';
import { SeparateDocumentWriter } from './separate.ts';
import { CombinedWriter } from './combined.ts';
import type { MergeInput, RowIssue } from './types.ts';

export interface OutputDocument {
  /** Safe, unique file name ending in .pdf. */
  fileName: string;
  /** Excel row numbers that went into it. */
  rowNumbers: number[];
  /** The document's bytes in order; the first chunks are shared by every document of the merge. */
  chunks: Uint8Array[];
  byteLength: number;
  /** How many leading chunks are the shared prefix (0 when the document was rewritten, e.g. encrypted). */
  sharedPrefixChunks: number;
}

export interface PreparedMerge {
  /** Documents a separate-documents merge makes (groups count once). */
  readonly documentCount: number;
  /** Data rows selected. */
  readonly rowCount: number;
  readonly isCombined: boolean;
  /** Per-row problems found so far (rows skipped, e.g. a missing image). */
  readonly issues: RowIssue[];
  /** The separate documents, made lazily one at a time. */
  documents(): Generator<OutputDocument>;
  /** The combined document as chunks, made lazily. */
  combined(): Generator<Uint8Array>;
}

export async function prepareMerge(input: MergeInput): Promise<PreparedMerge> {
  const plan = await buildPlan(input);
  const issues: RowIssue[] = [];
  const rowCount = plan.groups.reduce((sum, group) => sum + group.length, 0);
  return {
    documentCount: plan.groups.length,
    rowCount,
    isCombined: plan.options.isCombinedOutput,
    issues,
    documents: () => separateDocuments(plan, issues),
    combined: () => combinedDocument(plan, issues),
  };
}

function* separateDocuments(plan: MergePlan, issues: RowIssue[]): Generator<OutputDocument> {
  const single = new SeparateDocumentWriter(plan);
  // Encrypted documents are rewritten whole; the template is read for that once, not per row.
  let encryptor: ReturnType<typeof createTemplateEncryptor> | undefined;
  const grouped = plan.groups.some((group) => group.length > 1) ? new CombinedWriter(plan) : undefined;
  for (const group of plan.groups) {
    const missing = missingImageRows(plan, group);
    if (missing.length) {
      issues.push(...missing);
      continue;
    }
    const first = group[0]!;
    let chunks: Uint8Array[];
    let sharedPrefixChunks = 2;
    if (group.length === 1) chunks = single.write(first).chunks;
    else chunks = [...grouped!.write(group)];
    const passwords = plan.passwords(first);
    if (passwords && group.length === 1) {
      encryptor ??= createTemplateEncryptor(plan.template.base);
      chunks = [encryptor.encrypt(concatBytes(chunks.slice(1)), passwords)];
      sharedPrefixChunks = 0;
    } else if (passwords) {
      chunks = [encryptPdf(concatBytes(chunks), passwords)];
      sharedPrefixChunks = 0;
    }
    yield {
      fileName: plan.fileName(first),
      rowNumbers: group.map((row) => plan.sheet.rowNumber(row)),
      chunks,
      byteLength: chunks.reduce((sum, chunk) => sum + chunk.length, 0),
      sharedPrefixChunks,
    };
  }
}

function* combinedDocument(plan: MergePlan, issues: RowIssue[]): Generator<Uint8Array> {
  const rows: number[] = [];
  for (const group of plan.groups) {
    const missing = missingImageRows(plan, group);
    if (missing.length) issues.push(...missing);
    else rows.push(...group);
  }
  if (rows.length === 0) throw new SheafError('merge/no-rows');
  const writer = new CombinedWriter(plan);
  const passwords = plan.passwords(rows[0]!);
  if (!passwords) {
    yield* writer.write(rows);
    return;
  }
  yield encryptPdf(concatBytes([...writer.write(rows)]), passwords);
}

/** A row whose image cell names no supplied image is skipped with a clear per-row error. */
function missingImageRows(plan: MergePlan, group: number[]): RowIssue[] {
  const issues: RowIssue[] = [];
  for (const placed of plan.placed) {
    if (placed.placeholder.type !== 'image') continue;
    for (const row of group) {
      const cell = plan.sheet.text(row, placed.column);
      if (cell === '' || plan.draw.images.lookup(cell)) continue;
      const error = new SheafError('merge/image-missing', { row: plan.sheet.rowNumber(row), image: cell });
      issues.push({ rowNumber: plan.sheet.rowNumber(row), code: error.code, message: error.message });
    }
  }
  return issues;
}

export { isSheafError };
