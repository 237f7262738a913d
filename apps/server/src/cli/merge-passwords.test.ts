/**
 * `sheaf merge` and passwords: per-row read passwords from a column tag, a modify password, and
 * encrypted templates unlocked with --template-password. Checked with qpdf and pdftotext.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { formatErrorMessage } from '@sheaf/shared';
import { IMAGE_ROWS, IMAGES_DIR, MANY_ROWS, PEOPLE, PEOPLE_FILES } from '../../../../scripts/fixtures/cli.ts';
import { PAGE_TEXTS, USER_PASSWORD } from '../../../../scripts/fixtures/encrypted.ts';
import { filesIn, fixture, pdfText, qpdfCheck, scratch, sheaf, textPlaceholder, tool, unzip, writeJson } from './test-support.ts';

const TEMPLATE = fixture('corpus/classic-xref.pdf');
const ENCRYPTED_TEMPLATE = fixture('encrypted-aes-256.pdf');
const MODIFY_PASSWORD = 'Boss#1(x)';

let work: Awaited<ReturnType<typeof scratch>>;
let placeholders: string;

beforeAll(async () => {
  work = await scratch('passwords');
  placeholders = await writeJson(work.dir, 'first.json', [textPlaceholder('first', 'First', 0.3)]);
});

afterAll(async () => {
  await work?.remove();
});

/** Runs a separate-documents merge of the people into a fresh folder; returns the run and the extracted PDFs. */
async function mergePeople(name: string, options: string[], template = TEMPLATE) {
  const dir = await work.sub(name);
  const out = path.join(dir, `${name}.zip`);
  const run = await sheaf(['merge', template, fixture(PEOPLE_FILES.csv), '--placeholders', placeholders, '--out', out, '--file-name', '{{First}}', ...options]);
  const files = run.code === 0 ? unzip(out, path.join(dir, 'x')).map((entry) => path.join(dir, 'x', entry)) : [];
  return { dir, run, files };
}

function encryption(file: string, password?: string): string {
  return tool('qpdf', [...(password === undefined ? [] : [`--password=${password}`]), '--show-encryption', file]).stdout;
}

