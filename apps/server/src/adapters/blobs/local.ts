/**
 * Blobs as files under one folder. Writes go to a temporary file that is renamed into place, so a
 * reader never sees half a file and a crash leaves no truncated blob. Keys are checked so no key can
 * reach outside the folder.
 */
import { createReadStream, createWriteStream } from 'node:fs';
import { copyFile, mkdir, open, readFile, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { randomToken } from '../../crypto/secrets.ts';
import type { BlobPart, BlobReader, BlobStore } from './types.ts';

const TEMP_SUFFIX = '.partial';

/** Throws unless `key` is a relative slash path of plain segments (no '..', '.', '\\', NUL, empty). */
export function assertSafeKey(key: string, { prefix = false } = {}): void {
  const segments = key.split('/');
  if (prefix && segments.at(-1) === '') segments.pop();
  const bad =
    key.length === 0 ||
    key.length > 1024 ||
    key.includes('\\') ||
    key.includes('\0') ||
    path.isAbsolute(key) ||
    /^[A-Za-z]:/.test(key) ||
    segments.some((segment) => segment === '' || segment === '.' || segment === '..' || segment.endsWith(TEMP_SUFFIX));
  if (bad) throw new Error(`invalid blob key: ${JSON.stringify(key)}`);
}

export class LocalBlobStore implements BlobStore {
  constructor(private readonly root: string) {}

  private file(key: string, options?: { prefix?: boolean }): string {
    assertSafeKey(key, options);
    return path.join(this.root, ...key.split('/').filter(Boolean));
  }

  async put(key: string, data: Uint8Array | Readable): Promise<{ size: number }> {
    const target = this.file(key);
    await mkdir(path.dirname(target), { recursive: true });
    const temp = `${target}.${randomToken(6)}${TEMP_SUFFIX}`;
    try {
      const source = data instanceof Uint8Array ? Readable.from([data]) : data;
      await pipeline(source, createWriteStream(temp, { flags: 'wx' }));
      await rename(temp, target);
    } catch (error) {
      await rm(temp, { force: true });
      throw error;
    }
    return { size: (await stat(target)).size };
  }

  async get(key: string): Promise<Uint8Array> {
    const bytes = await readFile(this.file(key));
    return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  async stream(key: string): Promise<{ stream: Readable; size: number }> {
    const file = this.file(key);
    const { size } = await stat(file);
    return { stream: createReadStream(file), size };
  }

  async exists(key: string): Promise<boolean> {
    try {
      return (await stat(this.file(key))).isFile();
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    await rm(this.file(key), { force: true });
  }

  /** "templates/abc/" or "templates/abc": everything below that folder. */
  async deletePrefix(prefix: string): Promise<void> {
    // A job may still write into the folder while it goes (a range's part as its merge is cancelled):
    // the removal then meets ENOTEMPTY, which Node's retries absorb; the writer clears what it adds later.
    await rm(this.file(prefix, { prefix: true }), { recursive: true, force: true, maxRetries: 10, retryDelay: 20 });
  }

  async copy(from: string, to: string): Promise<void> {
    const source = this.file(from);
    const target = this.file(to);
    await mkdir(path.dirname(target), { recursive: true });
    const temp = `${target}.${randomToken(6)}${TEMP_SUFFIX}`;
    try {
      await copyFile(source, temp);
      await rename(temp, target);
    } catch (error) {
      await rm(temp, { force: true });
      throw error;
    }
  }

  async compose(parts: ReadonlyArray<BlobPart>, to: string): Promise<{ size: number }> {
    const files = parts.map((part) => ('key' in part ? this.file(part.key) : undefined));
    async function* chunks(): AsyncGenerator<Uint8Array> {
      for (const [index, part] of parts.entries()) {
        if ('bytes' in part) yield part.bytes;
        else yield* createReadStream(files[index]!);
      }
    }
    return this.put(to, Readable.from(chunks()));
  }

  async openReader(key: string): Promise<BlobReader> {
    const handle = await open(this.file(key), 'r');
    return {
      async read(offset: number, length: number): Promise<Uint8Array> {
        const buffer = Buffer.allocUnsafe(length);
        const { bytesRead } = await handle.read(buffer, 0, length, offset);
        return buffer.subarray(0, bytesRead);
      },
      close: () => handle.close(),
    };
  }
}
