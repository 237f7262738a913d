/**
 * One merge worker thread (parallel.ts): prepares the merge (parses the template, plans every row),
 * answers what it found, then makes what it is asked: the documents of its batches, or the combined
 * document. Each batch is one message: its documents' bytes in one array, transferred, not copied,
 * and each document's CRC-32 (computed here, so the writer need not read the bytes); at most AHEAD
 * of them unconsumed (the caller's credits keep memory flat). Batches are sent even when empty, so
 * the caller's round-robin over the workers stays in step.
 */
import { parentPort } from 'node:worker_threads';
import { isSheafError } from '@sheaf/shared';
import { useNativeCrypto } from './nativeCrypto.ts';
import { useNativeZlib } from './nativeZlib.ts';
import { loadBundledFallbackFonts } from './fonts.ts';
import { lowerThreadPriority } from './threadPriority.ts';
import { prepareMerge, type OutputDocument, type Partition, type PreparedMerge } from '../merge/index.ts';
import { fromTransferableSheet } from '../sheet/transfer.ts';
import { concatBytes } from '../pdf/bytes.ts';
import { crc32 } from '../zip/crc32.ts';
import { unpackSheet, type PackedSheet } from './packedSheet.ts';
import type { MergeInput, RowIssue } from '../merge/types.ts';

export interface WorkerRequest extends Omit<MergeInput, 'sheet' | 'fallbackFonts'> {
  sheet: PackedSheet;
  /** Absent: the bundled fonts, read here rather than copied from the caller. */
  fallbackFonts: MergeInput['fallbackFonts'] | undefined;
}

/** What the caller asks once the merge is prepared; a worker can be asked again after 'done'. */
export type WorkerCommand =
  | { type: 'credit' }
  /** The merge to prepare; a worker kept warm between merges gets one after each 'release'. */
  | { type: 'prepare'; request: WorkerRequest }
  /** The merge is over: forget it and wait for the next one. */
  | { type: 'release' }
  | { type: 'documents'; partition: Partition }
  | { type: 'combined' };

/** A document as it travels: the length of its own bytes in its batch's array; the shared prefix comes once per worker. */
export type SlimDocument = Omit<OutputDocument, 'chunks' | 'sharedPrefixChunks' | 'crc32'> & { ownLength: number; shared: boolean; crc32: number };

export type WorkerMessage =
  | { type: 'prepared'; documentCount: number; rowCount: number; isCombined: boolean }
  /** `bytes`: the documents' own bytes in order (ownLength each), one transferred array. */
  | { type: 'batch'; prefix: Uint8Array[]; bytes: Uint8Array; documents: SlimDocument[] }
  | { type: 'chunks'; bytes: Uint8Array }
  | { type: 'done'; issues: RowIssue[] }
  /** A catalogue error (code) or an unexpected one (code null: the caller treats it as its own bug). */
  | { type: 'error'; code: string | null; params: Record<string, string | number>; detail?: string };

const AHEAD = 2;
/** Combined output travels in pieces of about this size. */
const CHUNK_BYTES = 1 << 20;

const port = parentPort!;
let credits = AHEAD;
let wake: (() => void) | undefined;
let commandArrived: ((command: WorkerCommand) => void) | undefined;
const commands: WorkerCommand[] = [];

port.on('message', (command: WorkerCommand) => {
  if (command.type === 'credit') {
    credits++;
    wake?.();
  } else if (commandArrived) {
    const resolve = commandArrived;
    commandArrived = undefined;
    resolve(command);
  } else commands.push(command);
});

const nextCommand = () => (commands.length ? Promise.resolve(commands.shift()!) : new Promise<WorkerCommand>((resolve) => (commandArrived = resolve)));

async function takeCredit(): Promise<void> {
  while (credits === 0) await new Promise<void>((resolve) => (wake = resolve));
  credits--;
}