// One concurrent root: every test's child processes overlap (two at a time, see test-support.ts).
describe.concurrent('sheaf merge passwords', () => {
  describe('--password-read / --password-modify', () => {
    it('a column tag gives each PDF its own read password; the modify password opens every one', async ({ expect }) => {
      const { run, files } = await mergePeople('read', ['--password-read', '{{Pass}}', '--password-modify', MODIFY_PASSWORD]);

      expect(run.code, run.stderr).toBe(0);
      expect(files.map((file) => path.basename(file))).toEqual(PEOPLE.map(([, first]) => `${first}.pdf`));
      PEOPLE.forEach(([, first, , , , password], row) => {
        const file = files[row]!;
        const withoutPassword = qpdfCheck(file);
        expect(withoutPassword.code, first).not.toBe(0);
        expect(withoutPassword.stderr).toContain('invalid password');
        for (const [, , , , , otherPassword] of PEOPLE.filter((_, index) => index !== row)) expect(qpdfCheck(file, otherPassword).code, first).not.toBe(0);
        expect(qpdfCheck(file, password).code, first).toBe(0);
        expect(qpdfCheck(file, MODIFY_PASSWORD).code, first).toBe(0);
        expect(pdfText(file, { password })).toContain(first);
        // AES-256, as the README promises.
        expect(encryption(file, password)).toContain('file encryption method: AESv3');
        expect(encryption(file, MODIFY_PASSWORD)).toContain('Supplied password is owner password');
      });
    });

    it('--password-modify alone: the PDF opens freely but changes need the password', async ({ expect }) => {
      const { run, files } = await mergePeople('modify', ['--password-modify', MODIFY_PASSWORD]);

      expect(run.code, run.stderr).toBe(0);
      expect(files).toHaveLength(PEOPLE.length);
      for (const file of files) {
        expect(qpdfCheck(file).code).toBe(0);
        expect(pdfText(file)).toContain(path.basename(file, '.pdf'));
        const anyone = encryption(file);
        expect(anyone).toContain('User password = \n');
        expect(anyone).toContain('modify anything: not allowed');
        expect(encryption(file, MODIFY_PASSWORD)).toContain('Supplied password is owner password');
      }
    });

    it('refuses a password with a space, before writing anything', async ({ expect }) => {
      const { dir, run } = await mergePeople('space', ['--password-read', 'open sesame']);

      expect(run.code).toBe(1);
      expect(run.stderr).toBe(`sheaf: ${formatErrorMessage('merge/password-invalid')}\n`);
      expect(await filesIn(dir)).toEqual([]);
    });

    it('refuses per-row passwords in one combined PDF; a fixed password protects it', async ({ expect }) => {
      const dir = await work.sub('combined');
      const base = ['merge', TEMPLATE, fixture(PEOPLE_FILES.csv), '--placeholders', placeholders, '--combined'];
      const tagged = path.join(dir, 'tagged.pdf');
      const fixed = path.join(dir, 'fixed.pdf');
      const [withTag, withFixed] = await Promise.all([
        sheaf([...base, '--out', tagged, '--password-read', '{{Pass}}']),
        sheaf([...base, '--out', fixed, '--password-read', 'Secret42']),
      ]);

      expect(withTag.code).toBe(1);
      expect(withTag.stderr).toBe(`sheaf: ${formatErrorMessage('merge/password-tags-combined')}\n`);
      expect(withFixed.code, withFixed.stderr).toBe(0);
      expect(await filesIn(dir)).toEqual(['fixed.pdf']);
      expect(qpdfCheck(fixed).code).not.toBe(0);
      expect(qpdfCheck(fixed, 'Secret42').code).toBe(0);
      const text = pdfText(fixed, { password: 'Secret42' });
      for (const [, first] of PEOPLE) expect(text).toContain(first);
    });
  });

  describe('with per-row passwords over many rows (worker threads)', () => {
    it('documents stay in sheet order, each opening only with its own password; the skipped row is reported once', async ({ expect }) => {
      const dir = await work.sub('many');
      const out = path.join(dir, 'many.zip');
      const withImage = await writeJson(dir, 'first-image.json', [
        textPlaceholder('first', 'First', 0.3),
        { id: 'picture', type: 'image', column: 'Picture', pageNumber: 1, relativeX: 0.1, relativeY: 0.5, relativeWidth: 0.2, relativeHeight: 0.1 },
      ]);
      const run = await sheaf(['merge', TEMPLATE, fixture(MANY_ROWS.file), '--placeholders', withImage, '--out', out,
        '--file-name', '{{First}}', '--password-read', '{{Pass}}', '--images', fixture(IMAGES_DIR)]);

      expect(run.code, run.stderr).toBe(3);
      const skipped = formatErrorMessage('merge/image-missing', { row: MANY_ROWS.missingRow, image: IMAGE_ROWS.missing });
      expect(run.stderr.split('\n').filter((line) => line.startsWith('sheaf: '))).toEqual([`sheaf: skipped: ${skipped}`]);
      expect(tool('unzip', ['-t', out]).code).toBe(0);
      const rows = Array.from({ length: MANY_ROWS.count }, (_, index) => index + 2).filter((row) => row !== MANY_ROWS.missingRow);
      const names = unzip(out, path.join(dir, 'x'));
      expect(names).toEqual(rows.map((row) => `P${row}.pdf`));
      rows.forEach((row, index) => {
        const file = path.join(dir, 'x', names[index]!);
        if (index % 10 === 0) expect(qpdfCheck(file).code, names[index]).not.toBe(0);
        expect(qpdfCheck(file, `Pw${row}`).code, names[index]).toBe(0);
        expect(pdfText(file, { password: `Pw${row}` })).toContain(`P${row}`);
      });
    });
  });

  describe('--template-password', () => {
    it('unlocks an encrypted template; the outputs carry no password of their own', async ({ expect }) => {
      const { run, files } = await mergePeople('unlocked', ['--template-password', USER_PASSWORD], ENCRYPTED_TEMPLATE);

      expect(run.code, run.stderr).toBe(0);
      expect(files).toHaveLength(PEOPLE.length);
      PEOPLE.forEach(([, first], row) => {
        const file = files[row]!;
        expect(qpdfCheck(file).code, first).toBe(0);
        expect(encryption(file)).toContain('File is not encrypted');
        const text = pdfText(file);
        expect(text).toContain(PAGE_TEXTS[0]);
        expect(text).toContain(first);
      });
    });

    it('a wrong password: exit 1, "Wrong password", no output', async ({ expect }) => {
      const { dir, run } = await mergePeople('wrong', ['--template-password', 'Read2025'], ENCRYPTED_TEMPLATE);

      expect(run.code).toBe(1);
      expect(run.stderr).toBe('sheaf: Wrong password\n');
      expect(await filesIn(dir)).toEqual([]);
    });

    it('a template that only restricts changes (no open password) needs no --template-password', async ({ expect }) => {
      const { run, files } = await mergePeople('owner-only', [], fixture('encrypted-owner-only-aes-256.pdf'));

      expect(run.code, run.stderr).toBe(0);
      expect(files).toHaveLength(PEOPLE.length);
      for (const file of files) expect(pdfText(file)).toContain(PAGE_TEXTS[0]);
    });

    it('no --template-password for a protected template asks for the password', async ({ expect }) => {
      const { dir, run } = await mergePeople('missing', [], ENCRYPTED_TEMPLATE);

      expect(await filesIn(dir)).toEqual([]);
      expect(run.code).toBe(1);
      expect(run.stderr).toBe(`sheaf: ${formatErrorMessage('template/encrypted')}\n`);
    });
  });
});
