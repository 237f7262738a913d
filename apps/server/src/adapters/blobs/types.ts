import type { Readable } from 'node:stream';

/**
 * File storage: a local folder by default, S3-compatible storage later. Keys are slash-separated
 * paths chosen by the services (e.g. "users/<uid>/templates/<id>/template.pdf").
 */
export interface BlobStore {
  put(key: string, data: Uint8Array | Readable): Promise<{ size: number }>;
  get(key: string): Promise<Uint8Array>;
  /** A stream of the blob; throws a NotFound error (code 'ENOENT') if absent. */
  stream(key: string): Promise<{ stream: Readable; size: number }>;
  exists(key: string): Promise<boolean>;
  delete(key: string): Promise<void>;
  /** Deletes every blob whose key starts with `prefix`. */
  deletePrefix(prefix: string): Promise<void>;
  copy(from: string, to: string): Promise<void>;
  /** Random access to one blob (e.g. one file inside a stored ZIP) without reading all of it. */
  openReader(key: string): Promise<BlobReader>;
  /**
   * Writes `to` as the concatenation of `parts` in order: stored blobs (by key) and small byte tails
   * (e.g. a ZIP's central directory). Never holds a whole part in memory: the local store appends
   * streams, S3 assembles a multipart upload copying the parts server-side where they are large enough.
   * The parts are left in place (the caller deletes them once `to` exists).
   */
  compose(parts: ReadonlyArray<BlobPart>, to: string): Promise<{ size: number }>;
  /**
   * Only stores the browser can reach directly (S3): a short-lived link that downloads the blob with
   * these headers, so the bytes need not pass through the server.
   */
  downloadUrl?(key: string, options: { contentType: string; contentDisposition: string; expiresInSeconds: number }): Promise<string>;
}

export type BlobPart = { key: string } | { bytes: Uint8Array };

export interface BlobReader {
  /** Up to `length` bytes from `offset` (fewer at the end of the blob). */
  read(offset: number, length: number): Promise<Uint8Array>;
  close(): Promise<void>;
}
