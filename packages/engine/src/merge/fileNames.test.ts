import { isSheafError } from '@sheaf/shared';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createFileNamer } from './fileNames.ts';

const headers = ['First', 'Last', 'City', 'Id'];
const utf8Length = (text: string) => new TextEncoder().encode(text).length;

/** Names rows given as objects keyed by heading; row numbers start at 2 as in Excel under a header row. */
function nameRows(pattern: string | undefined, rows: Record<string, string>[]): string[] {
  const namer = createFileNamer(pattern, headers);
  return rows.map((row, index) => namer((column) => row[column] ?? '', index + 2));
}

describe('createFileNamer', () => {
  it('fills column tags and adds .pdf', () => {
    expect(nameRows('{{Last}}-{{ First }}', [{ First: 'Ann', Last: 'Smith' }])).toEqual(['Smith-Ann.pdf']);
  });

  it('names documents by row number without a pattern', () => {
    expect(nameRows(undefined, [{}, {}])).toEqual(['document-2.pdf', 'document-3.pdf']);
    expect(nameRows('   ', [{}])).toEqual(['document-2.pdf']);
  });

  it('falls back to the row number when the name comes out empty', () => {
    expect(nameRows('{{Last}}', [{ Last: '' }, { Last: ' ?*:. ' }])).toEqual(['document-2.pdf', 'document-3.pdf']);
  });

  it('refuses an unknown tag when created, before any row', () => {
    let caught: unknown;
    try {
      createFileNamer('{{Last}} {{Email}}', headers);
    } catch (error) {
      caught = error;
    }
    expect(isSheafError(caught) && caught.code).toBe('merge/file-name-tag-unknown');
    expect(isSheafError(caught) && caught.params).toEqual({ column: 'Email' });
  });

  it('matches a tag to a heading ignoring case when no heading matches exactly', () => {
    expect(nameRows('{{last}}', [{ Last: 'Smith' }])).toEqual(['Smith.pdf']);
  });

  it('matches a heading with spaces around it, as the server\'s check does (the shared column rule)', () => {
    const namer = createFileNamer('{{Last}}', ['First', ' Last ']);
    expect(namer((column) => (column === ' Last ' ? 'Smith' : ''), 2)).toBe('Smith.pdf');
  });

  it('replaces characters that Windows, macOS or Linux refuse with a dash', () => {
    expect(nameRows('{{Last}}', [{ Last: 'a/b\\c:d*e?f"g<h>i|j' }])).toEqual(['a-b-c-d-e-f-g-h-i-j.pdf']);
    expect(nameRows('{{City}}', [{ City: '12/03/2024' }])).toEqual(['12-03-2024.pdf']);
    expect(nameRows('{{Last}}', [{ Last: 'Line one\nLine\ttwo\u0000\u007f' }])).toEqual(['Line one Line two.pdf']);
    expect(nameRows('{{Last}}', [{ Last: 'invoice\u202Efdp.exe' }])).toEqual(['invoicefdp.exe.pdf']);
    expect(nameRows('{{Last}}', [{ Last: 'half \ud83d pair' }])).toEqual(['half pair.pdf']);
  });

  it('trims dots and spaces at either end, and does not double the extension', () => {
    expect(nameRows('{{Last}}', [{ Last: ' ..Smith. . ' }])).toEqual(['Smith.pdf']);
    expect(nameRows('{{Last}}.pdf', [{ Last: 'Smith' }])).toEqual(['Smith.pdf']);
    expect(nameRows('{{Last}}.PDF', [{ Last: 'Jones' }])).toEqual(['Jones.pdf']);
  });

  it('avoids reserved Windows device names, with any extension', () => {
    const names = nameRows('{{Last}}', ['CON', 'nul', 'Com1', 'LPT9', 'aux.txt', 'prn .tar', 'CONSOLE', 'COM10'].map((Last) => ({ Last })));
    expect(names).toEqual(['_CON.pdf', '_nul.pdf', '_Com1.pdf', '_LPT9.pdf', '_aux.txt.pdf', '_prn .tar.pdf', 'CONSOLE.pdf', 'COM10.pdf']);
  });

  it('numbers repeated names, ignoring case', () => {
    const rows = ['Smith', 'smith', 'SMITH', 'Jones', 'Smith (2)', 'Smith'].map((Last) => ({ Last }));
    expect(nameRows('{{Last}}', rows)).toEqual([
      'Smith.pdf',
      'smith (2).pdf',
      'SMITH (3).pdf',
      'Jones.pdf',
      'Smith (2) (2).pdf',
      'Smith (4).pdf',
    ]);
  });

  it('treats composed and decomposed accents as the same name', () => {
    const names = nameRows('{{Last}}', [{ Last: 'Mu\u0308ller' }, { Last: 'M\u00fcller' }]);
    expect(names).toEqual(['M\u00fcller.pdf', 'M\u00fcller (2).pdf']);
  });

  it('caps names at 150 bytes of UTF-8 without cutting a character', () => {
    const [ascii, cjk, emoji] = nameRows('{{Last}}', [
      { Last: 'x'.repeat(400) },
      { Last: '東'.repeat(100) },
      { Last: '👩‍👩‍👧'.repeat(20) },
    ]);
    expect(ascii).toBe(`${'x'.repeat(146)}.pdf`);
    expect(cjk).toBe(`${'東'.repeat(48)}.pdf`); // 48 x 3 bytes + 4
    expect(emoji).toBe(`${'👩‍👩‍👧'.repeat(8)}.pdf`); // a family emoji is one 18-byte grapheme
    const [first, second] = nameRows('{{Last}}', [{ Last: 'y'.repeat(200) }, { Last: 'y'.repeat(200) }]);
    expect(second).toBe(`${'y'.repeat(142)} (2).pdf`);
    expect([first, second].map(utf8Length)).toEqual([150, 150]);
  });

  it('gives safe, unique, non-empty names for any values (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ unit: 'binary', maxLength: 160 }), { minLength: 1, maxLength: 20 }), (values) => {
        const names = nameRows('{{City}}{{Id}}', values.map((City) => ({ City, Id: City.slice(0, 3) })));
        const keys = new Set(names.map((name) => name.toLowerCase()));
        expect(keys.size).toBe(names.length);
        for (const name of names) {
          expect(name).toMatch(/^[^.\s].*\.pdf$/s);
          // eslint-disable-next-line no-control-regex -- no control character may be left
          expect(name).not.toMatch(/[/\\:*?"<>|\u0000-\u001f\u007f]/);
          expect(name.slice(0, -4)).not.toMatch(/[. ]$/);
          expect(name.split('.')[0]).not.toMatch(/^(con|prn|aux|nul|com[1-9]|lpt[1-9])$/i);
          expect(utf8Length(name)).toBeLessThanOrEqual(150);
          expect(name).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/);
        }
      }),
      { numRuns: 100 },
    );
  });

  it('stays quick when thousands of rows share one name', () => {
    const namer = createFileNamer('{{Last}}', headers);
    let last = '';
    for (let row = 2; row < 20_002; row++) last = namer(() => 'Smith', row);
    expect(last).toBe('Smith (20000).pdf');
  });
});
