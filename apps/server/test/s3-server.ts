/**
 * A real S3-compatible server for tests: s3rver in this process, on a free port, storing under a
 * temporary folder, with one empty bucket. s3rver checks request signatures (with a key pair added
 * here). It does not implement UploadPartCopy (it answers NotImplemented); with
 * `partCopy: true` a small handler added here answers it from s3rver's own store, so the server-side
 * copy path of compose runs against a server too. S3RVER_LOUD=1 prints s3rver's own log.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { S3Settings } from '../src/adapters/blobs/s3.ts';

interface S3rverStore {
  getObject(bucket: string, key: string, range: { start: number; end: number }): Promise<{ content: NodeJS.ReadableStream } | null>;
  putPart(bucket: string, uploadId: string, partNumber: number, content: NodeJS.ReadableStream): Promise<{ md5: string }>;
}
interface KoaContext {
  method: string;
  path: string;
  query: Record<string, string | undefined>;
  headers: Record<string, string | undefined>;
  store: S3rverStore;
  status: number;
  type: string;
  body: unknown;
}
type Middleware = (ctx: KoaContext, next: () => Promise<void>) => Promise<void>;
interface S3rverInstance {
  middleware: Middleware[];
  run(): Promise<AddressInfo>;
  close(): Promise<void>;
}
type S3rverClass = new (options: Record<string, unknown>) => S3rverInstance;

const require = createRequire(import.meta.url);
const S3rver = require('s3rver') as S3rverClass;
/** s3rver's one account: tests add their own key pair so the secret differs from the key id. */
const { DUMMY_ACCOUNT } = require('s3rver/lib/models/account.js') as { DUMMY_ACCOUNT: { createKeyPair(id: string, secret: string): void } };
const ACCESS_KEY_ID = 'SHEAFTESTKEY';
const SECRET_ACCESS_KEY = 'sheaf-test-secret-5b1f0c2e9a';
DUMMY_ACCOUNT.createKeyPair(ACCESS_KEY_ID, SECRET_ACCESS_KEY);

export interface TestS3 {
  settings: S3Settings;
  /** The S3_* settings for loadConfig / startTestServer. */
  config: { S3_ENDPOINT: string; S3_BUCKET: string; S3_ACCESS_KEY_ID: string; S3_SECRET_ACCESS_KEY: string; S3_REGION: string; S3_FORCE_PATH_STYLE: boolean };
  close(): Promise<void>;
}

/** UploadPartCopy on path-style URLs (/bucket/key?partNumber=&uploadId=), run before s3rver's router. */
const uploadPartCopy: Middleware = async (ctx, next) => {
  const source = ctx.headers['x-amz-copy-source'];
  if (ctx.method !== 'PUT' || !ctx.query.uploadId || !source) return next();
  const [bucket] = ctx.path.slice(1).split('/');
  const [sourceBucket, ...sourceKey] = source.replace(/^\//, '').split('/').map(decodeURIComponent);
  const range = /^bytes=(\d+)-(\d+)$/.exec(ctx.headers['x-amz-copy-source-range'] ?? '');
  const object = range && (await ctx.store.getObject(sourceBucket!, sourceKey.join('/'), { start: Number(range[1]), end: Number(range[2]) }));
  if (!object) {
    ctx.status = 400;
    ctx.body = 'test UploadPartCopy: needs an existing source and x-amz-copy-source-range';
    return;
  }
  const { md5 } = await ctx.store.putPart(bucket!, ctx.query.uploadId, Number(ctx.query.partNumber), object.content);
  ctx.type = 'application/xml';
  ctx.body = `<?xml version="1.0" encoding="UTF-8"?><CopyPartResult><ETag>"${md5}"</ETag><LastModified>${new Date().toISOString()}</LastModified></CopyPartResult>`;
};

export async function startTestS3(options: { bucket?: string; partCopy?: boolean } = {}): Promise<TestS3> {
  const bucket = options.bucket ?? 'sheaf-test';
  const directory = await mkdtemp(path.join(tmpdir(), 'sheaf-s3-'));
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: process.env.S3RVER_LOUD !== '1', directory, configureBuckets: [{ name: bucket }] });
  if (options.partCopy) server.middleware.unshift(uploadPartCopy);
  try {
    const { port } = await server.run();
    const endpoint = `http://127.0.0.1:${port}`;
    const settings: S3Settings = { endpoint, bucket, accessKeyId: ACCESS_KEY_ID, secretAccessKey: SECRET_ACCESS_KEY, region: 'us-east-1', forcePathStyle: true };
    return {
      settings,
      config: { S3_ENDPOINT: endpoint, S3_BUCKET: bucket, S3_ACCESS_KEY_ID: ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY: SECRET_ACCESS_KEY, S3_REGION: 'us-east-1', S3_FORCE_PATH_STYLE: true },
      close: async () => {
        await server.close();
        await rm(directory, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await rm(directory, { recursive: true, force: true });
    throw error;
  }
}
