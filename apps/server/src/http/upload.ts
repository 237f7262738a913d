/**
 * The single uploaded file of a multipart route, read with a size cap that stops the upload early. Its
 * name is normalised here, at the edge (normalizeFileName: no NUL, controls, bidi overrides or
 * zero-width characters, NFC, at most 200 characters), so no service stores a name the database or a
 * mail header cannot hold (docs/library.md#file-names).
 */
import type { FastifyRequest } from 'fastify';
import type { MultipartFile } from '@fastify/multipart';
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
  // One byte over the cap tells "exactly at the limit" from "over it".
  const part = await request.file({ limits: { fileSize: maxBytes + 1, files: 1 }, throwFileSizeLimit: false });
  if (!part || part.fieldname !== 'file') throw new SheafError('generic/invalid-input', { detail: 'the upload has no "file" field' });
  return readFilePart(part, maxBytes, tooLargeCode);
}

/** A file part read whole, refused with `tooLargeCode` ({maxMb}) as soon as it passes `maxBytes`. */
async function readFilePart(part: MultipartFile, maxBytes: number, tooLargeCode: ErrorCode): Promise<UploadedFile> {
  const tooLarge = () => new SheafError(tooLargeCode, { maxMb: Math.round((maxBytes / MB) * 10) / 10 });
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

/** A multipart form: its text fields and at most one file (field "file"). */
export interface UploadForm {
  fields: Record<string, string>;
  /** Text fields longer than the multipart limit (64 KB), cut short: the caller says which limit that is. */
  truncated: ReadonlySet<string>;
  /** null: no file sent (or an empty one). */
  file: UploadedFile | null;
}

/**
 * A multipart form of text fields with an optional file (field "file"), the file read with the same cap
 * and name cleaning as readUploadedFile. Fields may come before or after the file.
 */
export async function readUploadForm(request: FastifyRequest, maxBytes: number, tooLargeCode: ErrorCode): Promise<UploadForm> {
  if (!request.isMultipart()) throw new SheafError('generic/invalid-input', { detail: 'expected a multipart/form-data form' });
  const fields: Record<string, string> = {};
  const truncated = new Set<string>();
  let file: UploadedFile | null = null;
  for await (const part of request.parts({ limits: { fileSize: maxBytes + 1, files: 1 } })) {
    if (part.type === 'field') {
      if (part.fieldnameTruncated) throw new SheafError('generic/invalid-input', { detail: 'a field name is too long' });
      if (part.valueTruncated) truncated.add(part.fieldname);
      fields[part.fieldname] = typeof part.value === 'string' ? part.value : String(part.value);
      continue;
    }
    if (part.fieldname !== 'file') {
      part.file.resume();
      throw new SheafError('generic/invalid-input', { detail: 'the only file field is "file"' });
    }
    if (request.server.sheafContext) await requireFreeSpace(request.server.sheafContext.config);
    const read = await readFilePart(part, maxBytes, tooLargeCode);
    // An empty file field is no file.
    if (read.bytes.length > 0) file = read;
  }
  return { fields, truncated, file };
}
