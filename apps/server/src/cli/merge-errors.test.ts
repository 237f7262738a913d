/**
 * `sheaf merge` refusing bad input, as a child process: one line on stderr, "sheaf: " and the
 * catalogue's text, exit 1 (usage errors: exit 2), and never an OUT file (or its .partial) left behind.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, it, type ExpectStatic } from 'vitest';
import { formatErrorMessage, type ErrorCode, type ErrorParams } from '@sheaf/shared';
import { MAX_ROWS, PEOPLE_FILES, QR_TOO_LONG, TOO_MANY_ROWS } from '../../../../scripts/fixtures/cli.ts';
import { filesIn, fixture, scratch, sheaf, textPlaceholder, writeJson, type Run } from './test-support.ts';

const TEMPLATE = fixture('corpus/classic-xref.pdf');
const PEOPLE_CSV = fixture(PEOPLE_FILES.csv);

let work: Awaited<ReturnType<typeof scratch>>;
let firstPlaceholder: string;

beforeAll(async () => {
  work = await scratch('errors');
  firstPlaceholder = await writeJson(work.dir, 'first.json', [textPlaceholder('first', 'First', 0.3)]);
});

afterAll(async () => {
  await work?.remove();
});

interface Attempt {
  template?: string;
  data?: string;
  placeholders?: string;
  out?: string;
  options?: string[];
}

/** Runs a merge writing into a fresh, empty folder; returns the run and what the folder holds after it. */
async function attempt(name: string, { template = TEMPLATE, data = PEOPLE_CSV, placeholders = firstPlaceholder, out = 'out.zip', options = [] }: Attempt) {
  const dir = await work.sub(name);
  const run = await sheaf(['merge', template, data, '--placeholders', placeholders, '--out', path.join(dir, out), ...options]);
  return { run, left: await filesIn(dir) };
}

const line = (code: ErrorCode, params?: ErrorParams) => `sheaf: ${formatErrorMessage(code, params)}\n`;

/** A refusal: exactly one line on stderr, exit 1, nothing written. */
function expectRefused({ run, left }: { run: Run; left: string[] }, stderr: string, expect: ExpectStatic): void {
  expect(run.stderr).toBe(stderr);
  expect(run.code).toBe(1);
  expect(left).toEqual([]);
}

