import { isSheafError } from '@sheaf/shared';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildXlsx, stylesWith } from '../../../../scripts/fixtures/sheets/xlsx-parts.ts';
import { readSheet } from './index.ts';
import { fixtureBytes } from './test-support.ts';

const RUNS = 150;

/** Reads `bytes` and every cell of the result: must end in a SheetData or a SheafError, nothing else. */
function readsOrRefuses(bytes: Uint8Array): 'read' | 'refused' {
  try {
    const sheet = readSheet(bytes);
    for (let index = 0; index < Math.min(sheet.rowCount, 500); index++) {
      expect(sheet.rowNumber(index)).toBeGreaterThan(sheet.headerRowNumber);
      for (let column = 0; column < Math.min(sheet.headers.length + 1, 40); column++) {
        expect(typeof sheet.text(index, column)).toBe('string');
        sheet.value(index, column);
      }
    }
    return 'read';
  } catch (error) {
    if (isSheafError(error)) return 'refused';
    throw error;
  }
}

/** Byte edits: (position as a fraction of the length, new byte). */
const edits = fc.array(fc.tuple(fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 8 });

function mutated(bytes: Uint8Array, changes: [number, number][]): Uint8Array {
  const copy = bytes.slice();
  for (const [where, byte] of changes) copy[Math.floor(where * copy.length)] = byte;
  return copy;
}

const SHEET_XML =
  '<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><dimension ref="A1:D4"/><sheetData>' +
  '<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="inlineStr"><is><r><t>Amo</t></r><r><t>unt</t></r></is></c><c r="C1" t="str"><v>When</v></c></row>' +
  '<row r="2"><c r="A2" t="s"><v>1</v></c><c r="B2" s="1"><v>1234.5</v></c><c r="C2" s="2"><v>45366.25</v></c><c r="D2" t="b"><v>1</v></c></row>' +
  '<row r="4"><c t="e"><v>#N/A</v></c><c><f>1+1</f><v>2</v></c><c t="d"><v>2024-03-15</v></c></row></sheetData></worksheet>';
const SHARED = '<si><t>Name</t></si><si><r><t>A&amp;B</t></r><rPh><t>x</t></rPh></si>';

describe('readSheet never fails other than with a SheafError, and never hangs', () => {
  it('on random bytes, bare or behind each container magic', () => {
    const magic = fc.constantFrom([], [0x50, 0x4b, 0x03, 0x04], [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1], [0xef, 0xbb, 0xbf], [0xff, 0xfe]);
    fc.assert(
      fc.property(magic, fc.uint8Array({ maxLength: 4096 }), (prefix, body) => {
        const bytes = new Uint8Array(prefix.length + body.length);
        bytes.set(prefix);
        bytes.set(body, prefix.length);
        readsOrRefuses(bytes);
      }),
      { numRuns: RUNS },
    );
  });

  it('on valid workbooks with bytes changed or cut off', () => {
    const workbooks = ['sheet-odd.xlsx', 'sheet-basic.xlsx', 'legacy.xls', 'legacy.ods'].map((name) => fixtureBytes(name));
    fc.assert(
      fc.property(fc.constantFrom(...workbooks), edits, fc.double({ min: 0, max: 1, noNaN: true }), (bytes, changes, keep) => {
        readsOrRefuses(mutated(bytes, changes));
        readsOrRefuses(bytes.subarray(0, Math.floor(keep * bytes.length)));
      }),
      { numRuns: RUNS },
    );
  });

  it('on workbooks whose sheet and shared-string XML are mutated before compression (the scanners see the damage)', () => {
    const text = fc.tuple(fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }), fc.constantFrom('<', '>', '/', '"', "'", '&', ';', ' ', '=', 'c', 'v', 't', 'r', '!', '?', '[', ']', '1', '', '<v>', '</c>', '<![CDATA[', '-->', '&#x0;', '&amp'));
    const damage = (xml: string, changes: [number, string][]) =>
      changes.reduce((result, [where, insert]) => {
        const at = Math.floor(where * result.length);
        return result.slice(0, at) + insert + result.slice(at + 1);
      }, xml);
    fc.assert(
      fc.property(fc.array(text, { minLength: 1, maxLength: 6 }), fc.array(text, { maxLength: 3 }), (sheetChanges, sharedChanges) => {
        const bytes = buildXlsx({ sheet: damage(SHEET_XML, sheetChanges), sharedStrings: damage(SHARED, sharedChanges), styles: stylesWith([0, 4, 22]) });
        readsOrRefuses(bytes);
      }),
      { numRuns: RUNS },
    );
  });

  it('on arbitrary CSV-like text, reading exactly the rows a plain quote-aware parser finds', () => {
    const csvText = fc.array(fc.constantFrom('a', 'b', ',', ';', '\t', '"', '\r', '\n', ' ', '|', 'é', '😀'), { maxLength: 200 }).map((chars) => chars.join(''));
    fc.assert(
      fc.property(csvText, (text) => {
        const expected = referenceCsv(`H1,H2\n${text}`).filter((record) => record.fields.some((field) => field !== ''));
        let sheet;
        try {
          sheet = readSheet(new TextEncoder().encode(`sep=,\nH1,H2\n${text}`));
        } catch (error) {
          expect(isSheafError(error) && error.code).toBe('sheet/no-data-rows');
          expect(expected.length).toBe(1);
          return;
        }
        expect(sheet.rowCount).toBe(expected.length - 1);
        expected.slice(1).forEach((record, index) => {
          expect(sheet.rowNumber(index)).toBe(record.row);
          record.fields.forEach((field, column) => expect(sheet.text(index, column)).toBe(field));
        });
      }),
      { numRuns: RUNS },
    );
  });
});

/** A straightforward CSV reading (the rules of read-csv.ts, written as a character state machine). */
function referenceCsv(text: string): { row: number; fields: string[] }[] {
  const records: { row: number; fields: string[] }[] = [];
  let fields: string[] = [];
  let field = '';
  let state: 'start' | 'plain' | 'quoted' | 'after-quote' = 'start';
  const endField = () => {
    fields.push(state === 'plain' && /^[ \t]*$/.test(field) ? '' : field.replace(/\r\n?/g, '\n'));
    field = '';
    state = 'start';
  };
  const endRecord = () => {
    endField();
    records.push({ row: records.length + 1, fields });
    fields = [];
  };
  for (let at = 0; at < text.length; at++) {
    const char = text[at]!;
    if (state === 'quoted') {
      if (char !== '"') field += char;
      else if (text[at + 1] === '"') field += text[++at];
      else state = 'after-quote';
    } else if (char === ',') {
      endField();
    } else if (char === '\n' || char === '\r') {
      if (char === '\r' && text[at + 1] === '\n') at++;
      endRecord();
    } else if (state === 'start' && char === '"') {
      state = 'quoted';
    } else if (state !== 'after-quote') {
      field += char;
      state = 'plain';
    }
  }
  if (state !== 'start' || field !== '' || fields.length > 0) endRecord();
  return records;
}
