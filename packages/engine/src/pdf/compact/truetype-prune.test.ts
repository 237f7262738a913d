import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fontkit, { type Font } from '@pdf-lib/fontkit';
import { PDFDict, PDFDocument, PDFName, PDFRawStream, PDFRef, decodePDFRawStream } from 'pdf-lib';
import { afterAll, describe, expect, it } from 'vitest';
import { pruneTrueTypeGlyphs } from './truetype-prune.ts';

const require = createRequire(import.meta.url);
const dejavuFolder = path.join(path.dirname(require.resolve('dejavu-fonts-ttf/package.json')), 'ttf');
const dejavu = (file: string): Uint8Array => new Uint8Array(readFileSync(path.join(dejavuFolder, file)));
const systemFont = (file: string): Uint8Array | undefined =>
  existsSync(file) ? new Uint8Array(readFileSync(file)) : undefined;

const LIBERATION_SANS = '/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf';
const LIBERATION2_SERIF = '/usr/share/fonts/truetype/liberation2/LiberationSerif-Regular.ttf';
// Composite glyphs with scaled, x/y-scaled and 2x2-transformed components (DejaVu and Liberation have none).
const NOTO_SANS_MONO = '/usr/share/fonts/truetype/noto/NotoSansMono-Regular.ttf';
const CFF_OPENTYPE = '/usr/share/fonts/opentype/urw-base35/C059-Roman.otf';
const TRUETYPE_COLLECTION = '/usr/share/fonts/truetype/wqy/wqy-microhei.ttc';

const SENTENCE = 'Dear Ms Müller, your invoice No. 2024-17 (€ 1,250.00) is ready — Ä é ﬁ';

