/**
 * Blobs in an S3-compatible bucket (AWS S3, MinIO, Ceph, s3rver...). Keys are the same slash paths the
 * local store uses, checked the same way. Streams go up as multipart uploads and come down as the
 * GET body, so no call holds a whole file in memory (except get(), which exists to return the bytes).
 *
 * deletePrefix lists with ListObjects (v1) and deletes in batches of 1,000 (DeleteObjects).
 * Not done: copy() uses one CopyObject, which S3 limits to 5 GiB sources (a multipart copy would lift it).
 */
import {
  AbortMultipartUploadCommand,
  CopyObjectCommand,
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsCommand,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { Readable, Transform } from 'node:stream';
import { composeMultipart, copySource } from './s3-compose.ts';
import { assertSafeKey } from './local.ts';
import type { BlobPart, BlobReader, BlobStore } from './types.ts';

export interface S3Settings {
  endpoint: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  region: string;
  forcePathStyle: boolean;
}

/** S3's DeleteObjects takes at most this many keys per call. */
const DELETE_BATCH = 1000;
/** Streamed puts upload parts of this size, at most two at a time (so about 16 MiB in memory per put). */
const UPLOAD_PART_SIZE = 8 * 1024 * 1024;

/** The error the local store throws for a missing file, so callers need not know which store they have. */
export function notFound(key: string): Error {
  return Object.assign(new Error(`blob not found: ${JSON.stringify(key)}`), { code: 'ENOENT' });
}

/**
 * True for "no such key" in any of its S3 spellings (GET says NoSuchKey, HEAD only has the status).
 * A missing bucket is a setup error and stays one where S3 says so (HEAD cannot tell the two apart).
 */
export function isMissing(error: unknown): boolean {
  const e = error as { name?: string; Code?: string; $metadata?: { httpStatusCode?: number } };
  if (e?.name === 'NoSuchBucket' || e?.Code === 'NoSuchBucket') return false;
  return e?.name === 'NoSuchKey' || e?.name === 'NotFound' || e?.Code === 'NoSuchKey' || e?.$metadata?.httpStatusCode === 404;
}

/** Counts the bytes that pass, for put()'s returned size. */
function byteCounter(): Transform & { bytes: number } {
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      counter.bytes += chunk.length;
      callback(null, chunk);
    },
  }) as Transform & { bytes: number };
  counter.bytes = 0;
  return counter;
}

/** At most `limit` bytes of `stream`, then it is closed. */
async function* firstBytes(stream: Readable, limit: number): AsyncGenerator<Buffer> {
  let left = limit;
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      if (left <= 0) break;
      const piece = chunk.length > left ? chunk.subarray(0, left) : chunk;
      left -= piece.length;
      yield piece;
    }
  } finally {
    stream.destroy();
  }
}

export class S3BlobStore implements BlobStore {
  readonly client: S3Client;
  readonly bucket: string;
  /** Whether UploadPartCopy works here (s3rver answers NotImplemented): compose learns it on first use. */
  partCopySupported = true;

