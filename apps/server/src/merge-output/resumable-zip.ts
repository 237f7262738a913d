/**
 * A merge's ZIP that a stopped run (SIGKILL, shutdown, a lost lease) leaves ready to be continued: the
 * local headers and documents go to OUT.partial, and a checkpoint journal OUT.entries.jsonl lists the
 * entries whose bytes are on disk. The next run keeps those entries, cuts off what follows them (a
 * half-written document) and goes on with the next document; at the end the central directory
 * (zip-parts.ts) is appended and the file renamed to OUT.
 *
 * Every CHECKPOINT_MS the data file is synced, then the entries written before the sync are appended to
 * the journal: the journal never names bytes a crash or power cut could lose. Progress is reported from
 * the checkpoints, so the `done` a user saw is never more than the next run keeps. Every entry carries
 * the same time (the caller's, the merge's creation), so entries of different runs agree.
 */
import { open, readFile, rename, rm, stat, type FileHandle } from 'node:fs/promises';
import { zipRecords, type OutputDocument } from '@sheaf/engine';
import { centralDirectory, documentCrcs, type PartEntry } from './zip-parts.ts';

const CHECKPOINT_MS = 250;
const MAX_NAME_BYTES = 0xffff;
const utf8 = new TextEncoder();

export const journalOf = (out: string) => `${out}.entries.jsonl`;
export const partialOf = (out: string) => `${out}.partial`;

/** What an earlier run left: the entries it wrote, in order (empty: start from the first document). */
export interface ResumePoint {
  entries: PartEntry[];
  /** Bytes of the partial file the entries take (where the next entry starts). */
  size: number;
}

/**
 * The entries of OUT.partial an earlier run wrote for the same `key` (anything else: nothing to resume,
 * and the stale files go). The partial file is cut to the end of the last entry kept.
 */
export async function readResumePoint(out: string, key: string): Promise<ResumePoint> {
  const none = async () => {
    await Promise.all([rm(partialOf(out), { force: true }), rm(journalOf(out), { force: true })]);
    return { entries: [], size: 0 };
  };
  const [journal, file] = await Promise.all([readFile(journalOf(out), 'utf8').catch(() => ''), stat(partialOf(out)).catch(() => undefined)]);
  const lines = journal.split('\n');
  if (!file || parseLine(lines[0])?.key !== key) return none();
  const entries: PartEntry[] = [];
  let size = 0;
  for (const line of lines.slice(1)) {
    const entry = parseLine(line) as PartEntry | undefined;
    // A torn last line (a crash while appending), or an entry not where the one before it ended: stop there.
    if (!entry || entry.offset !== size || typeof entry.size !== 'number' || typeof entry.name !== 'string') break;
    const end = entry.offset + headerOf(entry, 0, 0).length + entry.size;
    if (end > file.size) break;
    entries.push(entry);
    size = end;
  }
  if (!entries.length) return none();
  const handle = await open(partialOf(out), 'r+');
  try {
    await handle.truncate(size);
  } finally {
    await handle.close();
  }
  return { entries, size };
}

