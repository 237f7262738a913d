/** The wizard keeps the last complete check of its spreadsheet, and only of that one. */
import { describe, expect, it } from 'vitest';
import { DEFAULT_EMAIL_SETTINGS, type ExcelMeta, type TemplateDetail } from '@sheaf/shared';
import reducer, { dataCheckCompleted, excelChanged, rowSelectionChanged, setDataCheckOpen, stepChanged, templateLoaded, type WizardState } from '../wizard/wizardSlice.ts';
import { excludeFlagged, flaggedInSelection } from './issues.ts';

const excel: ExcelMeta = { excelName: 'people.xlsx', excelFileSize: 1200, headersRowNo: 1, headers: ['Name', 'Email'], totalRowCount: 20, firstRow: 2, lastRow: 21 };
const template: TemplateDetail = {
  id: 'T'.repeat(20), name: 'letter.pdf', customName: null, templateType: 'pdf', numPages: 1, isEncrypted: false, thumbnailUrl: null, excelName: excel.excelName,
  placeholderCount: 0, createdAt: '', updatedAt: '', checksum: 'c', placeholders: [], images: [], pages: [{ width: 595, height: 842 }], headersRowNo: 1,
  output: { isCombinedOutput: false, isKeepFormOutput: true, isOnlyPlaceholdersOutput: false, isTryRepair: false, isCompressedOutput: true, fileNamePattern: '', passwordProtection: null },
  splitButtonSelection: null, excel, email: DEFAULT_EMAIL_SETTINGS,
};
const run = (...actions: Parameters<typeof reducer>[1][]): WizardState => actions.reduce(reducer, reducer(undefined, { type: 'init' }));

describe('the data check in the wizard state', () => {
  it('keeps the result of a check of the current sheet', () => {
    const loaded = run(templateLoaded(template));
    const state = reducer(loaded, dataCheckCompleted({ sheetKey: loaded.sheetKey!, flaggedRows: [3, 7], issueCount: 4 }));
    expect(state.dataCheck).toEqual({ sheetKey: loaded.sheetKey, flaggedRows: [3, 7], issueCount: 4 });
  });

  it('ignores a result for another sheet and forgets it when the sheet changes', () => {
    const loaded = run(templateLoaded(template));
    expect(reducer(loaded, dataCheckCompleted({ sheetKey: 'another', flaggedRows: [3], issueCount: 1 })).dataCheck).toBeNull();
    const checked = reducer(loaded, dataCheckCompleted({ sheetKey: loaded.sheetKey!, flaggedRows: [3], issueCount: 1 }));
    expect(reducer(checked, excelChanged({ ...excel, excelName: 'other.xlsx' })).dataCheck).toBeNull();
    expect(reducer(checked, excelChanged(null)).dataCheck).toBeNull();
    // A new copy of the same template with the same sheet keeps it.
    expect(reducer(checked, templateLoaded({ ...template, customName: 'Renamed' })).dataCheck).not.toBeNull();
  });

  it('opens and closes the dialog; a step change closes it', () => {
    const open = run(templateLoaded(template), setDataCheckOpen(true));
    expect(open.dataCheckOpen).toBe(true);
    expect(reducer(open, setDataCheckOpen(false)).dataCheckOpen).toBe(false);
    expect(reducer(open, stepChanged({ step: 3, resetMerge: false })).dataCheckOpen).toBe(false);
  });

  it('excluding the flagged rows leaves none of them in the rows to generate', () => {
    const loaded = run(templateLoaded(template));
    const sheet = loaded.sheet!;
    const exclusion = excludeFlagged(loaded.rowSelection, sheet, [3, 7]);
    if (exclusion.kind !== 'rows') throw new Error('rows expected');
    const state = reducer(loaded, rowSelectionChanged({ mode: 'specific', specificRows: exclusion.specificRows }));
    expect(state.mergeSpecificRows).toBe('2, 4-6, 8-21');
    expect(state.rowsToGenerateCount).toBe(18);
    expect(flaggedInSelection(state.rowSelection, sheet, [3, 7])).toBe(0);
  });
});
