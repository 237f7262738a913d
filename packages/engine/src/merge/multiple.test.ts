/**
 * "multiple" placeholders group rows by a column: one document per distinct value, holding the
 * group's rows in sheet order, each row on its own copy of the template's pages.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blankTemplate, expectQpdfClean, mergeSeparate, pageTexts, pdfInfo, placeholder, scratch, table } from './test-support.ts';

const folder = scratch('multiple');
afterAll(() => folder.remove());

let template: Uint8Array;
beforeAll(async () => {
  template = await blankTemplate([{ label: 'GROUP PAGE ONE' }, { label: 'GROUP PAGE TWO', size: [842, 595] }]);
});

const ROWS = [
  ['North', 'Ann'],
  ['South', 'Ben'],
  ['North', 'Cid'],
  ['East', 'Dee'],
  ['South', 'Eve'],
  ['North', 'Fay'],
];

const request = () => ({
  template,
  sheet: table(['Team', 'Member'], ROWS),
  placeholders: [
    placeholder({ id: 'team', type: 'multiple', column: 'Team', relativeY: 0.1 }),
    placeholder({ id: 'member', column: 'Member', relativeY: 0.2 }),
    placeholder({ id: 'member2', column: 'Member', pageNumber: 2, relativeY: 0.5 }),
  ],
  options: { fileNamePattern: '{{Team}}' },
});

describe('multiple placeholders', () => {
  it('make one document per distinct value, in sheet order of first appearance', async () => {
    const { merge, documents } = await mergeSeparate(folder, request());
    expect(merge.documentCount).toBe(3);
    expect(merge.rowCount).toBe(6);
    expect(documents.map((document) => document.fileName)).toEqual(['North.pdf', 'South.pdf', 'East.pdf']);
    expect(documents.map((document) => document.rowNumbers)).toEqual([[2, 4, 7], [3, 6], [5]]);
  });

  it('give each group its rows on copies of all template pages, in sheet order', async () => {
    const { documents } = await mergeSeparate(folder, request());
    const members = [['Ann', 'Cid', 'Fay'], ['Ben', 'Eve'], ['Dee']];
    documents.forEach((document, group) => {
      expectQpdfClean(document.file);
      const expected = members[group]!;
      expect(pdfInfo(document.file).pages).toBe(expected.length * 2);
      expect(pdfInfo(document.file).pageInfo.map((page) => page.width)).toEqual(expected.flatMap(() => [595, 842]));
      const pages = pageTexts(document.file);
      expected.forEach((member, i) => {
        expect(pages[2 * i]).toContain('GROUP PAGE ONE');
        expect(pages[2 * i]).toContain(member);
        expect(pages[2 * i + 1]).toContain('GROUP PAGE TWO');
        expect(pages[2 * i + 1]).toContain(member);
      });
      const all = pages.join('\n');
      for (const other of members.flat().filter((name) => !expected.includes(name))) expect(all).not.toContain(other);
    });
  });
});