function parseLine(line: string | undefined): Record<string, unknown> | undefined {
  try {
    const value = line ? (JSON.parse(line) as unknown) : undefined;
    return value && typeof value === 'object' ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

const headerOf = (entry: PartEntry, dosTime: number, dosDate: number) =>
  zipRecords.localHeader({ name: utf8.encode(entry.name), crc: entry.crc, size: entry.size, offset: entry.offset, dosTime, dosDate });

export interface ResumableZipOptions {
  /** Names the merge and its request: a journal of another key is not resumed. */
  key: string;
  /** Every entry's modification time. */
  modified: Date;
  /** Where the earlier run stopped (readResumePoint). */
  resume: ResumePoint;
  /** Stops the writing at once, also while a write is stuck (a disk that does not answer). */
  signal: AbortSignal;
  /** Documents in the ZIP, counted at each checkpoint (the resumed ones included). */
  onProgress: (done: number) => void;
  /** Each entry, in order, once its bytes are written (the resumed ones first). */
  onEntry?: (document: Pick<OutputDocument, 'index' | 'fileName' | 'rowNumbers' | 'byteLength'>, offset: number) => void | Promise<void>;
}

/** Writes the documents after `options.resume` and finishes the ZIP as OUT; returns its documents and bytes. */
export async function writeResumableZip(
  out: string,
  documents: Iterable<OutputDocument> | AsyncIterable<OutputDocument>,
  options: ResumableZipOptions,
): Promise<{ documents: number; bytes: number }> {
  const { resume, signal } = options;
  const time = zipRecords.dosDateTime(options.modified);
  const entries = [...resume.entries];
  const handle = await open(partialOf(out), resume.entries.length ? 'r+' : 'w');
  const journal = await open(journalOf(out), resume.entries.length ? 'a' : 'w');
  let closed = false;
  const closeAll = async () => {
    if (closed) return;
    closed = true;
    await Promise.allSettled([handle.close(), journal.close()]);
  };
  try {
    if (!resume.entries.length) await untilStopped(journal.write(`${JSON.stringify({ key: options.key })}\n`), signal);
    for (const entry of entries) await options.onEntry?.(asDocument(entry), entry.offset);
    let offset = resume.size;
    let journaled = entries.length;
    let lastCheckpoint = Date.now();
    const checkpoint = async () => {
      await untilStopped(handle.datasync(), signal);
      const lines = entries.slice(journaled).map((entry) => `${JSON.stringify(entry)}\n`).join('');
      if (lines) await untilStopped(journal.write(lines), signal);
      journaled = entries.length;
      lastCheckpoint = Date.now();
      options.onProgress(journaled);
    };
    const crcOf = documentCrcs();
    // Documents go to disk 64 (or 1 MB) at a time: one write per tiny document held the merge back
    // (bench/README.md, large-merge). An entry counts as written, and is journaled, only after its flush.
    let pending: Array<{ entry: PartEntry; document: OutputDocument }> = [];
    let pendingChunks: Uint8Array[] = [];
    let pendingBytes = 0;
    let at = offset; // where the next entry starts, written or not
    const flush = async () => {
      if (!pending.length) return;
      offset = await writeAt(handle, pendingChunks, offset, signal);
      for (const { entry, document } of pending) {
        entries.push(entry);
        await options.onEntry?.(document, entry.offset);
      }
      pending = [];
      pendingChunks = [];
      pendingBytes = 0;
    };
    for await (const document of documents) {
      const name = utf8.encode(document.fileName);
      if (name.length === 0 || name.length > MAX_NAME_BYTES) throw new Error(`ZIP entry name must be 1 to ${MAX_NAME_BYTES} bytes of UTF-8`);
      const entry: PartEntry = { index: document.index, name: document.fileName, rowNumbers: document.rowNumbers, crc: crcOf(document), size: document.byteLength, offset: at };
      const header = headerOf(entry, time.dosTime, time.dosDate);
      pendingChunks.push(header, ...document.chunks);
      pending.push({ entry, document });
      at += header.length + entry.size;
      pendingBytes += header.length + entry.size;
      if (pending.length >= 64 || pendingBytes >= 1 << 20) await flush();
      if (Date.now() - lastCheckpoint >= CHECKPOINT_MS) {
        await flush();
        await checkpoint();
      }
    }
    await flush();
    await checkpoint();
    const directory = centralDirectory([{ size: offset, ...time, entries }]);
    const bytes = await writeAt(handle, [directory], offset, signal);
    await untilStopped(handle.datasync(), signal);
    await closeAll();
    await rename(partialOf(out), out);
    await rm(journalOf(out), { force: true });
    return { documents: entries.length, bytes };
  } finally {
    // Stopped while a write hangs: the handles close once it returns; the files stay for the next run.
    if (signal.aborted) void closeAll();
    else await closeAll();
  }
}

const asDocument = (entry: PartEntry) => ({ index: entry.index, fileName: entry.name, rowNumbers: entry.rowNumbers, byteLength: entry.size });

/** Writes `chunks` at `position` (short writes continued); returns the position after them. */
async function writeAt(handle: FileHandle, chunks: Uint8Array[], position: number, signal: AbortSignal): Promise<number> {
  let pending = chunks.filter((chunk) => chunk.length > 0);
  while (pending.length) {
    const { bytesWritten } = await untilStopped(handle.writev(pending, position), signal);
    position += bytesWritten;
    let skip = bytesWritten;
    const rest: Uint8Array[] = [];
    for (const chunk of pending) {
      if (skip >= chunk.length) skip -= chunk.length;
      else {
        rest.push(skip ? chunk.subarray(skip) : chunk);
        skip = 0;
      }
    }
    pending = rest;
  }
  return position;
}

/** The operation's result, or the signal's reason as soon as it is aborted (the operation is left to finish). */
function untilStopped<T>(operation: Promise<T>, signal: AbortSignal): Promise<T> {
  signal.throwIfAborted();
  operation.catch(() => undefined); // a late failure after we stopped waiting is not unhandled
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    operation.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
