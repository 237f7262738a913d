import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { IndexFileWriter, type IndexEntry } from './document-index.ts';

const entry: IndexEntry = {
  index: 0, rowNumber: 2, fileName: 'a.pdf', offset: 0, size: 10, to: ['a@example.com'], cc: [], bcc: [],
  recipient: 'a@example.com', subject: 'Hi', vars: {}, invalid: null,
};

describe('the document index writer', () => {
  const dirs: string[] = [];
  afterAll(async () => {
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });

  it('turns a failing file into a rejected write, never an uncaught error that would end the server', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'sheaf-index-'));
    dirs.push(dir);
    // Its folder does not exist: the file's open fails after the first write was buffered.
    const writer = new IndexFileWriter(path.join(dir, 'gone', 'index.jsonl'));
    await writer.write(entry);
    await vi.waitFor(() => expect(writer.write(entry)).rejects.toMatchObject({ code: 'ENOENT' }), { timeout: 5_000 });
    await expect(writer.close()).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('can be destroyed while a write is in flight', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'sheaf-index-'));
    dirs.push(dir);
    const writer = new IndexFileWriter(path.join(dir, 'index.jsonl'));
    for (let n = 0; n < 100; n++) void writer.write({ ...entry, index: n }).catch(() => undefined);
    writer.destroy();
    // The writes in flight complete with ERR_STREAM_DESTROYED, reported to the writer (an uncaught
    // error would fail this run); later writes are refused.
    await expect(writer.write(entry)).rejects.toThrow('the document index was closed');
    await new Promise<void>((resolve) => setImmediate(resolve));
  });
});
