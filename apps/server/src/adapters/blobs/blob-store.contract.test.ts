/**
 * What every BlobStore promises, run against the local folder and against a real S3-compatible server
 * (s3rver, in this process), once as s3rver is (no UploadPartCopy: compose streams everything through)
 * and once with part copy added (compose copies large parts inside the server).
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startTestS3, type TestS3 } from '../../../test/s3-server.ts';
import { LocalBlobStore } from './local.ts';
import { S3BlobStore } from './s3.ts';
import { composeMultipart, MIN_PART } from './s3-compose.ts';
import type { BlobPart, BlobStore } from './types.ts';

const MiB = 1024 * 1024;

interface Opened {
  store: BlobStore;
  close(): Promise<void>;
}

/** `listingPages`: run the slow 1,050-key test (once per listing code path is enough). */
const kinds: Array<{ name: string; listingPages: boolean; open(): Promise<Opened> }> = [
  {
    name: 'local folder',
    listingPages: true,
    async open() {
      const root = await mkdtemp(path.join(tmpdir(), 'sheaf-blobs-'));
      return { store: new LocalBlobStore(root), close: () => rm(root, { recursive: true, force: true }) };
    },
  },
  {
    name: 's3rver (no part copy)',
    listingPages: true,
    async open() {
      const s3 = await startTestS3();
      return { store: new S3BlobStore(s3.settings), close: s3.close };
    },
  },
  {
    name: 's3rver with part copy',
    listingPages: false,
    async open() {
      const s3 = await startTestS3({ partCopy: true });
      return { store: new S3BlobStore(s3.settings), close: s3.close };
    },
  },
];

const text = (value: string) => new TextEncoder().encode(value);
const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
const sha = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream as AsyncIterable<Buffer>) chunks.push(chunk);
  return Buffer.concat(chunks);
}

/** `bytes` as a stream of uneven chunks, as an upload or a file arrives. */
function chunked(bytes: Uint8Array, chunkSize = 64 * 1024 + 7): Readable {
  const pieces: Uint8Array[] = [];
  for (let offset = 0; offset < bytes.byteLength; offset += chunkSize) pieces.push(bytes.subarray(offset, offset + chunkSize));
  return Readable.from(pieces);
}

const BAD_KEYS = ['', '../outside', 'a/../../outside', '/absolute', 'a//b', 'a/./b', 'a\\b', 'C:/x', 'a\0b', 'a/b.partial', 'x'.repeat(1025)];

