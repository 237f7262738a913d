/**
 * S3BlobStore.compose: one object made of stored blobs and small byte tails, as a multipart upload.
 *
 * Stored blobs of at least 5 MiB are copied inside S3 (UploadPartCopy), so their bytes never pass
 * through this process. Everything else (small blobs, byte tails, and all of it on stores without part
 * copy, such as s3rver) streams through a buffer of at most about one part. S3 wants every part but
 * the last to be at least 5 MiB, so bytes waiting before a copied blob are topped up with that blob's
 * first bytes to make a full part. A result that never fills a part is one PutObject.
 */
import type { Readable } from 'node:stream';
import {
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  PutObjectCommand,
  UploadPartCommand,
  UploadPartCopyCommand,
  type S3Client,
} from '@aws-sdk/client-s3';
import type { BlobPart } from './types.ts';

/** What compose needs of the S3 store (S3BlobStore; named here so the two files do not import each other). */
export interface ComposeStore {
  readonly client: S3Client;
  readonly bucket: string;
  partCopySupported: boolean;
  size(key: string): Promise<number>;
  streamRange(key: string, start: number, end: number): Promise<Readable>;
  abortUpload(key: string, uploadId: string): Promise<void>;
}

/**
 * The x-amz-copy-source value: bucket and key, percent-encoded (S3 decodes it). Characters that a
 * URL may carry as they are (& = @ : , ; $) stay so: s3rver decodes this header with decodeURI, which
 * would leave their escapes in the key. "+", "?" and "#" must stay escaped for S3 (s3rver then cannot
 * copy such keys; the blob layout never makes them, as nameSegment escapes user-chosen names).
 */
export function copySource(bucket: string, key: string): string {
  const encoded = key
    .split('/')
    .map((segment) => encodeURIComponent(segment).replace(/%(26|3D|40|3A|2C|3B|24)/gi, (escape) => decodeURIComponent(escape)))
    .join('/');
  return `${bucket}/${encoded}`;
}

const MiB = 1024 * 1024;
/** S3's smallest part (except the last). */
export const MIN_PART = 5 * MiB;
/** Bytes streamed through are sent in parts of about this size. */
const STREAM_PART = 8 * MiB;
/** A copied blob larger than this is copied in ranges (S3 allows at most 5 GiB per part). */
const MAX_COPY_PART = 1024 * MiB;
const MAX_PARTS = 10_000;
const HEAD_CONCURRENCY = 8;

function isNotImplemented(error: unknown): boolean {
  const e = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e?.name === 'NotImplemented' || e?.$metadata?.httpStatusCode === 501;
}

/** The parts of one multipart upload, started only once a first part is due. */
class PartWriter {
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private uploadId: string | undefined;
  private readonly parts: Array<{ PartNumber: number; ETag: string | undefined }> = [];
  /** Sizes of the parts sent, in order, and how many bytes S3 copied itself (for tests). */
  readonly partSizes: number[] = [];
  copiedBytes = 0;

  constructor(
    private readonly store: ComposeStore,
    private readonly key: string,
  ) {}

  get buffered(): number {
    return this.pendingBytes;
  }

  private async nextPartNumber(): Promise<number> {
    if (this.parts.length >= MAX_PARTS) throw new Error(`compose ${JSON.stringify(this.key)}: more than ${MAX_PARTS} parts`);
    if (!this.uploadId) {
      const created = await this.store.client.send(new CreateMultipartUploadCommand({ Bucket: this.store.bucket, Key: this.key }));
      this.uploadId = created.UploadId;
    }
    return this.parts.length + 1;
  }

