/**
 * Property: however Word cuts a paragraph into runs (edits, spell-check marks, bookmarks, revision
 * ids between the pieces), the filled text is the same, and the XML stays well-formed for a reader.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sheetFromTable } from '../sheet/table.ts';
import { prepareDocx } from './prepare.ts';
import { buildDocx, readParts, visibleText } from './test-docx.ts';

const TEXT = 'Dear {{First name}}, from {{Last}} & co {{#if Last}}(known){{/if}}.';
const sheet = sheetFromTable(['First name', 'Last'], [['Ada <3', 'Lovelace']]);
const BETWEEN = ['', '<w:proofErr w:type="spellStart"/>', '<w:bookmarkStart w:id="1" w:name="b"/><w:bookmarkEnd w:id="1"/>'];
const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;');

describe('Word templates: tags split anywhere', () => {
  it('fill the same whatever the run boundaries', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.integer({ min: 1, max: TEXT.length - 1 }), { maxLength: 12 }), fc.array(fc.constantFrom(...BETWEEN.keys()), { minLength: 13, maxLength: 13 }), (cuts, kinds) => {
        const points = [0, ...cuts.sort((a, b) => a - b), TEXT.length];
        let runs = '';
        for (let index = 0; index + 1 < points.length; index++) {
          runs += `${BETWEEN[kinds[index]!]}<w:r w:rsidR="00${index}"><w:rPr>${index % 2 ? '<w:b/>' : ''}</w:rPr><w:t xml:space="preserve">${escape(TEXT.slice(points[index], points[index + 1]))}</w:t></w:r>`;
        }
        const docx = buildDocx({ body: `<w:p>${runs}</w:p>` });
        const xml = readParts(prepareDocx(docx, sheet.headers).fill(sheet, [0]))['word/document.xml']!;
        expect(visibleText(xml)).toBe('Dear Ada <3, from Lovelace & co (known).');
        expect(xml.match(/<w:r[ >]/g)?.length ?? 0).toBe(xml.match(/<\/w:r>/g)?.length ?? 0);
      }),
      { numRuns: 150 },
    );
  });
});
