import { crc32 } from './crc32.ts';
import { centralHeaderSize, dosDateTime, endRecords, localHeader, writeCentralHeader, type ZipEntry } from './records.ts';

/** Receives the archive's bytes in order; a returned promise holds the writer back until it settles (backpressure). */
export type ZipSink = (chunk: Uint8Array) => void | Promise<void>;

export interface ZipFileOptions {
  /** CRC-32 of the data when the caller knows it already (e.g. combined from a shared prefix's CRC). */
  crc32?: number;
  /** Modification time; default the time the writer was created. */
  modified?: Date;
}

/** Central directory bytes are handed to the sink in blocks of about this size. */
const DIRECTORY_BLOCK_BYTES = 64 * 1024;
const MAX_NAME_BYTES = 0xffff;

const utf8 = new TextEncoder();

/**
 * Streaming ZIP writer for stored (uncompressed) entries: PDFs are compressed already. Each file goes
 * out as its local header followed by its data, straight to the sink; only the small central
 * directory entries are kept until finish(). ZIP64 records are written where counts, sizes or offsets
 * need them. Calls are queued, so callers may await each one or not.
 */
export class ZipWriter {
  private readonly sink: ZipSink;
  private readonly entries: ZipEntry[] = [];
  private readonly defaultTime: { dosTime: number; dosDate: number };
  private offset = 0;
  private queue: Promise<void> = Promise.resolve();
  private finished = false;

  constructor(sink: ZipSink) {
    this.sink = sink;
    this.defaultTime = dosDateTime(new Date());
  }

  /** Bytes handed to the sink so far. */
  get bytesWritten(): number {
    return this.offset;
  }

  addFile(name: string, data: Uint8Array | readonly Uint8Array[], options: ZipFileOptions = {}): Promise<void> {
    if (this.finished) return Promise.reject(new Error('ZipWriter: addFile after finish'));
    return this.enqueue(() => this.writeFile(name, data, options));
  }

  finish(): Promise<void> {
    if (this.finished) return Promise.reject(new Error('ZipWriter: finish called twice'));
    this.finished = true;
    return this.enqueue(() => this.writeDirectory());
  }

  private enqueue(task: () => Promise<void>): Promise<void> {
    const run = this.queue.then(task);
    // A failed step fails its own caller; later steps still run in order.
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async writeFile(name: string, data: Uint8Array | readonly Uint8Array[], options: ZipFileOptions): Promise<void> {
    const nameBytes = utf8.encode(name);
    if (nameBytes.length === 0 || nameBytes.length > MAX_NAME_BYTES) {
      throw new Error(`ZipWriter: entry name must be 1 to ${MAX_NAME_BYTES} bytes of UTF-8`);
    }
    const chunks = data instanceof Uint8Array ? [data] : data;
    let size = 0;
    for (const chunk of chunks) size += chunk.length;
    let crc = options.crc32;
    if (crc === undefined) {
      crc = 0;
      for (const chunk of chunks) crc = crc32(chunk, crc);
    }
    const time = options.modified ? dosDateTime(options.modified) : this.defaultTime;
    const entry: ZipEntry = { name: nameBytes, crc: crc >>> 0, size, offset: this.offset, ...time };
    await this.emit(localHeader(entry));
    for (const chunk of chunks) if (chunk.length > 0) await this.emit(chunk);
    this.entries.push(entry);
  }

  private async writeDirectory(): Promise<void> {
    const directoryOffset = this.offset;
    let block = new Uint8Array(DIRECTORY_BLOCK_BYTES);
    let view = new DataView(block.buffer);
    let used = 0;
    for (const entry of this.entries) {
      const size = centralHeaderSize(entry);
      if (used + size > block.length) {
        await this.emit(block.subarray(0, used));
        block = new Uint8Array(Math.max(DIRECTORY_BLOCK_BYTES, size));
        view = new DataView(block.buffer);
        used = 0;
      }
      used = writeCentralHeader(view, block, used, entry);
    }
    if (used > 0) await this.emit(block.subarray(0, used));
    await this.emit(endRecords(this.entries.length, directoryOffset, this.offset - directoryOffset));
  }

  private async emit(chunk: Uint8Array): Promise<void> {
    this.offset += chunk.length;
    const pending = this.sink(chunk);
    if (pending) await pending;
  }
}
