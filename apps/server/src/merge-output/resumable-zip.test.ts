/**
 * A resumable ZIP stopped anywhere goes on from its last checkpointed entry: a half-written document
 * and a torn journal line are cut off, the finished file passes `unzip -t` with every document once,
 * and a journal of another merge is not resumed.
 */
import { execFileSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { OutputDocument } from '@sheaf/engine';
import { journalOf, partialOf, readResumePoint, writeResumableZip, type ResumePoint } from './resumable-zip.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
function tempZip(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'sheaf-resumable-'));
  dirs.push(dir);
  return path.join(dir, 'merge.zip');
}

const shared = new TextEncoder().encode('%PDF-1.7 shared template bytes\n');
function documentOf(index: number): OutputDocument {
  const own = new TextEncoder().encode(`row ${index} `.repeat(1 + (index % 7)));
  return { index, fileName: `doc-${index}.pdf`, rowNumbers: [index + 2], chunks: [shared, own], byteLength: shared.length + own.length, sharedPrefixChunks: 1 };
}

/** Documents [from, to); with `stop`, a pause before document `after - 1` (a checkpoint follows it), then stopped at `after`. */
async function* documents(from: number, to: number, stop?: { after: number; controller: AbortController }): AsyncGenerator<OutputDocument> {
  for (let index = from; index < to; index++) {
    if (stop && index === stop.after - 1) await new Promise((resolve) => setTimeout(resolve, 300));
    if (stop && index === stop.after) stop.controller.abort(new Error('shutting down'));
    yield documentOf(index);
  }
}

const KEY = 'merge-1:1700000000000:40';
const modified = new Date('2026-03-04T05:06:08Z');

async function write(out: string, from: number, to: number, resume: ResumePoint, signal = new AbortController().signal, seen: number[] = []) {
  return writeResumableZip(out, documents(from, to), { key: KEY, modified, resume, signal, onProgress: () => undefined, onEntry: (document) => void seen.push(document.index) });
}

function entriesOf(zip: string): string[] {
  expect(execFileSync('unzip', ['-tq', zip], { encoding: 'utf8' })).toMatch(/No errors detected/);
  return execFileSync('unzip', ['-Z1', zip], { encoding: 'utf8' }).split('\n').filter(Boolean);
}

describe('resumable ZIP', () => {
  it('stopped mid-way, goes on from the checkpointed documents; a half-written entry and a torn journal line are cut off', async () => {
    const out = tempZip();
    const controller = new AbortController();
    const progress: number[] = [];
    await expect(
      writeResumableZip(out, documents(0, 40, { after: 12, controller }), { key: KEY, modified, resume: { entries: [], size: 0 }, signal: controller.signal, onProgress: (done) => progress.push(done) }),
    ).rejects.toThrow('shutting down');
    expect(progress.at(-1)).toBe(12);
    // As a crash mid-write leaves them: half a document after the last entry, half a journal line.
    appendFileSync(partialOf(out), Buffer.from('PK\u0003\u0004 half a header'));
    appendFileSync(journalOf(out), '{"index":13,"na');

    const resume = await readResumePoint(out, KEY);
    expect(resume.entries.map((entry) => entry.index)).toEqual(Array.from({ length: 12 }, (_, i) => i));
    expect(statSync(partialOf(out)).size).toBe(resume.size);
    const seen: number[] = [];
    const result = await write(out, 12, 40, resume, undefined, seen);
    expect(result.documents).toBe(40);
    // The per-document output hears of every document once, the resumed ones first.
    expect(seen).toEqual(Array.from({ length: 40 }, (_, i) => i));
    expect(entriesOf(out)).toEqual(Array.from({ length: 40 }, (_, i) => `doc-${i}.pdf`));
    expect(execFileSync('unzip', ['-p', out, 'doc-17.pdf']).toString()).toBe(Buffer.concat([shared, Buffer.from('row 17 '.repeat(4))]).toString());
    expect(existsSync(partialOf(out)) || existsSync(journalOf(out))).toBe(false);
    expect(readFileSync(out).length).toBe(result.bytes);
  });

  it('a finished ZIP leaves nothing to resume; a journal of another key is not resumed and its files go', async () => {
    const out = tempZip();
    await write(out, 0, 40, { entries: [], size: 0 });
    expect(await readResumePoint(out, KEY)).toEqual({ entries: [], size: 0 });

    const stop = new AbortController();
    await expect(
      writeResumableZip(out, documents(0, 40, { after: 5, controller: stop }), { key: KEY, modified, resume: { entries: [], size: 0 }, signal: stop.signal, onProgress: () => undefined }),
    ).rejects.toThrow();
    expect(await readResumePoint(out, 'merge-1:1700000000000:41')).toEqual({ entries: [], size: 0 });
    expect(existsSync(partialOf(out)) || existsSync(journalOf(out))).toBe(false);
  });
});
