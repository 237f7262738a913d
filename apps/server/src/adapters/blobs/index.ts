import type { Config } from '../../config.ts';
import { LocalBlobStore } from './local.ts';
import type { BlobStore } from './types.ts';

/** The configured blob store: a local folder (BLOB_DIR); S3-compatible storage joins here later. */
export function openBlobStore(config: Pick<Config, 'BLOB_DIR'>): BlobStore {
  return new LocalBlobStore(config.BLOB_DIR);
}

export type { BlobStore } from './types.ts';