  constructor(settings: S3Settings) {
    this.bucket = settings.bucket;
    this.client = new S3Client({
      endpoint: settings.endpoint,
      region: settings.region,
      forcePathStyle: settings.forcePathStyle,
      credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey },
      // Checksums only where S3 requires them: other S3-compatible stores reject or ignore the newer
      // flexible checksums (and their aws-chunked bodies), and TLS already protects the bytes.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
  }

  private key(key: string): string {
    assertSafeKey(key);
    return key;
  }

  async put(key: string, data: Uint8Array | Readable): Promise<{ size: number }> {
    const Key = this.key(key);
    if (data instanceof Uint8Array) {
      await this.client.send(new PutObjectCommand({ Bucket: this.bucket, Key, Body: data, ContentLength: data.byteLength }));
      return { size: data.byteLength };
    }
    const counter = byteCounter();
    const body = data.pipe(counter);
    data.once('error', (error) => counter.destroy(error));
    const upload = new Upload({ client: this.client, params: { Bucket: this.bucket, Key, Body: body }, partSize: UPLOAD_PART_SIZE, queueSize: 2, leavePartsOnError: false });
    try {
      await upload.done();
    } catch (error) {
      data.destroy();
      throw error;
    }
    return { size: counter.bytes };
  }

  async get(key: string): Promise<Uint8Array> {
    const { stream, size } = await this.stream(key);
    const bytes = Buffer.allocUnsafe(size);
    let offset = 0;
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      if (offset + chunk.length > size) throw new Error(`blob ${JSON.stringify(key)} is longer than its Content-Length`);
      chunk.copy(bytes, offset);
      offset += chunk.length;
    }
    if (offset !== size) throw new Error(`blob ${JSON.stringify(key)} ended after ${offset} of ${size} bytes`);
    return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  async stream(key: string): Promise<{ stream: Readable; size: number }> {
    const Key = this.key(key);
    try {
      const answer = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key }));
      return { stream: answer.Body as Readable, size: answer.ContentLength ?? 0 };
    } catch (error) {
      if (isMissing(error)) throw notFound(key);
      throw error;
    }
  }

  /** A byte range of a blob as a stream: [start, end] inclusive, as HTTP ranges count. */
  async streamRange(key: string, start: number, end: number): Promise<Readable> {
    const answer = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: this.key(key), Range: `bytes=${start}-${end}` })).catch((error: unknown) => {
      throw isMissing(error) ? notFound(key) : error;
    });
    // Some S3-compatible servers answer a range they cannot parse (s3rver: "bytes=0-0") with the whole object.
    return Readable.from(firstBytes(answer.Body as Readable, end - start + 1));
  }

  /** The blob's size; throws a NotFound error (code 'ENOENT') if absent. */
  async size(key: string): Promise<number> {
    try {
      const head = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: this.key(key) }));
      return head.ContentLength ?? 0;
    } catch (error) {
      if (isMissing(error)) throw notFound(key);
      throw error;
    }
  }

  async exists(key: string): Promise<boolean> {
    try {
      await this.size(key);
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: this.key(key) }));
  }

  /** "templates/abc/" or "templates/abc": everything below that folder (and a blob named exactly "templates/abc"). */
  async deletePrefix(prefix: string): Promise<void> {
    assertSafeKey(prefix, { prefix: true });
    const folder = prefix.endsWith('/') ? prefix : `${prefix}/`;
    const keys: string[] = [folder.slice(0, -1)];
    // ListObjects (v1) pages by the last key seen. V2's continuation tokens would do as well on S3,
    // but s3rver makes them with DES, which Node's OpenSSL 3 refuses, so V2 fails past 1,000 keys there.
    let marker: string | undefined;
    do {
      const page = await this.client.send(new ListObjectsCommand({ Bucket: this.bucket, Prefix: folder, Marker: marker }));
      const found = (page.Contents ?? []).flatMap((object) => (object.Key ? [object.Key] : []));
      keys.push(...found);
      marker = page.IsTruncated ? (page.NextMarker ?? found.at(-1)) : undefined;
      // Delete as the listing goes, so a huge folder never sits in memory whole.
      while (keys.length >= DELETE_BATCH || (!marker && keys.length > 0)) await this.deleteBatch(keys.splice(0, DELETE_BATCH));
    } while (marker);
  }

  private async deleteBatch(keys: string[]): Promise<void> {
    const answer = await this.client.send(new DeleteObjectsCommand({ Bucket: this.bucket, Delete: { Objects: keys.map((Key) => ({ Key })), Quiet: true } }));
    const failed = (answer.Errors ?? []).filter((error) => error.Code !== 'NoSuchKey');
    if (failed.length > 0) throw new Error(`could not delete ${failed.length} blob(s), first ${JSON.stringify(failed[0]!.Key)}: ${failed[0]!.Code}`);
  }

  async copy(from: string, to: string): Promise<void> {
    const source = this.key(from);
    try {
      await this.client.send(new CopyObjectCommand({ Bucket: this.bucket, Key: this.key(to), CopySource: copySource(this.bucket, source) }));
    } catch (error) {
      if (isMissing(error)) throw notFound(from);
      throw error;
    }
  }

  async compose(parts: ReadonlyArray<BlobPart>, to: string): Promise<{ size: number }> {
    for (const part of parts) if ('key' in part) assertSafeKey(part.key);
    const { size } = await composeMultipart(this, parts, this.key(to));
    return { size };
  }

  async openReader(key: string): Promise<BlobReader> {
    const size = await this.size(key);
    return {
      read: async (offset: number, length: number): Promise<Uint8Array> => {
        const end = Math.min(offset + length, size);
        if (end <= offset) return new Uint8Array(0);
        const chunks: Buffer[] = [];
        for await (const chunk of (await this.streamRange(key, offset, end - 1)) as AsyncIterable<Buffer>) chunks.push(chunk);
        const bytes = Buffer.concat(chunks);
        return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
      },
      close: async () => undefined,
    };
  }

  /**
   * A short-lived GET link straight to the bucket that downloads as `fileName`, so large results
   * need not pass through the API process. The link carries a signature, never the secret key.
   */
  async downloadUrl(key: string, options: { contentType: string; contentDisposition: string; expiresInSeconds: number }): Promise<string> {
    const command = new GetObjectCommand({
      Bucket: this.bucket,
      Key: this.key(key),
      ResponseContentDisposition: options.contentDisposition,
      ResponseContentType: options.contentType,
    });
    return getSignedUrl(this.client, command, { expiresIn: options.expiresInSeconds });
  }

  /** Aborts a multipart upload left behind by a failed compose (best effort: the bucket's lifecycle rule is the backstop). */
  async abortUpload(key: string, uploadId: string): Promise<void> {
    await this.client.send(new AbortMultipartUploadCommand({ Bucket: this.bucket, Key: key, UploadId: uploadId })).catch(() => undefined);
  }
}
