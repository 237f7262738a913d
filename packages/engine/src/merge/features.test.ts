/**
 * What the template carries besides its page content must survive the merge: annotations (links,
 * notes), attachments, document information and XMP metadata, in separate and combined output.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { expectQpdfClean, fixture, mergeCombined, mergeSeparate, pageAnnotations, placeholder, run, scratch, table } from './test-support.ts';

const folder = scratch('features');
afterAll(() => folder.remove());

function request(name: string) {
  return { template: fixture(`corpus/${name}`), sheet: table(['Name'], [['FEATURE-A'], ['FEATURE-B']]), placeholders: [placeholder({ column: 'Name' })] };
}

async function outputs(name: string): Promise<{ separate: string; combined: string }> {
  const { documents } = await mergeSeparate(folder, request(name));
  const { file } = await mergeCombined(folder, request(name));
  expectQpdfClean(documents[0]!.file);
  expectQpdfClean(file);
  return { separate: documents[0]!.file, combined: file };
}

describe('template features kept', () => {
  it('attachments, in both outputs', async () => {
    const { separate, combined } = await outputs('attachment.pdf');
    for (const file of [separate, combined]) expect(run('qpdf', ['--list-attachments', file]).stdout).toMatch(/^rows\.csv ->/m);
  });

  it('document information and XMP metadata, in both outputs', async () => {
    const { separate, combined } = await outputs('metadata.pdf');
    for (const file of [separate, combined]) {
      const info = run('pdfinfo', [file]).stdout;
      expect(info).toMatch(/^Title:\s+Corpus metadata sample$/m);
      expect(info).toMatch(/^Author:\s+Sheaf corpus$/m);
      expect(info).toMatch(/^Metadata Stream:\s+yes$/m);
    }
  });

  it('link and note annotations in separate output', async () => {
    const { separate } = await outputs('annotations.pdf');
    expect(pageAnnotations(separate)).toEqual([['/Link', '/Text']]);
  });

  it('link and note annotations on every page of combined output', async () => {
    const { combined } = await outputs('annotations.pdf');
    expect(pageAnnotations(combined)).toEqual([['/Link', '/Text'], ['/Link', '/Text']]);
  });
});