describe.each(kinds)('BlobStore contract: $name', (kind) => {
  let opened: Opened;
  let store: BlobStore;
  beforeAll(async () => {
    opened = await kind.open();
    store = opened.store;
  });
  afterAll(async () => opened?.close());

  test('put bytes, then get, stream and exists answer them; put again replaces', async () => {
    expect(await store.put('t/one/file.txt', text('first'))).toEqual({ size: 5 });
    expect(decode(await store.get('t/one/file.txt'))).toBe('first');
    const { stream, size } = await store.stream('t/one/file.txt');
    expect(size).toBe(5);
    expect((await readAll(stream)).toString()).toBe('first');
    expect(await store.exists('t/one/file.txt')).toBe(true);
    expect(await store.exists('t/one')).toBe(false);

    await store.put('t/one/file.txt', text('second, longer'));
    expect(decode(await store.get('t/one/file.txt'))).toBe('second, longer');
  });

  test('put from a stream larger than an upload part keeps every byte and reports the size', async () => {
    const bytes = randomBytes(9 * MiB + 321);
    expect(await store.put('t/streamed.bin', chunked(bytes))).toEqual({ size: bytes.byteLength });
    const { stream, size } = await store.stream('t/streamed.bin');
    expect(size).toBe(bytes.byteLength);
    expect(sha(await readAll(stream))).toBe(sha(bytes));
    expect(sha(await store.get('t/streamed.bin'))).toBe(sha(bytes));
  });

  test('an empty blob is a blob', async () => {
    expect(await store.put('t/empty', new Uint8Array(0))).toEqual({ size: 0 });
    expect(await store.exists('t/empty')).toBe(true);
    expect((await store.get('t/empty')).byteLength).toBe(0);
  });

  test('missing keys: get, stream, openReader and copy fail with ENOENT, exists is false, delete is quiet', async () => {
    await expect(store.get('t/missing')).rejects.toMatchObject({ code: 'ENOENT' });
    await expect(store.stream('t/missing')).rejects.toMatchObject({ code: 'ENOENT' });
    await expect(store.openReader('t/missing')).rejects.toMatchObject({ code: 'ENOENT' });
    await expect(store.copy('t/missing', 't/copy-of-missing')).rejects.toMatchObject({ code: 'ENOENT' });
    expect(await store.exists('t/copy-of-missing')).toBe(false);
    expect(await store.exists('t/missing')).toBe(false);
    await expect(store.delete('t/missing')).resolves.toBeUndefined();
    await expect(store.deletePrefix('t/no-such-folder/')).resolves.toBeUndefined();
  });

  test('delete removes one blob and leaves its neighbours', async () => {
    await store.put('t/del/a', text('a'));
    await store.put('t/del/b', text('b'));
    await store.delete('t/del/a');
    expect(await store.exists('t/del/a')).toBe(false);
    expect(decode(await store.get('t/del/b'))).toBe('b');
  });

  test('keys with spaces, percent signs, punctuation and unicode round-trip, copy and delete by prefix', async () => {
    // No "+", "?" or "#": s3rver cannot copy such keys (see copySource); the blob layout never makes them.
    const key = "templates/my template/images/Ünïcødé 😀 %20 %2B & = @ , ; $ ' ( ) ! ~.png";
    await store.put(key, text('picture'));
    expect(decode(await store.get(key))).toBe('picture');
    expect(await store.exists(key)).toBe(true);
    await store.copy(key, 'templates/copy één/images/😀 copy.png');
    expect(decode(await store.get('templates/copy één/images/😀 copy.png'))).toBe('picture');
    await store.deletePrefix('templates/my template/');
    expect(await store.exists(key)).toBe(false);
    expect(await store.exists('templates/copy één/images/😀 copy.png')).toBe(true);
  });

  test('a merge result named with "+", "#" and "?" is stored, read in ranges and deleted by its folder', async () => {
    const key = 'merges/m1/Q1+Q2 #3 ?.zip';
    await store.put(key, text('zip bytes'));
    expect(decode(await store.get(key))).toBe('zip bytes');
    const reader = await store.openReader(key);
    expect(decode(await reader.read(4, 5))).toBe('bytes');
    await reader.close();
    await store.deletePrefix('merges/m1/');
    expect(await store.exists(key)).toBe(false);
  });

  test('bad keys are refused by every call before anything is stored', async () => {
    for (const key of BAD_KEYS) {
      await expect(store.put(key, text('x')), key).rejects.toThrow(/invalid blob key/);
      await expect(store.get(key), key).rejects.toThrow(/invalid blob key/);
      await expect(store.stream(key), key).rejects.toThrow(/invalid blob key/);
      await expect(store.exists(key), key).rejects.toThrow(/invalid blob key/);
      await expect(store.delete(key), key).rejects.toThrow(/invalid blob key/);
      await expect(store.openReader(key), key).rejects.toThrow(/invalid blob key/);
      await expect(store.copy('t/one/file.txt', key), key).rejects.toThrow(/invalid blob key/);
      await expect(store.copy(key, 't/bad-copy'), key).rejects.toThrow(/invalid blob key/);
      await expect(store.compose([{ key }], 't/bad-compose'), key).rejects.toThrow(/invalid blob key/);
      await expect(store.compose([{ bytes: text('x') }], key), key).rejects.toThrow(/invalid blob key/);
    }
    for (const prefix of ['', '/', '..', '../', 'a/../..', '/abs/']) await expect(store.deletePrefix(prefix), prefix).rejects.toThrow(/invalid blob key/);
    expect(await store.exists('t/bad-copy')).toBe(false);
    expect(await store.exists('t/bad-compose')).toBe(false);
  });

  test('deletePrefix removes the folder (with or without its slash) and nothing beside it', async () => {
    for (const key of ['p/abc/1', 'p/abc/deep/2', 'p/abcd/3', 'p/ab', 'p/other']) await store.put(key, text(key));
    await store.deletePrefix('p/abc');
    expect(await store.exists('p/abc/1')).toBe(false);
    expect(await store.exists('p/abc/deep/2')).toBe(false);
    expect(await store.exists('p/abcd/3')).toBe(true);
    expect(await store.exists('p/ab')).toBe(true);
    await store.deletePrefix('p/abcd/');
    expect(await store.exists('p/abcd/3')).toBe(false);
    expect(await store.exists('p/other')).toBe(true);
  });

  test.runIf(kind.listingPages)('deletePrefix removes more than one listing page (1,000 keys)', async () => {
    const keys = Array.from({ length: 1050 }, (_, index) => `many/k${index}`);
    for (let start = 0; start < keys.length; start += 50) await Promise.all(keys.slice(start, start + 50).map((key) => store.put(key, text('m'))));
    await store.put('manyx/keep', text('k'));
    await store.deletePrefix('many/');
    const left = await Promise.all([keys[0]!, keys[999]!, keys[1000]!, keys[1049]!].map((key) => store.exists(key)));
    expect(left).toEqual([false, false, false, false]);
    expect(await store.exists('manyx/keep')).toBe(true);
  }, 60_000);

  test('copy makes an independent blob and replaces an existing target', async () => {
    const bytes = randomBytes(300_000);
    await store.put('c/source', bytes);
    await store.put('c/target', text('old'));
    await store.copy('c/source', 'c/target');
    expect(sha(await store.get('c/target'))).toBe(sha(bytes));
    await store.delete('c/source');
    expect(sha(await store.get('c/target'))).toBe(sha(bytes));
  });

  test('openReader reads ranges: start, middle, across the end, past the end, nothing', async () => {
    const bytes = randomBytes(100_000);
    await store.put('r/blob', bytes);
    const reader = await store.openReader('r/blob');
    try {
      expect(Buffer.from(await reader.read(0, 1)).equals(bytes.subarray(0, 1))).toBe(true);
      expect(Buffer.from(await reader.read(0, 10)).equals(bytes.subarray(0, 10))).toBe(true);
      expect(Buffer.from(await reader.read(54_321, 4_000)).equals(bytes.subarray(54_321, 58_321))).toBe(true);
      expect(Buffer.from(await reader.read(99_990, 50)).equals(bytes.subarray(99_990))).toBe(true);
      expect((await reader.read(100_000, 10)).byteLength).toBe(0);
      expect((await reader.read(500, 0)).byteLength).toBe(0);
    } finally {
      await reader.close();
    }
  });

  test('compose concatenates large and small stored parts and byte tails exactly, leaving the parts', async () => {
    const big1 = randomBytes(6 * MiB + 123);
    const small = randomBytes(1_000);
    const big2 = randomBytes(5 * MiB);
    const big3 = randomBytes(11 * MiB + 5);
    await store.put('m/part-1', big1);
    await store.put('m/part-small', small);
    await store.put('m/part-2', big2);
    await store.put('m/part-3', chunked(big3));
    const tailA = text('local header');
    const tailB = randomBytes(17);
    const directory = randomBytes(300);
    const parts: BlobPart[] = [
      { bytes: tailA },
      { key: 'm/part-1' },
      { key: 'm/part-small' },
      { bytes: tailB },
      { key: 'm/part-2' },
      { bytes: tailA },
      { key: 'm/part-3' },
      { key: 'm/part-small' },
      { bytes: directory },
    ];
    const expected = Buffer.concat([tailA, big1, small, tailB, big2, tailA, big3, small, directory]);
    expect(await store.compose(parts, 'm/result.zip')).toEqual({ size: expected.byteLength });
    const { stream, size } = await store.stream('m/result.zip');
    expect(size).toBe(expected.byteLength);
    expect(sha(await readAll(stream))).toBe(sha(expected));
    for (const key of ['m/part-1', 'm/part-small', 'm/part-2', 'm/part-3']) expect(await store.exists(key)).toBe(true);
  }, 60_000);

  test('compose of small parts only, of one large part, and of nothing', async () => {
    await store.put('s/a', text('alpha '));
    await store.put('s/b', text('beta'));
    expect(await store.compose([{ key: 's/a' }, { bytes: text('| ') }, { key: 's/b' }], 's/out')).toEqual({ size: 12 });
    expect(decode(await store.get('s/out'))).toBe('alpha | beta');

    const big = randomBytes(5 * MiB + 1);
    await store.put('s/big', big);
    await store.compose([{ key: 's/big' }], 's/big-copy');
    expect(sha(await store.get('s/big-copy'))).toBe(sha(big));

    expect(await store.compose([], 's/nothing')).toEqual({ size: 0 });
    expect((await store.get('s/nothing')).byteLength).toBe(0);
  }, 60_000);

  test('compose with a missing part fails and writes no result', async () => {
    await store.put('x/present', text('here'));
    await expect(store.compose([{ key: 'x/present' }, { key: 'x/absent' }], 'x/result')).rejects.toMatchObject({ code: 'ENOENT' });
    expect(await store.exists('x/result')).toBe(false);
  });
});

