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
  /** Position of the document in the merge, from 0. */
  index: number;
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
  /**
   * The separate documents, made lazily one at a time. With a partition, only the documents of this
   * worker's batches are made (names still account for every document, so they stay unique).
   */
  documents(partition?: Partition): Generator<OutputDocument>;
  /** The combined document as chunks, made lazily. */
  combined(): Generator<Uint8Array>;
}

/** Documents are dealt to `count` workers in batches: batch b goes to worker b % count. */
export interface Partition {
  index: number;
  count: number;
  batchSize: number;
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
    documents: (partition) => separateDocuments(plan, issues, partition),
    combined: () => combinedDocument(plan, issues),
  };
}

function* separateDocuments(plan: MergePlan, issues: RowIssue[], partition?: Partition): Generator<OutputDocument> {
  const single = new SeparateDocumentWriter(plan);
  // Encrypted documents are rewritten whole; the template is read for that once, not per row.
  let encryptor: ReturnType<typeof createTemplateEncryptor> | undefined;
  const grouped = plan.groups.some((group) => group.length > 1) ? new CombinedWriter(plan) : undefined;
  for (let index = 0; index < plan.groups.length; index++) {
    const group = plan.groups[index]!;
    const first = group[0]!;
    // Every group is named, in order, in every worker, so names come out the same and unique.
    const fileName = plan.fileName(first);
    const mine = !partition || Math.floor(index / partition.batchSize) % partition.count === partition.index;
    if (!mine) continue;
    const missing = missingImageRows(plan, group);
    if (missing.length) {
      issues.push(...missing);
      continue;
    }
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
      index,
      fileName,
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