const work = mkdtempSync(path.join(tmpdir(), 'truetype-prune-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** fontkit's decoded glyf record (not in its published typings). */
interface DecodedGlyph {
  numberOfContours: number;
  components?: { glyphID: number }[];
}
const decoded = (font: Font, id: number): DecodedGlyph | null =>
  (font.getGlyph(id) as unknown as { _decode(): DecodedGlyph | null })._decode();

/** The glyph ids and every component they reference, transitively, read with fontkit. */
function withComponents(font: Font, ids: Iterable<number>): Set<number> {
  const kept = new Set<number>([0]);
  const pending = [0, ...ids];
  for (let id = pending.pop(); id !== undefined; id = pending.pop()) {
    kept.add(id);
    for (const component of decoded(font, id)?.components ?? []) {
      if (!kept.has(component.glyphID)) pending.push(component.glyphID);
    }
  }
  return kept;
}

const sentenceGlyphs = (font: Font, text: string): number[] => font.layout(text).glyphs.map((glyph) => glyph.id);

/** Every glyph of the pruned font draws as the original (kept) or draws nothing (not kept). */
function expectGlyphsPruned(original: Font, pruned: Font, kept: ReadonlySet<number>): void {
  for (let id = 0; id < pruned.numGlyphs; id++) {
    const before = original.getGlyph(id);
    const after = pruned.getGlyph(id);
    expect(after.advanceWidth, `advance of glyph ${id}`).toBe(before.advanceWidth);
    expect(after.path.toSVG(), `outline of glyph ${id}`).toBe(kept.has(id) ? before.path.toSVG() : '');
  }
}

interface TableRecord {
  tag: string;
  checksum: number;
  offset: number;
  length: number;
}

function tableDirectory(font: Uint8Array): TableRecord[] {
  const view = new DataView(font.buffer, font.byteOffset, font.byteLength);
  return Array.from({ length: view.getUint16(4) }, (_, i) => ({
    tag: String.fromCharCode(...font.subarray(12 + 16 * i, 16 + 16 * i)),
    checksum: view.getUint32(16 + 16 * i),
    offset: view.getUint32(20 + 16 * i),
    length: view.getUint32(24 + 16 * i),
  }));
}

const table = (font: Uint8Array, tag: string): TableRecord => tableDirectory(font).find((record) => record.tag === tag)!;

function wordSum(bytes: Uint8Array): number {
  const padded = new Uint8Array(Math.ceil(bytes.length / 4) * 4);
  padded.set(bytes);
  const view = new DataView(padded.buffer);
  let sum = 0;
  for (let at = 0; at < padded.length; at += 4) sum = (sum + view.getUint32(at)) >>> 0;
  return sum;
}

describe.each([
  { name: 'DejaVu Serif', bytes: dejavu('DejaVuSerif.ttf') },
  { name: 'DejaVu Sans', bytes: dejavu('DejaVuSans.ttf') },
  { name: 'Liberation Sans', bytes: systemFont(LIBERATION_SANS) },
  { name: 'Liberation Serif 2', bytes: systemFont(LIBERATION2_SERIF) },
])('$name: the glyphs of a sentence', ({ bytes }) => {
  it.skipIf(!bytes)('keep their outlines and widths under the same ids; the others are empty', () => {
    const original = fontkit.create(bytes!);
    const keep = sentenceGlyphs(original, SENTENCE);
    const kept = withComponents(original, keep);
    const pruned = pruneTrueTypeGlyphs(bytes!, keep)!;
    expect(pruned).toBeInstanceOf(Uint8Array);

    const reopened = fontkit.create(pruned);
    expect(reopened.numGlyphs).toBe(Math.max(...kept) + 1);
    expectGlyphsPruned(original, reopened, kept);
    expect(pruned.length).toBeLessThan(bytes!.length * 0.25);
  });
});

describe('composite glyphs', () => {
  it('keep their components (even those with higher ids) and draw as before', () => {
    const bytes = dejavu('DejaVuSerif.ttf');
    const original = fontkit.create(bytes);
    const aUmlaut = original.glyphForCodePoint('Ä'.codePointAt(0)!).id;
    const components = decoded(original, aUmlaut)!.components!.map((component) => component.glyphID);
    expect(decoded(original, aUmlaut)!.numberOfContours).toBeLessThan(0);
    expect(Math.max(...components)).toBeGreaterThan(aUmlaut);

    const pruned = fontkit.create(pruneTrueTypeGlyphs(bytes, [aUmlaut])!);
    expect(pruned.numGlyphs).toBe(Math.max(...components) + 1);
    expect(pruned.getGlyph(aUmlaut).path.toSVG()).not.toBe('');
    expectGlyphsPruned(original, pruned, new Set([0, aUmlaut, ...components]));
  });

  for (const { name, bytes } of [
    { name: 'DejaVu Sans (nested composites)', bytes: dejavu('DejaVuSans.ttf') },
    { name: 'Noto Sans Mono (scaled and transformed components)', bytes: systemFont(NOTO_SANS_MONO) },
  ]) {
    it.skipIf(!bytes)(`${name}: every composite glyph kept at once draws as before`, () => {
      const original = fontkit.create(bytes!);
      const composites: number[] = [];
      for (let id = 0; id < original.numGlyphs; id++) if ((decoded(original, id)?.numberOfContours ?? 0) < 0) composites.push(id);
      expect(composites.length).toBeGreaterThan(100);

      const pruned = fontkit.create(pruneTrueTypeGlyphs(bytes!, composites)!);
      for (const id of composites) expect(pruned.getGlyph(id).path.toSVG(), `glyph ${id}`).toBe(original.getGlyph(id).path.toSVG());
    });
  }
});

describe('the written font file', () => {
  const bytes = dejavu('DejaVuSerif.ttf');
  const pruned = pruneTrueTypeGlyphs(bytes, sentenceGlyphs(fontkit.create(bytes), SENTENCE))!;

  it('has only the tables a PDF reader needs, in tag order, with a correct directory header', () => {
    const records = tableDirectory(pruned);
    expect(records.map((record) => record.tag)).toEqual(['cvt ', 'fpgm', 'glyf', 'head', 'hhea', 'hmtx', 'loca', 'maxp', 'prep']);
    const view = new DataView(pruned.buffer);
    expect(view.getUint32(0)).toBe(0x00010000);
    expect([view.getUint16(6), view.getUint16(8), view.getUint16(10)]).toEqual([8 * 16, 3, 9 * 16 - 8 * 16]);
    for (const record of records) {
      expect(record.offset % 4).toBe(0);
      expect(record.offset + record.length).toBeLessThanOrEqual(pruned.length);
    }
    expect(view.getInt16(table(pruned, 'head').offset + 50)).toBe(1); // long loca
  });

  it('has correct table checksums and head.checkSumAdjustment', () => {
    for (const record of tableDirectory(pruned)) {
      const data = pruned.slice(record.offset, record.offset + record.length);
      if (record.tag === 'head') data.fill(0, 8, 12);
      expect(wordSum(data), record.tag).toBe(record.checksum);
    }
    expect(wordSum(pruned)).toBe(0xb1b0afba);
  });

  const python = ['python3', '/usr/bin/python3'].find(
    (candidate) => spawnSync(candidate, ['-c', 'import fontTools'], { stdio: 'ignore' }).status === 0,
  );
  it.skipIf(!python)('is read by fontTools with its checksums checked', () => {
    const file = path.join(work, 'pruned.ttf');
    writeFileSync(file, pruned);
    const script = 'import sys\nfrom fontTools.ttLib import TTFont\nf = TTFont(sys.argv[1], checkChecksums=2)\nf.ensureDecompiled()\nprint(f["maxp"].numGlyphs)';
    const result = spawnSync(python!, ['-c', script, file], { encoding: 'utf8' });
    expect(result.stderr).toBe('');
    expect(Number(result.stdout)).toBe(fontkit.create(pruned).numGlyphs);
  });
});

describe('fonts it cannot prune', () => {
  const bytes = dejavu('DejaVuSerif.ttf');
  const keep = sentenceGlyphs(fontkit.create(bytes), SENTENCE);
  const edited = (edit: (copy: Uint8Array, view: DataView) => void): Uint8Array => {
    const copy = bytes.slice();
    edit(copy, new DataView(copy.buffer));
    return copy;
  };

  it('are truncated, CFF-based, collections or not fonts at all', () => {
    const numTables = new DataView(bytes.buffer).getUint16(4);
    for (const length of [0, 11, 12 + 16 * numTables, 1000, bytes.length / 2]) {
      expect(pruneTrueTypeGlyphs(bytes.subarray(0, length), keep), `first ${length} bytes`).toBeUndefined();
    }
    expect(pruneTrueTypeGlyphs(edited((copy) => copy.set([0x4f, 0x54, 0x54, 0x4f])), keep)).toBeUndefined(); // OTTO
    expect(pruneTrueTypeGlyphs(edited((copy) => copy.set([0x74, 0x74, 0x63, 0x66])), keep)).toBeUndefined(); // ttcf
    for (const file of [CFF_OPENTYPE, TRUETYPE_COLLECTION]) {
      const real = systemFont(file);
      if (real) expect(pruneTrueTypeGlyphs(real, [1, 2, 3]), file).toBeUndefined();
    }
    let seed = 7;
    const random = (): number => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let i = 0; i < 50; i++) {
      const noise = Uint8Array.from({ length: Math.floor(random() * 5000) }, () => Math.floor(random() * 256));
      if (i % 2) noise.set([0, 1, 0, 0].slice(0, noise.length)); // a TrueType header over noise
      expect(pruneTrueTypeGlyphs(noise, keep)).toBeUndefined();
    }
  });

  it('have tables that contradict each other', () => {
    const loca = table(bytes, 'loca');
    const glyf = table(bytes, 'glyf');
    const hhea = table(bytes, 'hhea');
    const numGlyphs = new DataView(bytes.buffer).getUint16(table(bytes, 'maxp').offset + 4);
    const cases = {
      'a glyph past the end of glyf': edited((_, view) => view.setUint32(loca.offset + 4 * keep[1]! + 4, glyf.length + 4)),
      'loca going backwards': edited((_, view) => view.setUint32(loca.offset + 4 * keep[1]! + 4, 0)),
      'more horizontal metrics than glyphs': edited((_, view) => view.setUint16(hhea.offset + 34, numGlyphs + 1)),
      'a table past the end of the file': edited((_, view) => view.setUint32(20, bytes.length)),
      'a composite naming a glyph the font lacks': edited((_, view) => {
        const aUmlaut = fontkit.create(bytes).glyphForCodePoint('Ä'.codePointAt(0)!).id;
        view.setUint16(glyf.offset + view.getUint32(loca.offset + 4 * aUmlaut) + 12, numGlyphs);
      }),
    };
    for (const [name, font] of Object.entries(cases)) expect(pruneTrueTypeGlyphs(font, keep), name).toBeUndefined();
  });

  it('never make it throw, whatever bytes of the structure are damaged', () => {
    const glyf = table(bytes, 'glyf');
    let seed = 11;
    const random = (below: number): number => Math.floor((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31 * below);
    const structure = [0, ...['head', 'hhea', 'maxp', 'loca'].map((tag) => table(bytes, tag).offset), glyf.offset];
    for (let i = 0; i < 400; i++) {
      const damaged = edited((copy) => {
        for (let j = 0; j < 4; j++) copy[structure[random(structure.length)]! + random(600)] = random(256);
      });
      const result = pruneTrueTypeGlyphs(damaged, keep);
      if (result) expect(result).toBeInstanceOf(Uint8Array);
    }
  });
});

describe('in a PDF', () => {
  const text = 'Invoice 2024-17 for Ms Müller: € 1,250.00 — thank you!';
  const run = (command: string, args: string[]): Buffer => {
    const result = spawnSync(command, args);
    if (result.status !== 0) throw new Error(`${command} failed: ${result.stderr.toString()}`);
    return result.stdout;
  };

  async function pdfWithWholeFont(fontBytes: Uint8Array): Promise<Uint8Array> {
    const doc = await PDFDocument.create();
    doc.registerFontkit(fontkit);
    const font = await doc.embedFont(fontBytes, { subset: false });
    doc.addPage([420, 80]).drawText(text, { x: 12, y: 32, size: 16, font });
    return doc.save();
  }

  /** The PDF with each embedded TrueType program (FontFile2) replaced by `rewrite` of it. */
  async function rewriteFontPrograms(pdf: Uint8Array, rewrite: (program: Uint8Array) => Uint8Array): Promise<Uint8Array> {
    const doc = await PDFDocument.load(pdf);
    let rewritten = 0;
    for (const [, object] of doc.context.enumerateIndirectObjects()) {
      const ref = object instanceof PDFDict ? object.get(PDFName.of('FontFile2')) : undefined;
      if (!(ref instanceof PDFRef)) continue;
      const stream = doc.context.lookup(ref);
      if (!(stream instanceof PDFRawStream)) throw new Error('FontFile2 is not a stream');
      const program = rewrite(decodePDFRawStream(stream).decode());
      doc.context.assign(ref, doc.context.flateStream(program, { Length1: program.length }));
      rewritten++;
    }
    expect(rewritten).toBe(1);
    return doc.save();
  }

  it('shows the same text and the same pixels with the pruned font, at a fraction of the size', async () => {
    const fontBytes = dejavu('DejaVuSerif.ttf');
    const keep = sentenceGlyphs(fontkit.create(fontBytes), text);
    const whole = await pdfWithWholeFont(fontBytes);
    const pruned = await rewriteFontPrograms(whole, (program) => {
      expect(program).toEqual(fontBytes);
      return pruneTrueTypeGlyphs(program, keep)!;
    });
    expect(pruned.length).toBeLessThan(whole.length / 4);

    const views = [whole, pruned].map((pdf, i) => {
      const file = path.join(work, `doc-${i}.pdf`);
      writeFileSync(file, pdf);
      run('pdftoppm', ['-r', '50', '-gray', '-singlefile', file, path.join(work, `page-${i}`)]);
      return { text: run('pdftotext', [file, '-']).toString(), pixels: readFileSync(path.join(work, `page-${i}.pgm`)) };
    });
    expect(views[0]!.text).toContain('Müller');
    expect(views[1]!.text).toBe(views[0]!.text);
    expect(views[1]!.pixels.equals(views[0]!.pixels)).toBe(true);
    // The page is not blank: the glyphs are drawn.
    expect(views[1]!.pixels.some((value, i) => i > 20 && value < 128)).toBe(true);
  });
});