  async append(bytes: Uint8Array): Promise<void> {
    if (bytes.byteLength === 0) return;
    this.pending.push(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
    this.pendingBytes += bytes.byteLength;
    if (this.pendingBytes >= STREAM_PART) await this.flush();
  }

  /** Sends the buffered bytes as one part (callers make sure it is large enough unless it is the last). */
  async flush(): Promise<void> {
    if (this.pendingBytes === 0) return;
    const PartNumber = await this.nextPartNumber();
    const body = Buffer.concat(this.pending, this.pendingBytes);
    this.pending = [];
    this.pendingBytes = 0;
    const sent = await this.store.client.send(
      new UploadPartCommand({ Bucket: this.store.bucket, Key: this.key, UploadId: this.uploadId, PartNumber, Body: body, ContentLength: body.byteLength }),
    );
    this.parts.push({ PartNumber, ETag: sent.ETag });
    this.partSizes.push(body.byteLength);
  }

  /** Copies bytes [start, end] of a stored blob as one part; false when the store has no part copy. */
  async copyRange(sourceKey: string, start: number, end: number): Promise<boolean> {
    if (!this.store.partCopySupported) return false;
    const PartNumber = await this.nextPartNumber();
    try {
      const copied = await this.store.client.send(
        new UploadPartCopyCommand({
          Bucket: this.store.bucket,
          Key: this.key,
          UploadId: this.uploadId,
          PartNumber,
          CopySource: copySource(this.store.bucket, sourceKey),
          CopySourceRange: `bytes=${start}-${end}`,
        }),
      );
      this.parts.push({ PartNumber, ETag: copied.CopyPartResult?.ETag });
      this.partSizes.push(end - start + 1);
      this.copiedBytes += end - start + 1;
      return true;
    } catch (error) {
      if (!isNotImplemented(error)) throw error;
      this.store.partCopySupported = false;
      return false;
    }
  }

  async streamRange(sourceKey: string, start: number, end: number): Promise<void> {
    if (end < start) return;
    for await (const chunk of (await this.store.streamRange(sourceKey, start, end)) as AsyncIterable<Buffer>) await this.append(chunk);
  }

  async finish(): Promise<void> {
    if (!this.uploadId) {
      const body = Buffer.concat(this.pending, this.pendingBytes);
      await this.store.client.send(new PutObjectCommand({ Bucket: this.store.bucket, Key: this.key, Body: body, ContentLength: body.byteLength }));
      this.partSizes.push(body.byteLength);
      return;
    }
    await this.flush();
    await this.store.client.send(
      new CompleteMultipartUploadCommand({ Bucket: this.store.bucket, Key: this.key, UploadId: this.uploadId, MultipartUpload: { Parts: this.parts } }),
    );
  }

  async abort(): Promise<void> {
    if (this.uploadId) await this.store.abortUpload(this.key, this.uploadId);
  }
}

/** Adds one stored blob of `size` bytes: copied server-side where it can be, streamed through otherwise. */
async function addStored(writer: PartWriter, store: ComposeStore, key: string, size: number, maxCopyPart: number): Promise<void> {
  let position = 0;
  if (store.partCopySupported && size >= MIN_PART) {
    // Bytes already waiting must go out as a full part before a copied one: top them up from this blob.
    const topUp = writer.buffered > 0 ? Math.max(0, MIN_PART - writer.buffered) : 0;
    if (size - topUp >= MIN_PART) {
      await writer.streamRange(key, 0, topUp - 1);
      await writer.flush();
      position = topUp;
      while (size - position >= MIN_PART) {
        // A remainder under 5 MiB joins this range rather than becoming a too-small part of its own.
        let end = Math.min(position + maxCopyPart, size);
        if (size - end < MIN_PART) end = size;
        if (!(await writer.copyRange(key, position, end - 1))) break;
        position = end;
      }
    }
  }
  await writer.streamRange(key, position, size - 1);
}

/** Every source must exist before anything is written, and its size decides copy or stream: a few HEADs at a time. */
async function partSizes(store: ComposeStore, parts: ReadonlyArray<BlobPart>): Promise<number[]> {
  const sizes = parts.map((part) => ('bytes' in part ? part.bytes.byteLength : -1));
  let next = 0;
  const worker = async () => {
    for (let index = next++; index < parts.length; index = next++) {
      const part = parts[index]!;
      if ('key' in part) sizes[index] = await store.size(part.key);
    }
  };
  await Promise.all(Array.from({ length: Math.min(HEAD_CONCURRENCY, parts.length) }, worker));
  return sizes;
}

export async function composeMultipart(
  store: ComposeStore,
  parts: ReadonlyArray<BlobPart>,
  to: string,
  { maxCopyPart = MAX_COPY_PART }: { maxCopyPart?: number } = {},
): Promise<{ size: number; partSizes: number[]; copiedBytes: number }> {
  const sizes = await partSizes(store, parts);
  const writer = new PartWriter(store, to);
  try {
    for (const [index, part] of parts.entries()) {
      if ('bytes' in part) await writer.append(part.bytes);
      else await addStored(writer, store, part.key, sizes[index]!, maxCopyPart);
    }
    await writer.finish();
  } catch (error) {
    await writer.abort();
    throw error;
  }
  return { size: sizes.reduce((sum, size) => sum + size, 0), partSizes: writer.partSizes, copiedBytes: writer.copiedBytes };
}
