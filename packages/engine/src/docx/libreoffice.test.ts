/**
 * A real producer's DOCX: LibreOffice converts a flat ODT written here (a tag it splits over runs
 * by formatting, a header, a table, a database field it writes as a complex MERGEFIELD, a section
 * and a repeated row); the engine
 * fills it, and LibreOffice opens the filled document and prints it to PDF, where pdftotext finds
 * the row's values. Skipped, saying why, where LibreOffice or pdftotext is not installed.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { sheetFromTable } from '../sheet/table.ts';
import { listDocxFields, prepareDocx } from './prepare.ts';

const SOFFICE = '/usr/bin/soffice';
const PDFTOTEXT = '/usr/bin/pdftotext';
const available = existsSync(SOFFICE) && existsSync(PDFTOTEXT);
if (!available) console.warn(`libreoffice.test.ts skipped: ${SOFFICE} or ${PDFTOTEXT} is not installed`);

const FODT = `<?xml version="1.0" encoding="UTF-8"?>
<office:document xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"
 xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0"
 xmlns:fo="urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0" office:version="1.2" office:mimetype="application/vnd.oasis.opendocument.text">
<office:automatic-styles><style:style style:name="B" style:family="text"><style:text-properties fo:font-weight="bold"/></style:style></office:automatic-styles>
<office:master-styles><style:master-page style:name="Standard"><style:header><text:p>Header for {{Name}}</text:p></style:header></style:master-page></office:master-styles>
<office:body><office:text>
<text:p>Dear <text:span text:style-name="B">{{Na</text:span>me}}, your code is {{Code}}.</text:p>
<text:p>Field: <text:database-display text:table-name="t" text:table-type="table" text:column-name="Code" text:database-name="db">&lt;Code&gt;</text:database-display></text:p>
<table:table table:name="T"><table:table-column table:number-columns-repeated="2"/><table:table-row><table:table-cell><text:p>City</text:p></table:table-cell><table:table-cell><text:p>{{City}}</text:p></table:table-cell></table:table-row></table:table>
<text:p>{{#if VIP}}</text:p><text:p>Gold member since {{City}}</text:p><text:p>{{/if}}</text:p>
<table:table table:name="Items"><table:table-column table:number-columns-repeated="2"/><table:table-row><table:table-cell><text:p>Item</text:p></table:table-cell><table:table-cell><text:p>Price</text:p></table:table-cell></table:table-row>
<table:table-row><table:table-cell><text:p>{{#each}}{{Item}}</text:p></table:table-cell><table:table-cell><text:p>{{Price}}</text:p></table:table-cell></table:table-row></table:table>
</office:text></office:body></office:document>
`;

const work = available ? mkdtempSync(join(tmpdir(), 'sheaf-docx-lo-')) : '';
afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

/** Converts `file` in the work folder to `format` with a fresh profile; returns the output's path. */
function convert(file: string, format: string): string {
  execFileSync(SOFFICE, [`-env:UserInstallation=file://${join(work, 'profile')}`, '--headless', '--norestore', '--convert-to', format, '--outdir', work, join(work, file)], {
    timeout: 120_000,
    stdio: 'pipe',
  });
  const output = join(work, file.replace(/\.[^.]+$/, `.${format}`));
  expect(existsSync(output), `LibreOffice wrote ${output}`).toBe(true);
  return output;
}

describe.skipIf(!available)('Word templates made and opened by LibreOffice', () => {
  it('fills a LibreOffice DOCX (split tag, header, table, MERGEFIELD, a section, a repeated row for a group) and the result prints with the rows\' values', { timeout: 240_000 }, () => {
    writeFileSync(join(work, 'letter.fodt'), FODT);
    const template = new Uint8Array(readFileSync(convert('letter.fodt', 'docx')));
    expect(listDocxFields(template).map((field) => `${field.kind}:${field.column}`).sort()).toEqual([
      'if:VIP', 'mergefield:Code', 'tag:City', 'tag:Code', 'tag:Item', 'tag:Name', 'tag:Price',
    ]);

    const sheet = sheetFromTable(['Name', 'Code', 'City', 'VIP', 'Item', 'Price'], [
      ['Zoë Ångström', 'QX-4711', 'Reykjavík', 'yes', 'Fountain pen', '12.50'],
      ['Other Person', 'ZZ-0000', 'Elsewhere', '', 'Nothing', '0'],
      ['Zoë Ångström', 'QX-4711', 'Reykjavík', 'yes', 'Blue ink', '3.20'],
    ]);
    // Rows 0 and 2 grouped into one document ("multiple"): one item row each.
    const filled = prepareDocx(template, sheet.headers).fill(sheet, [0, 2]);
    writeFileSync(join(work, 'filled.docx'), filled);
    const pdf = convert('filled.docx', 'pdf');
    const text = execFileSync(PDFTOTEXT, ['-layout', pdf, '-'], { encoding: 'utf8' });
    expect(text).toContain('Header for Zoë Ångström');
    expect(text).toContain('Dear Zoë Ångström, your code is QX-4711.');
    expect(text).toContain('Field: QX-4711');
    expect(text).toMatch(/City\s+Reykjavík/);
    expect(text).toContain('Gold member since Reykjavík');
    expect(text).toMatch(/Fountain pen\s+12\.50/);
    expect(text).toMatch(/Blue ink\s+3\.20/);
    expect(text).not.toContain('Nothing');
    expect(text).not.toContain('{{');
    expect(text).not.toContain('Other Person');
  });
});
