/**
 * The single uploaded file of a multipart route, read with a size cap that stops the upload early. Its
 * name is normalised here, at the edge (normalizeFileName: no NUL, controls, bidi overrides or
 * zero-width characters, NFC, at most 200 characters), so no service stores a name the database or a
 * mail header cannot hold (docs/library.md#file-names).
 */
import type { FastifyRequest } from 'fastify';
import { SheafError, normalizeFileName, type ErrorCode } from '@sheaf/shared';
import { requireFreeSpace } from '../merge-output/storage-full.ts';

export interface UploadedFile {
  /** The name as normalizeFileName leaves it ("file" when nothing usable was sent). */
  fileName: string;
  mimeType: string;
  bytes: Uint8Array;
}

const MB = 1024 * 1024;

export async function readUploadedFile(request: FastifyRequest, maxBytes: number, tooLargeCode: ErrorCode): Promise<UploadedFile> {
  if (!request.isMultipart()) throw new SheafError('generic/invalid-input', { detail: 'expected a multipart/form-data upload with a "file" field' });
  // Below the data folder's free-space floor (MIN_FREE_MB) no upload is taken: the database keeps its room.
  if (request.server.sheafContext) await requireFreeSpace(request.server.sheafContext.config);
  const tooLarge = () => new SheafError(tooLargeCode, { maxMb: Math.round((maxBytes / MB) * 10) / 10 });
  // One byte over the cap tells "exactly at the limit" from "over it".
  const part = await request.file({ limits: { fileSize: maxBytes + 1, files: 1 }, throwFileSizeLimit: false });
  if (!part || part.fieldname !== 'file') throw new SheafError('generic/invalid-input', { detail: 'the upload has no "file" field' });
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of part.file as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBytes) {
      part.file.destroy();
      throw tooLarge();
    }
    chunks.push(chunk);
  }
  if (part.file.truncated) throw tooLarge();
  const bytes = Buffer.concat(chunks, size);
  return { fileName: normalizeFileName(part.filename ?? ''), mimeType: part.mimetype, bytes: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength) };
}
