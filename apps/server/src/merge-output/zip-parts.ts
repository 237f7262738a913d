/**
 * A ZIP made in parts: each part is the local headers and stored data of a run of documents (no
 * central directory), written by whichever worker made that run, with a manifest of its entries.
 * Once every part exists, `centralDirectory` writes the directory and end records for the parts in
 * order, each part's entry offsets shifted by the sizes of the parts before it. The archive is then
 * the parts concatenated with the directory: nobody reads the documents back.
 *
 * ZIP64: entries of 4 GiB or more get their local ZIP64 field here; offsets past 4 GiB, more than
 * 65,535 entries and a directory past 4 GiB get their ZIP64 fields and end records in the directory
 * (the engine's record layouts, packages/engine/src/zip/records.ts).
 */
import { zipRecords, type OutputDocument } from '@sheaf/engine';
import { documentCrcs, put, withPartialFile } from './outputs.ts';

// Re-exported: the resumable writer takes it from here, with the central directory.
export { documentCrcs };

/** One document of a part. */
export interface PartEntry {
  /** Position of the document in the merge. */
  index: number;
  name: string;
  /** Excel row numbers that went into the document. */
  rowNumbers: number[];
  crc: number;
  /** Bytes of the document (stored: the same compressed and not). */
  size: number;
  /** Offset of the entry's local header within its part. */
  offset: number;
}

export interface PartManifest {
  /** Bytes of the part: what the next part's offsets are shifted by. */
  size: number;
  /** Modification time of every entry (MS-DOS fields): the central headers repeat the local ones. */
  dosTime: number;
  dosDate: number;
  entries: PartEntry[];
}

const MAX_NAME_BYTES = 0xffff;
const utf8 = new TextEncoder();

/**
 * Writes one part to `out` (through OUT.partial, renamed at the end) and returns its manifest.
 * `modified` is every entry's time: a part made again (a retried range) comes out byte for byte the same.
 */
export async function writeZipPart(
  out: string,
  documents: Iterable<OutputDocument> | AsyncIterable<OutputDocument>,
  modified: Date,
  onDocument: (done: number) => void = () => undefined,
): Promise<PartManifest> {
  const time = zipRecords.dosDateTime(modified);
  return withPartialFile(out, async (stream) => {
    const crcOf = documentCrcs();
    const entries: PartEntry[] = [];
    let offset = 0;
    for await (const document of documents) {
      const name = utf8.encode(document.fileName);
      if (name.length === 0 || name.length > MAX_NAME_BYTES) throw new Error(`ZIP entry name must be 1 to ${MAX_NAME_BYTES} bytes of UTF-8`);
      const entry: PartEntry = {
        index: document.index,
        name: document.fileName,
        rowNumbers: document.rowNumbers,
        crc: crcOf(document),
        size: document.byteLength,
        offset,
      };
      const header = zipRecords.localHeader({ name, crc: entry.crc, size: entry.size, offset, ...time });
      await put(stream, header);
      for (const chunk of document.chunks) if (chunk.length > 0) await put(stream, chunk);
      offset += header.length + entry.size;
      entries.push(entry);
      onDocument(entries.length);
    }
    return { size: offset, ...time, entries };
  });
}

/** Where each part starts in the assembled ZIP. */
export function partOffsets(parts: readonly Pick<PartManifest, 'size'>[]): number[] {
  const offsets: number[] = [];
  let at = 0;
  for (const part of parts) {
    offsets.push(at);
    at += part.size;
  }
  return offsets;
}

/** The central directory and end records that follow `parts`, concatenated in this order. */
export function centralDirectory(parts: readonly PartManifest[]): Uint8Array {
  const offsets = partOffsets(parts);
  const directoryOffset = parts.reduce((sum, part) => sum + part.size, 0);
  const records: zipRecords.ZipEntry[] = [];
  parts.forEach((part, p) => {
    for (const entry of part.entries) {
      records.push({ name: utf8.encode(entry.name), crc: entry.crc, size: entry.size, offset: offsets[p]! + entry.offset, dosTime: part.dosTime, dosDate: part.dosDate });
    }
  });
  const directorySize = records.reduce((sum, record) => sum + zipRecords.centralHeaderSize(record), 0);
  const end = zipRecords.endRecords(records.length, directoryOffset, directorySize);
  const bytes = new Uint8Array(directorySize + end.length);
  const view = new DataView(bytes.buffer);
  let at = 0;
  for (const record of records) at = zipRecords.writeCentralHeader(view, bytes, at, record);
  bytes.set(end, at);
  return bytes;
}