// One concurrent root: every test's child processes overlap (two at a time, see test-support.ts).
describe.concurrent('sheaf merge bad input', () => {
  describe('refuses bad input with the catalogue message and exit 1', () => {
    it('a placeholder column the sheet does not have', async ({ expect }) => {
      const placeholders = await writeJson(work.dir, 'phone.json', [textPlaceholder('phone', 'Phone', 0.3)]);
      expectRefused(await attempt('column', { placeholders }), line('merge/missing-column', { column: 'Phone', name: 'phone' }), expect);
    });

    it('a row selection with no data row in it', async ({ expect }) => {
      expectRefused(await attempt('rows', { options: ['--rows', '40-50'] }), line('merge/bad-row-range', { rows: '40-50', first: 2, last: 4 }), expect);
    });

    it('a PDF given as the spreadsheet', async ({ expect }) => {
      expectRefused(await attempt('pdf-data', { data: TEMPLATE }), line('sheet/wrong-type'), expect);
    });

    it('a CSV given as the template', async ({ expect }) => {
      expectRefused(await attempt('csv-template', { template: PEOPLE_CSV }), 'sheaf: Incorrect file type. Please upload a PDF or a word-processor document (.docx, .doc, .odt, .rtf or .txt).\n', expect);
    });

    it('a template file that does not exist', async ({ expect }) => {
      const missing = path.join(work.dir, 'nowhere.pdf');
      expectRefused(await attempt('no-template', { template: missing }), line('generic/invalid-input', { detail: `cannot read ${missing}` }), expect);
    });

    it('more than 100,000 data rows; exactly 100,000 are accepted', async ({ expect }) => {
      const placeholders = await writeJson(work.dir, 'name.json', [textPlaceholder('name', 'Name', 0.3)]);
      const [tooMany, atLimit] = await Promise.all([
        attempt('too-many', { data: fixture(TOO_MANY_ROWS), placeholders }),
        attempt('at-limit', { data: fixture(MAX_ROWS), placeholders, options: ['--rows', '2-3'] }),
      ]);
      expectRefused(tooMany, line('sheet/too-many-rows', { max: 100_000 }), expect);
      expect(atLimit.run.code, atLimit.run.stderr).toBe(0);
      expect(atLimit.run.stderr).toMatch(/^2 documents -> /);
      expect(atLimit.left).toEqual(['out.zip']);
    });

    it('a placeholders file that is not JSON', async ({ expect }) => {
      expectRefused(await attempt('not-json', { placeholders: PEOPLE_CSV }), line('generic/invalid-input', { detail: `${PEOPLE_CSV} is not valid JSON` }), expect);
    });

    it('a placeholder outside the page, naming the faulty field', async ({ expect }) => {
      const placeholders = await writeJson(work.dir, 'outside.json', [textPlaceholder('first', 'First', 0.3, { relativeX: 2 })]);
      const { run, left } = await attempt('outside', { placeholders });
      expect(run.code).toBe(1);
      expect(run.stderr.startsWith(line('generic/invalid-input', { detail: `${placeholders}: 0.relativeX: ` }).trimEnd()), run.stderr).toBe(true);
      expect(run.stderr.split('\n')).toHaveLength(2);
      expect(left).toEqual([]);
    });

    it('--out that does not match the output kind', async ({ expect }) => {
      const [pdfWithoutCombined, zipWithCombined] = await Promise.all([
        attempt('pdf-out', { out: 'out.pdf' }),
        attempt('zip-out', { out: 'out.zip', options: ['--combined'] }),
      ]);
      expectRefused(pdfWithoutCombined, line('generic/invalid-input', { detail: '--out must end in .zip (one PDF per row), or use --combined with a .pdf' }), expect);
      expectRefused(zipWithCombined, line('generic/invalid-input', { detail: '--out must end in .pdf with --combined' }), expect);
    });

    it('a QR code text too long for any QR code skips that row only, naming it', async ({ expect }) => {
      const placeholders = await writeJson(work.dir, 'qr.json', [
        { id: 'qr', type: 'qrcode', column: 'Code', pageNumber: 1, relativeX: 0.1, relativeY: 0.5, relativeWidth: 0.3, relativeHeight: 0.3 },
      ]);
      const { run, left } = await attempt('qr', { data: fixture(QR_TOO_LONG.file), placeholders });
      expect(run.code).toBe(3);
      expect(run.stderr).toMatch(new RegExp(`\\nsheaf: skipped: Row 4: The text is too long for a QR code \\(${QR_TOO_LONG.length.toLocaleString('en-US')} characters; .*\\)\\.\\n$`));
      expect(left).toEqual(['out.zip']);
    });

    it('an over-long watermark gets one clear line', async ({ expect }) => {
      const { run, left } = await attempt('watermark', { options: ['--watermark', 'W'.repeat(201)] });
      expect(left).toEqual([]);
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(/^sheaf: The request is not valid: --watermark: .+\n$/);
    });
  });

  describe('usage errors exit 2', () => {
    it('a missing required option', async ({ expect }) => {
      const dir = await work.sub('usage');
      const run = await sheaf(['merge', TEMPLATE, PEOPLE_CSV, '--placeholders', firstPlaceholder], dir);
      expect(run.stderr).toContain("required option '--out <file>' not specified");
      expect(await filesIn(dir)).toEqual([]);
      expect(run.code).toBe(2);
    });

    it('an unknown option', async ({ expect }) => {
      const { run, left } = await attempt('unknown', { options: ['--colour', 'red'] });
      expect(run.stderr).toContain("unknown option '--colour'");
      expect(left).toEqual([]);
      expect(run.code).toBe(2);
    });
  });
});
