import { describe, expect, it } from 'vitest';
import { DEFAULT_EMAIL_SETTINGS, type ExcelMeta, type Merge, type TemplateDetail } from '@sheaf/shared';
import reducer, {
  excelChanged, mergeOffline, mergeResumed, mergeOnline, mergeStarted, mergeUpdated, requestStep, rowSelectionChanged, stepChanged,
  templateLoaded, templateUnlocked, wizardCrumbs, wizardLeft, type WizardState,
} from './wizardSlice.ts';

const excel: ExcelMeta = { excelName: 'people.xlsx', excelFileSize: 1200, headersRowNo: 1, headers: ['First', 'Last'], totalRowCount: 20, firstRow: 2, lastRow: 21 };
const template = (id: string, extra: Partial<TemplateDetail> = {}): TemplateDetail => ({
  id, name: 'letter.pdf', customName: null, templateType: 'pdf', numPages: 1, isEncrypted: false, thumbnailUrl: null, excelName: excel.excelName,
  placeholderCount: 0, createdAt: '', updatedAt: '', checksum: 'c', placeholders: [], images: [], pages: [{ width: 595, height: 842 }], headersRowNo: 1,
  output: { isCombinedOutput: false, isKeepFormOutput: true, isOnlyPlaceholdersOutput: false, isTryRepair: false, isCompressedOutput: true, fileNamePattern: '', passwordProtection: null },
  splitButtonSelection: null, excel, email: DEFAULT_EMAIL_SETTINGS, ...extra,
});
const merge = (status: Merge['status'], extra: Partial<Merge> = {}): Merge => ({
  mergeId: 'M'.repeat(20), templateId: 'T'.repeat(20), status, total: 20, done: 5, isCombinedOutput: false, fileName: null, fileSize: null,
  downloadUrl: null, filesDeleted: false, madeViaApi: false, mailingStatus: null, issues: [], error: null, createdAt: '', finishedAt: null, ...extra,
});
const run = (...actions: Parameters<typeof reducer>[1][]): WizardState => actions.reduce(reducer, reducer(undefined, { type: 'init' }));
/** The crumbs of the wizard state with its template as the query cache has it. */
const crumbs = (wizard: WizardState, detail: TemplateDetail | null = null) => wizardCrumbs(wizard, detail);

describe('wizard state', () => {
  it('counts the rows of the loaded sheet and recounts when the selection changes', () => {
    const state = run(templateLoaded(template('T'.repeat(20))));
    expect(state.rowsToGenerateCount).toBe(20);
    expect(run(templateLoaded(template('T'.repeat(20))), rowSelectionChanged({ mode: 'specific', specificRows: '2, 4-6' })).rowsToGenerateCount).toBe(4);
    expect(run(templateLoaded(template('T'.repeat(20))), excelChanged(null)).rowsToGenerateCount).toBe(0);
  });

  it('opens the decrypt dialog for a locked template and closes it once unlocked', () => {
    const locked = run(templateLoaded(template('T'.repeat(20), { isEncrypted: true })));
    expect(locked.openEncryptionDialog).toBe(true);
    const unlocked = reducer(locked, templateUnlocked());
    expect(unlocked.openEncryptionDialog).toBe(false);
    // The template itself (now unlocked) is in the query cache: templateDetail.test.ts.
  });

  it('forgets everything of the previous template when another one loads', () => {
    const first = run(templateLoaded(template('A'.repeat(20))), stepChanged({ step: 3, resetMerge: false }), mergeStarted({ mergeId: 'M'.repeat(20), expectedTotal: 20 }));
    const second = reducer(first, templateLoaded(template('B'.repeat(20))));
    expect(second).toMatchObject({ activeStep: 0, mailMergeStatus: 'initial', mergeId: null });
  });

  // The merge's answers themselves (progress, download link) live in the query cache: wizard/api.test.ts.
  it('follows a merge: progress, offline and back, to its completion', () => {
    let state = run(templateLoaded(template('T'.repeat(20))), mergeStarted({ mergeId: 'M'.repeat(20), expectedTotal: 20 }));
    expect(state.mailMergeStatus).toBe('checker');
    state = reducer(state, mergeOffline());
    expect(state.mailMergeStatus).toBe('offline');
    state = reducer(state, mergeOnline());
    state = reducer(state, mergeUpdated(merge('generating')));
    expect(state.mailMergeStatus).toBe('checker');
    state = reducer(state, mergeUpdated(merge('completed', { done: 20, downloadUrl: '/v1/files/abc' })));
    expect(state).toMatchObject({ mailMergeStatus: 'completed', mergeId: 'M'.repeat(20) });
    // A late answer about another merge changes nothing.
    expect(reducer(state, mergeUpdated(merge('error', { mergeId: 'X'.repeat(20) }))).mailMergeStatus).toBe('completed');
  });

  it('picks up a merge still running after a reload, on step 4', () => {
    const state = run(templateLoaded(template('T'.repeat(20))), mergeResumed(merge('generating')));
    expect(state).toMatchObject({ activeStep: 3, mailMergeStatus: 'checker', mergeId: 'M'.repeat(20) });
    expect(run(templateLoaded(template('A'.repeat(20))), mergeResumed(merge('generating'))).mergeId).toBeNull();
  });

  it('discards the finished merge when the step change says so', () => {
    const done = run(templateLoaded(template('T'.repeat(20))), mergeStarted({ mergeId: 'M'.repeat(20), expectedTotal: 20 }), mergeUpdated(merge('completed', { downloadUrl: '/v1/files/x' })));
    expect(reducer(done, stepChanged({ step: 1, resetMerge: true }))).toMatchObject({ activeStep: 1, mailMergeStatus: 'initial', mergeId: null });
    expect(reducer(done, stepChanged({ step: 2, resetMerge: false })).mailMergeStatus).toBe('completed');
  });

  it('gives the navbar its crumbs inside the wizard only, and records requested steps', () => {
    expect(crumbs(run())).toBeNull();
    const detail = template('T'.repeat(20), { customName: 'Invitations' });
    const state = run(templateLoaded(detail), stepChanged({ step: 2, resetMerge: false }), requestStep(1));
    expect(crumbs(state, detail)).toEqual({ templateId: 'T'.repeat(20), templateName: 'Invitations', excelName: 'people.xlsx', isEncrypted: false, activeStep: 2 });
    expect(state.pendingStep).toBe(1);
    expect(crumbs(reducer(state, wizardLeft()), detail)).toBeNull();
  });
});