async function sendDocuments(merge: PreparedMerge, partition: Partition): Promise<void> {
  const { index, count, batchSize, start = 0 } = partition;
  const end = Math.min(partition.end ?? merge.documentCount, merge.documentCount);
  const batches = Math.ceil(Math.max(0, end - start) / batchSize);
  const documents = merge.documents(partition);
  let pending = documents.next();
  /** CRC-32 of the shared prefix, once this worker sent it: each document's CRC goes on from it. */
  let prefixCrc: number | undefined;
  for (let batch = index; batch < batches; batch += count) {
    const owned: OutputDocument[] = [];
    while (!pending.done && Math.floor((pending.value.index - start) / batchSize) === batch) {
      owned.push(pending.value);
      pending = documents.next();
    }
    await takeCredit();
    // The shared prefix travels once; documents carry only their own bytes.
    const withPrefix = prefixCrc === undefined ? owned.find((document) => document.sharedPrefixChunks > 0) : undefined;
    const prefix = withPrefix ? withPrefix.chunks.slice(0, withPrefix.sharedPrefixChunks).map((chunk) => chunk.slice()) : [];
    if (withPrefix) prefixCrc = prefix.reduce((crc, chunk) => crc32(chunk, crc), 0);
    const { bytes, slim } = packed(owned, prefixCrc ?? 0);
    const message: WorkerMessage = { type: 'batch', prefix, bytes, documents: slim };
    port.postMessage(message, [...prefix, bytes].map((chunk) => chunk.buffer as ArrayBuffer));
  }
}

/**
 * A batch's own bytes (each document's, without the shared prefix) one after another in one fresh
 * array, sent as one transfer rather than one per document; each document's CRC-32 is computed here,
 * so the writer on the caller's thread does not read the bytes.
 */
function packed(owned: OutputDocument[], prefixCrc: number): { bytes: Uint8Array; slim: SlimDocument[] } {
  let total = 0;
  for (const { chunks, sharedPrefixChunks } of owned) for (let i = sharedPrefixChunks; i < chunks.length; i++) total += chunks[i]!.length;
  const bytes = new Uint8Array(total);
  let at = 0;
  const slim = owned.map(({ chunks, sharedPrefixChunks, ...document }): SlimDocument => {
    const from = at;
    for (let i = sharedPrefixChunks; i < chunks.length; i++) {
      bytes.set(chunks[i]!, at);
      at += chunks[i]!.length;
    }
    const shared = sharedPrefixChunks > 0;
    return { ...document, ownLength: at - from, shared, crc32: crc32(bytes.subarray(from, at), shared ? prefixCrc : 0) };
  });
  return { bytes, slim };
}

async function sendCombined(merge: PreparedMerge): Promise<void> {
  let pieces: Uint8Array[] = [];
  let size = 0;
  const flush = async () => {
    await takeCredit();
    const bytes = concatBytes(pieces); // fresh bytes: transferable, unlike views of shared buffers such as the template's
    pieces = [];
    size = 0;
    port.postMessage({ type: 'chunks', bytes } satisfies WorkerMessage, [bytes.buffer as ArrayBuffer]);
  };
  for (const chunk of merge.combined()) {
    pieces.push(chunk);
    size += chunk.length;
    if (size >= CHUNK_BYTES) await flush();
  }
  if (size) await flush();
}

function reportError(error: unknown): void {
  const message: WorkerMessage = isSheafError(error)
    ? { type: 'error', code: error.code, params: error.params }
    : { type: 'error', code: null, params: {}, detail: error instanceof Error ? (error.stack ?? error.message) : String(error) };
  port.postMessage(message);
}

/** Prepares the merge it is sent, serves its requests until it is released, then waits for the next one. */
async function main(): Promise<void> {
  lowerThreadPriority();
  useNativeCrypto();
  useNativeZlib();
  for (;;) {
    const command = await nextCommand();
    if (command.type !== 'prepare') continue;
    let merge: PreparedMerge;
    try {
      const { request } = command;
      const fallbackFonts = request.fallbackFonts ?? (await loadBundledFallbackFonts());
      merge = await prepareMerge({ ...request, fallbackFonts, sheet: fromTransferableSheet(unpackSheet(request.sheet)) });
    } catch (error) {
      reportError(error);
      continue;
    }
    port.postMessage({ type: 'prepared', documentCount: merge.documentCount, rowCount: merge.rowCount, isCombined: merge.isCombined } satisfies WorkerMessage);
    await serve(merge);
  }
}

async function serve(merge: PreparedMerge): Promise<void> {
  for (;;) {
    const command = await nextCommand();
    if (command.type === 'release') return;
    // Only the issues found by this command: a worker kept for the next range reports each range's own.
    const before = merge.issues.length;
    credits = AHEAD;
    try {
      if (command.type === 'documents') await sendDocuments(merge, command.partition);
      else if (command.type === 'combined') await sendCombined(merge);
      port.postMessage({ type: 'done', issues: merge.issues.slice(before) } satisfies WorkerMessage);
    } catch (error) {
      reportError(error);
    }
  }
}

await main();
