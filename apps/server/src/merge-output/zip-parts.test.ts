/** Parts written apart and concatenated with their central directory make one valid ZIP (unzip reads it). */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, appendFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { OutputDocument } from '@sheaf/engine';
import { centralDirectory, writeZipPart, type PartManifest } from './zip-parts.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
function tempDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'sheaf-zip-parts-'));
  dirs.push(dir);
  return dir;
}

const shared = new TextEncoder().encode('%PDF-1.7 shared template bytes\n');
/** Document `index`: a shared prefix, then bytes of its own (different lengths, so offsets differ). */
function documentOf(index: number, name = `doc-${index}.pdf`): OutputDocument {
  const own = new TextEncoder().encode(`row ${index} `.repeat(1 + (index % 7)));
  return { index, fileName: name, rowNumbers: [index + 2], chunks: [shared, own], byteLength: shared.length + own.length, sharedPrefixChunks: 1 };
}

/** Writes the parts (documents [from, to) each) to files, then the ZIP as their concatenation and the directory. */
async function zipOfParts(dir: string, ranges: Array<[number, number]>, docOf = documentOf): Promise<{ zip: string; manifests: PartManifest[] }> {
  const modified = new Date('2026-03-04T05:06:08Z');
  const manifests: PartManifest[] = [];
  // Made out of order, as workers would: only the assembly order matters.
  const order = ranges.map((_, i) => i).reverse();
  const files: string[] = [];
  for (const i of order) {
    const [from, to] = ranges[i]!;
    files[i] = path.join(dir, `part-${i}`);
    manifests[i] = await writeZipPart(files[i]!, Array.from({ length: to - from }, (_, k) => docOf(from + k)), modified);
  }
  const zip = path.join(dir, 'out.zip');
  writeFileSync(zip, new Uint8Array());
  for (const file of files) appendFileSync(zip, readFileSync(file));
  appendFileSync(zip, centralDirectory(manifests));
  return { zip, manifests };
}

describe('ZIP parts', () => {
  it('parts made apart and assembled are one ZIP whose entries read back byte for byte', async () => {
    const dir = tempDir();
    const { zip, manifests } = await zipOfParts(dir, [[0, 4], [4, 5], [5, 12]]);
    expect(manifests.map((m) => m.entries.length)).toEqual([4, 1, 7]);
    // A part's size is what its file holds.
    expect(manifests[0]!.size).toBe(readFileSync(path.join(dir, 'part-0')).length);
    execFileSync('unzip', ['-tq', zip]);
    const listing = execFileSync('unzip', ['-Z1', zip], { encoding: 'utf8' }).trim().split('\n');
    expect(listing).toEqual(Array.from({ length: 12 }, (_, i) => `doc-${i}.pdf`));
    for (const i of [0, 3, 4, 5, 11]) {
      const bytes = execFileSync('unzip', ['-p', zip, `doc-${i}.pdf`]);
      const expected = documentOf(i);
      expect(Buffer.compare(bytes, Buffer.concat(expected.chunks))).toBe(0);
    }
  });

  it('an empty part (every document of a range skipped) adds nothing', async () => {
    const dir = tempDir();
    const { zip } = await zipOfParts(dir, [[0, 2], [2, 2], [2, 3]]);
    execFileSync('unzip', ['-tq', zip]);
    expect(execFileSync('unzip', ['-Z1', zip], { encoding: 'utf8' }).trim().split('\n')).toEqual(['doc-0.pdf', 'doc-1.pdf', 'doc-2.pdf']);
  });

  it('names in UTF-8 survive', async () => {
    const dir = tempDir();
    const { zip } = await zipOfParts(dir, [[0, 1], [1, 2]], (i) => documentOf(i, i ? 'Zoë – 李.pdf' : 'Ärger.pdf'));
    execFileSync('unzip', ['-tq', zip]);
    expect(execFileSync('unzip', ['-Z1', zip], { encoding: 'utf8' }).trim().split('\n')).toEqual(['Ärger.pdf', 'Zoë – 李.pdf']);
  });

  it('more than 65,535 entries: ZIP64 end records, every entry listed', async () => {
    const dir = tempDir();
    const count = 70_000;
    const { zip } = await zipOfParts(dir, [[0, 30_000], [30_000, count]], (i) => ({
      index: i, fileName: `${i}.pdf`, rowNumbers: [i + 2], chunks: [new TextEncoder().encode(`${i}`)], byteLength: `${i}`.length, sharedPrefixChunks: 0,
    }));
    const bytes = readFileSync(zip);
    // The ZIP64 end record's signature is there (the classic record cannot count past 65,535).
    expect(bytes.includes(Buffer.from([0x50, 0x4b, 0x06, 0x06]))).toBe(true);
    execFileSync('unzip', ['-tq', zip], { maxBuffer: 64 * 1024 * 1024 });
    const listing = execFileSync('unzip', ['-Z1', zip], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 }).trim().split('\n');
    expect(listing.length).toBe(count);
    expect(listing[count - 1]).toBe(`${count - 1}.pdf`);
    expect(execFileSync('unzip', ['-p', zip, '69999.pdf'], { encoding: 'utf8' })).toBe('69999');
  }, 60_000);
});
