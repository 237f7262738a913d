import type { Config } from '../../config.ts';
import { LocalBlobStore } from './local.ts';
import { S3BlobStore } from './s3.ts';
import type { BlobStore } from './types.ts';

type BlobConfig = Pick<Config, 'BLOB_DIR' | 'S3_ENDPOINT' | 'S3_BUCKET' | 'S3_ACCESS_KEY_ID' | 'S3_SECRET_ACCESS_KEY' | 'S3_REGION' | 'S3_FORCE_PATH_STYLE'>;

/** The configured blob store: an S3-compatible bucket when S3_ENDPOINT is set, else the local folder BLOB_DIR. */
export function openBlobStore(config: BlobConfig): BlobStore {
  if (!config.S3_ENDPOINT) return new LocalBlobStore(config.BLOB_DIR);
  // loadConfig refuses S3_ENDPOINT without the bucket and both keys; this guards hand-made configs.
  const { S3_BUCKET: bucket, S3_ACCESS_KEY_ID: accessKeyId, S3_SECRET_ACCESS_KEY: secretAccessKey } = config;
  if (!bucket || !accessKeyId || !secretAccessKey) throw new Error('S3_ENDPOINT is set without S3_BUCKET, S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY');
  return new S3BlobStore({ endpoint: config.S3_ENDPOINT, bucket, accessKeyId, secretAccessKey, region: config.S3_REGION, forcePathStyle: config.S3_FORCE_PATH_STYLE });
}

export type { BlobStore } from './types.ts';
