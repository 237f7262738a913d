/**
 * Writes merge outputs to disk: streamed, with backpressure, nothing held in memory but one document.
 * Shared by `sheaf merge` and the server's merge jobs.
 */
import { createWriteStream, type WriteStream } from 'node:fs';
import { once } from 'node:events';
import { rename, rm } from 'node:fs/promises';
import { ZipWriter, crc32, type OutputDocument } from '@sheaf/engine';

/** Bytes queued for the file before a writer waits (see withPartialFile). */
const WRITE_BUFFER_BYTES = 4 * 1024 * 1024;

/** Writes to OUT.partial and renames at the end, so a failed run never leaves a half file named OUT. */
export async function withPartialFile<T>(out: string, write: (stream: WriteStream) => Promise<T>): Promise<T> {
  const partial = `${out}.partial`;
  // Documents are tens of KB: with the default 16 KB buffer every one waits for its own write to come
  // back from the thread pool (3,000 x 26 KB took 0.7 s, mostly idle). A larger buffer lets them
  // queue while a write is under way, and the next write takes them all at once (writev).
  const stream = createWriteStream(partial, { highWaterMark: WRITE_BUFFER_BYTES });
  // A write failing after we gave up (stopped, cancelled) must not become an uncaught 'error' event.
  const failed = new Promise<never>((_, reject) => stream.once('error', reject));
  failed.catch(() => undefined);
  try {
    const result = await Promise.race([write(stream), failed]);
    stream.end();
    await Promise.race([once(stream, 'finish'), failed]);
    await rename(partial, out);
    return result;
  } catch (error) {
    // Let buffered writes settle before the file goes: destroying mid-write fails them. A stream that
    // failed (ENOSPC, EIO) has closed already: waiting for its 'close' would hang the job for good.
    if (!stream.closed) {
      await new Promise<void>((resolve) => {
        stream.once('close', resolve);
        if (stream.destroyed) return;
        stream.end();
      });
    }
    await rm(partial, { force: true });
    throw error;
  }
}

export async function put(stream: WriteStream, chunk: Uint8Array): Promise<void> {
  if (!stream.write(chunk)) await once(stream, 'drain');
}

export async function writeCombined(out: string, chunks: Iterable<Uint8Array> | AsyncIterable<Uint8Array>): Promise<number> {
  return withPartialFile(out, async (stream) => {
    let bytes = 0;
    for await (const chunk of chunks) {
      bytes += chunk.length;
      await put(stream, chunk);
    }
    return bytes;
  });
}

/**
 * CRC-32 of a document: the one it comes with (computed where it was made, a worker thread), else
 * summed here, the prefix every document of a merge shares once.
 */
export function documentCrcs(): (document: OutputDocument) => number {
  let prefix: { chunks: Uint8Array[]; crc: number } | undefined;
  return (document) => {
    if (document.crc32 !== undefined) return document.crc32 >>> 0;
    const shared = document.chunks.slice(0, document.sharedPrefixChunks);
    if (shared.length && (!prefix || shared.length !== prefix.chunks.length || shared.some((chunk, i) => chunk !== prefix!.chunks[i]))) {
      prefix = { chunks: shared, crc: shared.reduce((crc, chunk) => crc32(chunk, crc), 0) };
    }
    let crc = shared.length ? prefix!.crc : 0;
    for (const chunk of document.chunks.slice(shared.length)) crc = crc32(chunk, crc);
    return crc >>> 0;
  };
}

/** Where a document went in the ZIP: its local header's offset (documents are stored, so its bytes follow the header). */
export type ZipEntryHook = (document: OutputDocument, headerOffset: number) => void | Promise<void>;

export async function writeZip(
  out: string,
  documents: Iterable<OutputDocument> | AsyncIterable<OutputDocument>,
  onDocument: (done: number) => void,
  onEntry?: ZipEntryHook,
): Promise<{ documents: number; bytes: number }> {
  return withPartialFile(out, async (stream) => {
    const zip = new ZipWriter((chunk) => put(stream, chunk));
    const crcOf = documentCrcs();
    let count = 0;
    for await (const document of documents) {
      const headerOffset = zip.bytesWritten; // the previous file is written: the next header starts here
      await zip.addFile(document.fileName, document.chunks, { crc32: crcOf(document) });
      if (onEntry) await onEntry(document, headerOffset);
      onDocument(++count);
    }
    await zip.finish();
    return { documents: count, bytes: zip.bytesWritten };
  });
}
