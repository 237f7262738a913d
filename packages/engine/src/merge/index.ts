/**
 * The merge engine's entry point. `prepareMerge` does everything that is the same for all rows once
 * (parse, fonts, images, shared objects); the returned object then produces the documents row by
 * row, or the combined document as a stream of chunks.
 */
import { SheafError, isSheafError } from '@sheaf/shared';
import { concatBytes } from '../pdf/bytes.ts';
import { fitsQrCode, QR_MAX_BYTES } from '../qr/index.ts';
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
  /** CRC-32 of all its bytes, when whoever made it computed it (a worker thread): a ZIP writer need not read them. */
  crc32?: number;
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
   * With `partition.start`, documents before it are not made (a resumed merge) but their rows'
   * issues are still reported (by partition 0 only).
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
  /** The first document to make (default 0); batches are counted from it. */
  start?: number;
  /** The document to stop before (default: all): one range of a large merge. */
  end?: number;
}

export async function prepareMerge(input: MergeInput): Promise<PreparedMerge> {
  const plan = await buildPlan(input);
  const issues: RowIssue[] = [];
  const rowCount = plan.groups.reduce((sum, group) => sum + group.length, 0);
  // Partitioned calls (several per merge in one process) name every document once, not once per call.
  let names: string[] | undefined;
  return {
    documentCount: plan.groups.length,
    rowCount,
    isCombined: plan.options.isCombinedOutput,
    issues,
    documents: (partition) => separateDocuments(plan, issues, partition, partition ? (names ??= allNames(plan)) : undefined),
    combined: () => combinedDocument(plan, issues),
  };
}

/** Every document's file name, in order (names depend on the names before them: they are unique). */
function allNames(plan: MergePlan): string[] {
  const fileName = plan.newFileNamer();
  return plan.groups.map((group) => fileName(group[0]!));
}

function* separateDocuments(plan: MergePlan, issues: RowIssue[], partition?: Partition, names?: readonly string[]): Generator<OutputDocument> {
  const single = new SeparateDocumentWriter(plan);
  const fileName = names ? undefined : plan.newFileNamer();
  // Encrypted documents are rewritten whole; the template is read for that once, not per row.
  let encryptor: ReturnType<typeof createTemplateEncryptor> | undefined;
  const grouped = plan.groups.some((group) => group.length > 1) ? new CombinedWriter(plan) : undefined;
  const end = Math.min(plan.groups.length, partition?.end ?? plan.groups.length);
  for (let index = 0; index < end; index++) {
    const group = plan.groups[index]!;
    const first = group[0]!;
    // Every group is named, in order, in every worker, so names come out the same and unique.
    const name = names ? names[index]! : fileName!(first);
    const start = partition?.start ?? 0;
    if (index < start) {
      // Made by an earlier run (a resumed merge): only its issues are reported again, once.
      if (partition!.index === 0) issues.push(...rowProblems(plan, group));
      continue;
    }
    const mine = !partition || Math.floor((index - start) / partition.batchSize) % partition.count === partition.index;
    if (!mine) continue;
    const problems = rowProblems(plan, group);
    if (problems.length) {
      issues.push(...problems);
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
      fileName: name,
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
    const problems = rowProblems(plan, group);
    if (problems.length) issues.push(...problems);
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

/**
 * Rows that cannot be made as asked are skipped with a clear per-row error, and the others go on:
 * an image cell naming no supplied image, a QR code text longer than a QR code holds.
 */
function rowProblems(plan: MergePlan, group: number[]): RowIssue[] {
  const issues: RowIssue[] = [];
  const report = (row: number, error: SheafError) => {
    const rowNumber = plan.sheet.rowNumber(row);
    const message = error.message.startsWith('Row ') ? error.message : `Row ${rowNumber}: ${error.message}`;
    issues.push({ rowNumber, code: error.code, message });
  };
  for (const placed of plan.placed) {
    const { type, typeSettings } = placed.placeholder;
    if (type !== 'image' && type !== 'qrcode') continue;
    for (const row of group) {
      const cell = plan.sheet.text(row, placed.column);
      if (cell === '') continue;
      if (type === 'image' && !plan.draw.images.lookup(cell)) {
        report(row, new SheafError('merge/image-missing', { row: plan.sheet.rowNumber(row), image: cell }));
      }
      const level = typeSettings.errorCorrection ?? 'M';
      if (type === 'qrcode' && !fitsQrCode(cell, level)) {
        report(row, new SheafError('merge/qr-too-long', { length: cell.length, max: QR_MAX_BYTES[level], level }));
      }
    }
  }
  return issues;
}

export { isSheafError };
