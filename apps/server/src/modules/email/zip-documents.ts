/**
 * Reads one document out of the merge's ZIP by the offset the merge job recorded (documents are
 * stored uncompressed), so a mailing never holds the ZIP: one document in memory per message in flight.
 */
import type { BlobReader } from '../../adapters/blobs/types.ts';

const LOCAL_HEADER_SIZE = 30;
const LOCAL_HEADER_SIGNATURE = 0x04034b50;
const ZIP64_EXTRA = 20;

/** The bytes of the stored entry whose local header starts at `offset`. */
export async function readStoredEntry(reader: BlobReader, offset: number, size: number, fileName: string): Promise<Buffer> {
  const nameBytes = Buffer.byteLength(fileName);
  const bytes = await reader.read(offset, LOCAL_HEADER_SIZE + nameBytes + ZIP64_EXTRA + size);
  const view = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (view.length < LOCAL_HEADER_SIZE || view.readUInt32LE(0) !== LOCAL_HEADER_SIGNATURE) throw new Error(`no ZIP entry at offset ${offset}`);
  if (view.readUInt16LE(8) !== 0) throw new Error('the ZIP entry is compressed');
  const start = LOCAL_HEADER_SIZE + view.readUInt16LE(26) + view.readUInt16LE(28);
  if (view.length < start + size) throw new Error(`the ZIP entry at offset ${offset} is cut short`);
  return view.subarray(start, start + size);
}
