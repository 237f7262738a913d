/**
 * `sheaf merge` output options, as a child process: --flatten, --repair, --placeholders-only,
 * --no-compress, --watermark, --fonts and --images. Each run is shared by the tests that look at it.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatErrorMessage } from '@sheaf/shared';
import { CUSTOM_FONT, FONTS_DIR, FORM_ROWS, IMAGE_ROWS, IMAGE_SIZE, IMAGES_DIR, PEOPLE, PEOPLE_FILES } from '../../../../scripts/fixtures/cli.ts';
import { filesIn, fixture, pageCount, pageSizes, pdfText, qpdfCheck, scratch, sheaf, textPlaceholder, tool, unzip, writeJson, type Run } from './test-support.ts';

const TEMPLATE = fixture('corpus/classic-xref.pdf');
const TEMPLATE_TEXT = 'CORPUS-CLASSIC-XREF';
const TEMPLATE_PAGES = 2;

let work: Awaited<ReturnType<typeof scratch>>;
let firstPlaceholder: string;

beforeAll(async () => {
  work = await scratch('options');
  firstPlaceholder = await writeJson(work.dir, 'first.json', [textPlaceholder('first', 'First', 0.5)]);
});

afterAll(async () => {
  await work?.remove();
});

/** Runs one merge into a fresh folder; `out` is the output's path. */
async function merge(name: string, template: string, data: string, options: string[], output: { out?: string; placeholders?: string } = {}) {
  const dir = await work.sub(name);
  const outPath = path.join(dir, output.out ?? `${name}.zip`);
  const run = await sheaf(['merge', template, data, '--placeholders', output.placeholders ?? firstPlaceholder, '--out', outPath, ...options]);
  return { dir, out: outPath, run };
}

/** The form fields qpdf sees, as [name, value]. */
function formFields(file: string): [string, string][] {
  const json = JSON.parse(tool('qpdf', ['--json', '--json-key=acroform', file]).stdout) as { acroform: { fields: { fullname: string; value: unknown }[] } };
  return json.acroform.fields.map((field) => [field.fullname, String(field.value ?? '')]);
}

