/** Raw responses (PDFs, ZIPs, images, fonts): content headers, ETag revalidation and download names. */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Readable } from 'node:stream';

/** A raw response: a PDF, a ZIP, an image or a download. */
export interface BinaryResult {
  kind: 'binary';
  body: Uint8Array | Readable;
  contentType: string;
  /** Sent as Content-Disposition: attachment with this name. */
  fileName?: string;
  etag?: string;
  size?: number;
  cacheControl?: string;
  /** Answer 302 to this address instead of the body (e.g. a signed link to the file in S3). */
  redirectTo?: string;
}

export function binary(result: Omit<BinaryResult, 'kind'>): BinaryResult {
  return { kind: 'binary', ...result };
}

/** `attachment` with an ASCII fallback name and the exact name as RFC 5987 `filename*`. */
export function contentDisposition(fileName: string): string {
  const fallback = fileName.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_').replace(/[\r\n]/g, '') || 'download';
  const encoded = encodeURIComponent(fileName).replace(/['()*]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}

const quoted = (etag: string) => (/^(W\/)?".*"$/.test(etag) ? etag : `"${etag}"`);

/** True when If-None-Match names `etag` (or is "*"). */
function notModified(request: FastifyRequest, etag: string): boolean {
  const header = request.headers['if-none-match'];
  if (!header) return false;
  const strip = (tag: string) => tag.trim().replace(/^W\//, '');
  return header.split(',').some((tag) => tag.trim() === '*' || strip(tag) === strip(etag));
}

export function sendBinary(request: FastifyRequest, reply: FastifyReply, result: BinaryResult): FastifyReply {
  if (result.cacheControl) reply.header('Cache-Control', result.cacheControl);
  if (result.redirectTo) {
    if (result.body instanceof Readable) result.body.destroy();
    return reply.redirect(result.redirectTo, 302);
  }
  if (result.etag) {
    const etag = quoted(result.etag);
    reply.header('ETag', etag);
    if (notModified(request, etag)) {
      if (result.body instanceof Readable) result.body.destroy();
      return reply.code(304).send();
    }
  }
  reply.header('Content-Type', result.contentType);
  if (result.fileName) reply.header('Content-Disposition', contentDisposition(result.fileName));
  const size = result.body instanceof Uint8Array ? result.body.byteLength : result.size;
  if (size !== undefined) reply.header('Content-Length', size);
  const body = result.body instanceof Uint8Array ? Buffer.from(result.body.buffer, result.body.byteOffset, result.body.byteLength) : result.body;
  return reply.send(body);
}