describe('S3 compose parts', () => {
  let plain: TestS3;
  let withCopy: TestS3;
  beforeAll(async () => {
    [plain, withCopy] = await Promise.all([startTestS3(), startTestS3({ partCopy: true })]);
  });
  afterAll(async () => Promise.all([plain?.close(), withCopy?.close()]));

  async function composeOn(s3: TestS3) {
    const store = new S3BlobStore(s3.settings);
    const big1 = randomBytes(12 * MiB);
    const big2 = randomBytes(5 * MiB + 10);
    await store.put('q/1', big1);
    await store.put('q/2', big2);
    const head = randomBytes(1_000);
    const result = await composeMultipart(store, [{ bytes: head }, { key: 'q/1' }, { bytes: text('between') }, { key: 'q/2' }, { bytes: text('end') }], 'q/out');
    expect(sha(await store.get('q/out'))).toBe(sha(Buffer.concat([head, big1, text('between'), big2, text('end')])));
    return { store, result };
  }

  test('where the server copies parts, large parts never pass through and every part but the last is >= 5 MiB', async () => {
    const { store, result } = await composeOn(withCopy);
    expect(store.partCopySupported).toBe(true);
    // The 1,000-byte head topped up to 5 MiB from big1, the rest of big1 copied; big2 would leave less
    // than 5 MiB after topping up "between", so it streams, and forms the last part with "end".
    const topUp = MIN_PART - 1_000;
    expect(result.partSizes).toEqual([MIN_PART, 12 * MiB - topUp, 7 + 5 * MiB + 10 + 3]);
    expect(result.copiedBytes).toBe(12 * MiB - topUp);
  }, 60_000);

  test('a copied part larger than the largest copy range goes in ranges, the remainder joining the last range', async () => {
    const store = new S3BlobStore(withCopy.settings);
    const big = randomBytes(20 * MiB);
    await store.put('q/big', big);
    const result = await composeMultipart(store, [{ key: 'q/big' }, { bytes: text('!') }], 'q/ranges', { maxCopyPart: 6 * MiB });
    expect(result.partSizes).toEqual([6 * MiB, 6 * MiB, 8 * MiB, 1]);
    expect(result.copiedBytes).toBe(20 * MiB);
    expect(sha(await store.get('q/ranges'))).toBe(sha(Buffer.concat([big, text('!')])));
  }, 60_000);

  test('s3rver has no UploadPartCopy: the store notices and streams the parts through', async () => {
    const { store, result } = await composeOn(plain);
    expect(store.partCopySupported).toBe(false);
    expect(result.copiedBytes).toBe(0);
    expect(result.partSizes.slice(0, -1).every((size) => size >= MIN_PART)).toBe(true);
    expect(result.partSizes.reduce((sum, size) => sum + size, 0)).toBe(result.size);
  }, 60_000);

  test('a bucket that does not exist is an error, not a missing file', async () => {
    const store = new S3BlobStore({ ...plain.settings, bucket: 'no-such-bucket' });
    await expect(store.get('a/b')).rejects.toMatchObject({ name: 'NoSuchBucket' });
    await expect(store.put('a/b', text('x'))).rejects.toMatchObject({ name: 'NoSuchBucket' });
  });

  test('a part that vanishes once the upload has started fails the compose and leaves no result', async () => {
    // (The store then aborts the multipart upload; s3rver does not implement AbortMultipartUpload, so
    // that step is not observable here.)
    const store = new S3BlobStore(plain.settings);
    await store.put('f/1', randomBytes(9 * MiB));
    const size = store.size.bind(store);
    store.size = async (key) => {
      const answer = await size(key);
      if (key === 'f/1') await store.delete('f/1');
      return answer;
    };
    await expect(composeMultipart(store, [{ bytes: randomBytes(9 * MiB) }, { key: 'f/1' }], 'f/out')).rejects.toMatchObject({ code: 'ENOENT' });
    expect(await store.exists('f/out')).toBe(false);
  }, 60_000);
});