// One concurrent root: every test's child processes overlap (two at a time, see test-support.ts).
describe.concurrent('sheaf merge options', () => {
  describe('on a template with form fields', () => {
    const data = fixture(FORM_ROWS.file);
    const template = fixture('corpus/acroform.pdf');

    it('fills fields named like a heading and keeps them editable by default', async ({ expect }) => {
      const { dir, out, run } = await merge('keep', template, data, []);
      expect(run.code, run.stderr).toBe(0);
      const names = unzip(out, path.join(dir, 'x'));
      expect(names).toEqual(['document-2.pdf', 'document-3.pdf']);
      FORM_ROWS.rows.forEach(([name, postcode, first], row) => {
        const file = path.join(dir, 'x', names[row]!);
        expect(qpdfCheck(file).code).toBe(0);
        const fields = new Map(formFields(file));
        expect(fields.get('name')).toContain(name);
        expect(fields.get('postcode')).toContain(postcode);
        expect(pdfText(file)).toContain(first);
      });
    });

    it('--flatten leaves no fields, but their values stay on the page', async ({ expect }) => {
      const { dir, out, run } = await merge('flatten', template, data, ['--flatten']);
      expect(run.code, run.stderr).toBe(0);
      const names = unzip(out, path.join(dir, 'x'));
      FORM_ROWS.rows.forEach((values, row) => {
        const file = path.join(dir, 'x', names[row]!);
        expect(qpdfCheck(file).code).toBe(0);
        expect(formFields(file)).toEqual([]);
        const text = pdfText(file);
        for (const value of values) expect(text).toContain(value);
      });
    });
  });

  describe('on a damaged template', () => {
    const damaged = fixture('corpus/damaged-wrong-offsets.pdf');

    it('refuses it without --repair, pointing at the option, and writes nothing', async ({ expect }) => {
      const { dir, run } = await merge('refused', damaged, fixture(PEOPLE_FILES.csv), []);
      expect(run.code).toBe(1);
      const [before, after] = formatErrorMessage('template/damaged').split('{detail}');
      expect(run.stderr.startsWith(`sheaf: ${before}`), run.stderr).toBe(true);
      expect(run.stderr.endsWith(`${after}\n`), run.stderr).toBe(true);
      expect(run.stderr.split('\n')).toHaveLength(2);
      expect(await filesIn(dir)).toEqual([]);
    });

    it('--repair makes clean documents with the template text and the values', async ({ expect }) => {
      const { dir, out, run } = await merge('repaired', damaged, fixture(PEOPLE_FILES.csv), ['--repair']);
      expect(run.code, run.stderr).toBe(0);
      const names = unzip(out, path.join(dir, 'x'));
      expect(names).toHaveLength(PEOPLE.length);
      PEOPLE.forEach(([, first], row) => {
        const file = path.join(dir, 'x', names[row]!);
        expect(qpdfCheck(file).code, qpdfCheck(file).stdout).toBe(0);
        const text = pdfText(file);
        expect(text).toContain('CORPUS-WRONG-OFFSETS');
        expect(text).toContain(first);
      });
    });
  });

  describe('--placeholders-only, --no-compress, --watermark', () => {
    // A: values alone on blank pages, content left uncompressed. B: the template, a watermark, defaults.
    // A QR code makes the added content longer than the 1 KB below which the engine never compresses.
    let blank: { out: string; run: Run };
    let watermarked: { out: string; run: Run };
    beforeAll(async () => {
      const placeholders = await writeJson(work.dir, 'first-qr.json', [
        textPlaceholder('first', 'First', 0.9, { relativeX: 0.6, relativeWidth: 0.35 }), // bottom right, off the watermark's diagonal
        { id: 'qr', type: 'qrcode', column: 'City', pageNumber: 1, relativeX: 0.05, relativeY: 0.1, relativeWidth: 0.15, relativeHeight: 0.15 },
      ]);
      [blank, watermarked] = await Promise.all([
        merge('blank', TEMPLATE, fixture(PEOPLE_FILES.csv), ['--combined', '--placeholders-only', '--no-compress'], { out: 'blank.pdf', placeholders }),
        merge('watermark', TEMPLATE, fixture(PEOPLE_FILES.csv), ['--combined', '--watermark', 'DRAFT COPY'], { out: 'watermark.pdf', placeholders }),
      ]);
      expect(blank.run.code, blank.run.stderr).toBe(0);
      expect(watermarked.run.code, watermarked.run.stderr).toBe(0);
    });

    it('--placeholders-only: pages of the template size holding only the values', async ({ expect }) => {
      expect(qpdfCheck(blank.out).code).toBe(0);
      expect(pageCount(blank.out)).toBe(PEOPLE.length * TEMPLATE_PAGES);
      expect(new Set(pageSizes(blank.out))).toEqual(new Set(pageSizes(TEMPLATE)));
      const text = pdfText(blank.out);
      expect(text).not.toContain(TEMPLATE_TEXT);
      PEOPLE.forEach(([, first], row) => expect(pdfText(blank.out, { page: row * TEMPLATE_PAGES + 1 })).toContain(first));
    });

    it('--no-compress leaves the added content readable in the file; by default it is compressed', async ({ expect }) => {
      const [plain, compressed] = await Promise.all([readFile(blank.out, 'latin1'), readFile(watermarked.out, 'latin1')]);
      for (const [, first] of PEOPLE) {
        expect(plain).toContain(`(${first}) Tj`);
        expect(compressed).not.toContain(`(${first}) Tj`);
      }
    });

    it('--watermark stamps the text on every page', async ({ expect }) => {
      expect(qpdfCheck(watermarked.out).code).toBe(0);
      const pages = pageCount(watermarked.out);
      expect(pages).toBe(PEOPLE.length * TEMPLATE_PAGES);
      for (let page = 1; page <= pages; page++) {
        // Drawn along the diagonal, so pdftotext splits it into pieces: compare without white space.
        const text = pdfText(watermarked.out, { page }).replace(/\s+/g, '');
        expect(text, `page ${page}`).toContain('DRAFTCOPY');
        expect(text, `page ${page}`).toContain(TEMPLATE_TEXT);
      }
      expect(pdfText(blank.out).replace(/\s+/g, '')).not.toContain('DRAFTCOPY');
    });
  });

  describe('--fonts and --images', () => {
    let dir: string;
    let extracted: string;
    let out: string;
    let run: Run;
    let entries: string[];
    beforeAll(async () => {
      const placeholders = await writeJson(work.dir, 'font-image.json', [
        textPlaceholder('first', 'First', 0.2, { fontFamily: CUSTOM_FONT }),
        { id: 'picture', type: 'image', column: 'Picture', pageNumber: 1, relativeX: 0.1, relativeY: 0.4, relativeWidth: 0.3, relativeHeight: 0.2 },
      ]);
      dir = await work.sub('font-image');
      out = path.join(dir, 'out.zip');
      run = await sheaf(['merge', TEMPLATE, fixture(IMAGE_ROWS.file), '--placeholders', placeholders, '--out', out, '--fonts', fixture(FONTS_DIR), '--images', fixture(IMAGES_DIR)]);
      extracted = await work.sub('font-image-unzipped');
      entries = run.code === 3 ? unzip(out, extracted) : [];
    });

    it('a row naming a missing image is skipped with its reason (exit 3); the other rows are in the zip', async ({ expect }) => {
      expect(run.code).toBe(3);
      const skipped = formatErrorMessage('merge/image-missing', { row: IMAGE_ROWS.missingRow, image: IMAGE_ROWS.missing });
      expect(run.stderr).toContain(`\nsheaf: skipped: ${skipped}\n`);
      expect(run.stderr).toContain(`2 documents -> ${out}`);
      expect(await filesIn(dir)).toEqual(['out.zip']);
      expect(tool('unzip', ['-t', out]).code).toBe(0);
      expect(entries).toEqual(['document-2.pdf', 'document-4.pdf']);
    });

    it('draws the image a cell names, at its own size', async ({ expect }) => {
      expect(entries).toHaveLength(2);
      for (const name of entries) {
        const file = path.join(extracted, name);
        expect(qpdfCheck(file).code).toBe(0);
        const images = tool('pdfimages', ['-list', file]).stdout.split('\n').slice(2).filter(Boolean);
        expect(images, name).toHaveLength(1);
        expect(images[0]!.split(/\s+/).slice(3, 6), name).toEqual(['image', String(IMAGE_SIZE.width), String(IMAGE_SIZE.height)]);
      }
    });

    it('embeds the font fontFamily names from the --fonts folder', async ({ expect }) => {
      expect(entries).toEqual(['document-2.pdf', 'document-4.pdf']);
      for (const [name, first] of [['document-2.pdf', 'Ann'], ['document-4.pdf', 'Cid']] as const) {
        const file = path.join(extracted, name);
        const font = tool('pdffonts', [file]).stdout.split('\n').find((line) => line.includes(`+${CUSTOM_FONT} `));
        expect(font, name).toBeDefined();
        expect(font!.split(/\s+/).slice(-5, -2), name).toEqual(['yes', 'yes', 'yes']); // embedded, subset, ToUnicode
        expect(pdfText(file)).toContain(first);
      }
    });
  });
});
