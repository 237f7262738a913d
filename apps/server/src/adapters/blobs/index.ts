import type { Readable } from 'node:stream';
import type { Config } from '../../config.ts';
import { LocalBlobStore } from './local.ts';
import type { S3BlobStore, S3Settings } from './s3.ts';
import type { BlobPart, BlobReader, BlobStore } from './types.ts';

type BlobConfig = Pick<Config, 'BLOB_DIR' | 'S3_ENDPOINT' | 'S3_BUCKET' | 'S3_ACCESS_KEY_ID' | 'S3_SECRET_ACCESS_KEY' | 'S3_REGION' | 'S3_FORCE_PATH_STYLE'>;

/** The configured blob store: an S3-compatible bucket when S3_ENDPOINT is set, else the local folder BLOB_DIR. */
export function openBlobStore(config: BlobConfig): BlobStore {
  if (!config.S3_ENDPOINT) return new LocalBlobStore(config.BLOB_DIR);
  // loadConfig refuses S3_ENDPOINT without the bucket and both keys; this guards hand-made configs.
  const { S3_BUCKET: bucket, S3_ACCESS_KEY_ID: accessKeyId, S3_SECRET_ACCESS_KEY: secretAccessKey } = config;
  if (!bucket || !accessKeyId || !secretAccessKey) throw new Error('S3_ENDPOINT is set without S3_BUCKET, S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY');
  return new DeferredS3BlobStore({ endpoint: config.S3_ENDPOINT, bucket, accessKeyId, secretAccessKey, region: config.S3_REGION, forcePathStyle: config.S3_FORCE_PATH_STYLE });
}

/**
 * The S3 store, loaded at its first call: the AWS SDK costs about 0.3 s and 25 MB, which a process
 * that never touches a file (or runs on the local folder) should not pay at start.
 */
export class DeferredS3BlobStore implements BlobStore {
  readonly kind = 's3';
  private loaded: Promise<S3BlobStore> | undefined;

  constructor(private readonly settings: S3Settings) {}

  /** The S3 store itself (loading the SDK on first use). */
  load(): Promise<S3BlobStore> {
    this.loaded ??= import('./s3.ts').then(({ S3BlobStore }) => new S3BlobStore(this.settings));
    return this.loaded;
  }

  async put(key: string, data: Uint8Array | Readable) {
    return (await this.load()).put(key, data);
  }
  async get(key: string): Promise<Uint8Array> {
    return (await this.load()).get(key);
  }
  async stream(key: string) {
    return (await this.load()).stream(key);
  }
  async exists(key: string): Promise<boolean> {
    return (await this.load()).exists(key);
  }
  async delete(key: string): Promise<void> {
    return (await this.load()).delete(key);
  }
  async deletePrefix(prefix: string): Promise<void> {
    return (await this.load()).deletePrefix(prefix);
  }
  async copy(from: string, to: string): Promise<void> {
    return (await this.load()).copy(from, to);
  }
  async openReader(key: string): Promise<BlobReader> {
    return (await this.load()).openReader(key);
  }
  async compose(parts: ReadonlyArray<BlobPart>, to: string) {
    return (await this.load()).compose(parts, to);
  }
  async downloadUrl(key: string, options: { contentType: string; contentDisposition: string; expiresInSeconds: number }): Promise<string> {
    return (await this.load()).downloadUrl(key, options);
  }
}

export type { BlobStore } from './types.ts';
