/**
 * A merge worker thread that dies for a reason other than memory (an unexpected exit, an uncaught
 * error) fails its merge with `merge/worker-failed`, its threads end, and the next merge gets live
 * workers: a dead one is never handed out again, also one that died while kept warm.
 */
import { readdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { PDFDocument } from 'pdf-lib';
import { PlaceholderSchema } from '@sheaf/shared';
import { sheetFromTable } from '../sheet/table.ts';
import { loadBundledFallbackFonts } from './fonts.ts';
import { mergeDocumentsInParallel } from './parallel.ts';
import { dyingMergeWorkers, MERGE_WORKER_DIES, type MergeWorkerDeath } from './test-support.ts';
import type { MergeInput } from '../merge/types.ts';

const ROWS = 40;

async function input(): Promise<MergeInput> {
  const doc = await PDFDocument.create();
  doc.addPage([300, 400]).drawText('Template', { x: 20, y: 360 });
  return {
    template: await doc.save(),
    placeholders: [PlaceholderSchema.parse({ id: 'n', column: 'Name', pageNumber: 1, relativeX: 0.1, relativeY: 0.3, relativeWidth: 0.8, relativeHeight: 0.1 })],
    sheet: sheetFromTable(['Name'], Array.from({ length: ROWS }, (_, i) => [`Name ${i}`])),
    options: { fileNamePattern: '{{Name}}' },
    fallbackFonts: await loadBundledFallbackFonts(),
  };
}

/**
 * Every document's name, in order: the merge made in two workers, batches of 4. A worker reads how it
 * dies when it starts; each test's workers get a heap cap of their own, so no warm worker of another
 * test (that dies otherwise, or not) is taken.
 */
async function names(merge: MergeInput, dies: MergeWorkerDeath | undefined, maxMemoryMb: number, onDocument = () => {}): Promise<string[]> {
  if (dies) process.env[MERGE_WORKER_DIES] = dies;
  else delete process.env[MERGE_WORKER_DIES];
  const made: string[] = [];
  for await (const document of mergeDocumentsInParallel(merge, { workers: 2, batchSize: 4, maxMemoryMb }).documents) {
    made.push(document.fileName);
    onDocument();
  }
  return made;
}

const ALL = Array.from({ length: ROWS }, (_, i) => `Name ${i}.pdf`);

/** The threads of this process: the merge workers among them. */
const threadCount = () => readdirSync('/proc/self/task').length;

describe('a merge worker that dies mid-merge', () => {
  let faults: ReturnType<typeof dyingMergeWorkers>;
  const builds = process.env.SHEAF_PREBUILT_WORKERS;

  beforeAll(() => {
    faults = dyingMergeWorkers();
    process.env.SHEAF_PREBUILT_WORKERS = faults.dir;
  });
  afterAll(() => {
    if (builds === undefined) delete process.env.SHEAF_PREBUILT_WORKERS;
    else process.env.SHEAF_PREBUILT_WORKERS = builds;
    delete process.env[MERGE_WORKER_DIES];
    faults.remove();
  });

  // First, while no worker is kept warm: the pool keeps at most one per core.
  it('does not hand out a warm worker that died while waiting for the next merge', async () => {
    const merge = await input();
    let whileMaking = 0;
    expect(await names(merge, 'release', 1001, () => (whileMaking ||= threadCount()))).toEqual(ALL);
    // Both workers went back warm and exited there.
    await vi.waitFor(() => expect(threadCount()).toBeLessThanOrEqual(whileMaking - 2), { timeout: 10_000, interval: 20 });
    await new Promise((resolve) => setImmediate(resolve)); // their 'exit' reaches this thread on its next turn
    expect(await names(merge, undefined, 1001)).toEqual(ALL);
  }, 30_000);

  it.each<[MergeWorkerDeath, number]>([['exit', 1002], ['throw', 1003]])('fails the merge with merge/worker-failed when a worker %ss, and the next merge is whole', async (dies, maxMemoryMb) => {
    const merge = await input();
    const before = threadCount();
    await expect(names(merge, dies, maxMemoryMb)).rejects.toMatchObject({ code: 'merge/worker-failed' });
    // Both workers end (the one still alive too): none is left running or kept warm.
    await vi.waitFor(() => expect(threadCount()).toBeLessThanOrEqual(before), { timeout: 10_000, interval: 20 });
    expect(await names(merge, undefined, maxMemoryMb)).toEqual(ALL);
  }, 30_000);
});
