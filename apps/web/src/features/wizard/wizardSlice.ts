/**
 * Wizard state (docs/web-app.md#wizard): which template is open, the step, which merge the
 * status view follows and where it stands, and the rows to generate. Server answers stay in the
 * query cache: the template's details (templateDetail.ts), the merge's progress and the mailing's
 * report (features/wizard/api.ts, features/email/api.ts). The navbar asks for a step with
 * `requestStep`; the wizard page performs the change with its own rules.
 */
import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { ExcelMeta, MailingReport, Merge, TemplateDetail } from '@sheaf/shared';
import { ALL_ROWS, countRowsToGenerate, type RowSelectionState, type SheetBounds } from './rowSelection.ts';
import { LAST_STEP, type MailMergeStatus } from './stepRules.ts';
import { statusOfMerge } from './mergeRules.ts';
import * as mailing from '../email/mailingRules.ts';

export type { MailMergeStatus } from './stepRules.ts';

export interface MailMergeError {
  code: string;
  message: string;
  params?: Record<string, string | number>;
  /** The network failed (the error view shows its offline title and description). */
  offline?: boolean;
}

/** The last complete data check of a spreadsheet (docs/data-check.md#the-dialog). */
export interface DataCheckResult {
  /** The spreadsheet it checked (WizardState.sheetKey then): another sheet makes it meaningless. */
  sheetKey: string;
  /** The rows with at least one issue, ascending (Excel numbers). */
  flaggedRows: number[];
  issueCount: number;
}

export interface WizardState {
  /** The template open in the wizard; its details (placeholders, sheet, settings) are in the query cache (templateDetail.ts). */
  templateId: string | null;
  /** The spreadsheet the row selection was made for (its metadata as JSON): another one resets it. */
  sheetKey: string | null;
  /** That spreadsheet's data rows, which the selection is counted in. */
  sheet: SheetBounds | null;
  activeStep: number;
  mailMergeStatus: MailMergeStatus;
  mailMergeError: MailMergeError | null;
  openEncryptionDialog: boolean;
  /** The merge the status view follows; its answers (progress, file, issues) are in the query cache (features/wizard/api.ts). */
  mergeId: string | null;
  /** Documents the started merge should make, shown until the first poll answers. */
  expectedTotal: number;
  rowSelection: RowSelectionState;
  /** The typed row list ("1, 3, 5-12"); mirrors rowSelection.specificRows. */
  mergeSpecificRows: string;
  rowsToGenerateCount: number;
  /** True while a template is open in the wizard. */
  isInWizard: boolean;
  /** A step asked for from outside the page (navbar crumbs); the page performs it and clears it. */
  pendingStep: number | null;
  /** "Start the merge after upload": step 4 starts generating as soon as it shows. */
  autoStartMerge: boolean;
  /** A step change is under way (saving the editor, checking placeholders). */
  stepChanging: boolean;
  /** The "no placeholder matches a heading" dialog (docs/spreadsheets.md#column-matching). */
  noMatchingDialogOpen: boolean;
  /**
   * Emailing the documents: the mailingStatus and mailingError of
   * docs/email.md#mailing-status-in-the-wizard, and the last report (features/email/mailingRules.ts).
   */
  mailing: mailing.MailingState;
  /** The last complete data check of this spreadsheet: step 4 says how many rows to make were flagged. */
  dataCheck: DataCheckResult | null;
  /** The data-check dialog is open (step 3's "Check data", step 4's "Open the check"). */
  dataCheckOpen: boolean;
}

const initialState: WizardState = {
  templateId: null,
  sheetKey: null,
  sheet: null,
  activeStep: 0,
  mailMergeStatus: 'initial',
  mailMergeError: null,
  openEncryptionDialog: false,
  mergeId: null,
  expectedTotal: 0,
  rowSelection: ALL_ROWS,
  mergeSpecificRows: '',
  rowsToGenerateCount: 0,
  isInWizard: false,
  pendingStep: null,
  autoStartMerge: false,
  stepChanging: false,
  noMatchingDialogOpen: false,
  mailing: mailing.INITIAL_MAILING,
  dataCheck: null,
  dataCheckOpen: false,
};

/** The sheet's data rows, or null when no readable spreadsheet is attached. */
export function sheetBounds(excel: ExcelMeta | null): SheetBounds | null {
  return excel && !excel.message ? { firstRow: excel.firstRow, lastRow: excel.lastRow } : null;
}

const sheetKeyOf = (excel: ExcelMeta | null): string | null => (excel ? JSON.stringify(excel) : null);

function recount(state: WizardState): void {
  state.rowsToGenerateCount = countRowsToGenerate(state.rowSelection, state.sheet);
}

function takeSheet(state: WizardState, excel: ExcelMeta | null): void {
  state.sheetKey = sheetKeyOf(excel);
  state.sheet = sheetBounds(excel);
  // A check of another spreadsheet says nothing about this one.
  if (state.dataCheck && state.dataCheck.sheetKey !== state.sheetKey) state.dataCheck = null;
}

function resetMergeState(state: WizardState): void {
  state.mailMergeStatus = 'initial';
  state.mailMergeError = null;
  state.mergeId = null;
  state.autoStartMerge = false;
}

const wizardSlice = createSlice({
  name: 'wizard',
  initialState,
  reducers: {
    /**
     * A template was loaded or changed on the server (upload, replace, decrypt, settings saved); the
     * detail itself goes to the query cache (templateDetail.ts), the wizard follows it here.
     */
    templateLoaded(state, action: PayloadAction<TemplateDetail>) {
      const detail = action.payload;
      if (state.templateId !== detail.id) Object.assign(state, initialState);
      state.templateId = detail.id;
      state.isInWizard = true;
      state.openEncryptionDialog = detail.isEncrypted;
      // Every detail comes fresh from the server, so its spreadsheet metadata is the current one.
      if (state.sheetKey !== sheetKeyOf(detail.excel)) {
        takeSheet(state, detail.excel);
        // The rows chosen last time are kept with the template's output settings.
        state.rowSelection = detail.output.rows ?? ALL_ROWS;
        state.mergeSpecificRows = state.rowSelection.specificRows;
      }
      recount(state);
    },
    templateUnlocked(state) {
      state.openEncryptionDialog = false;
    },
    setOpenEncryptionDialog(state, action: PayloadAction<boolean>) {
      state.openEncryptionDialog = action.payload;
    },
    /** Another spreadsheet (uploaded, chosen or deleted at step 3); the cache's detail has it too. */
    excelChanged(state, action: PayloadAction<ExcelMeta | null>) {
      takeSheet(state, action.payload);
      // Row numbers typed for another sheet mean nothing for this one.
      state.rowSelection = ALL_ROWS;
      state.mergeSpecificRows = '';
      resetMergeState(state);
      recount(state);
    },
    rowSelectionChanged(state, action: PayloadAction<Partial<RowSelectionState>>) {
      state.rowSelection = { ...state.rowSelection, ...action.payload };
      state.mergeSpecificRows = state.rowSelection.specificRows;
      recount(state);
    },
    stepChanged(state, action: PayloadAction<{ step: number; resetMerge: boolean }>) {
      if (state.activeStep === LAST_STEP && action.payload.step < LAST_STEP) state.mailing = mailing.afterLeavingLastStep(state.mailing);
      state.activeStep = Math.max(0, Math.min(LAST_STEP, action.payload.step));
      state.dataCheckOpen = false;
      if (action.payload.resetMerge) resetMergeState(state);
    },
    requestStep(state, action: PayloadAction<number>) {
      state.pendingStep = action.payload;
    },
    pendingStepHandled(state) {
      state.pendingStep = null;
    },
    stepChanging(state, action: PayloadAction<boolean>) {
      state.stepChanging = action.payload;
    },
    setNoMatchingDialog(state, action: PayloadAction<boolean>) {
      state.noMatchingDialogOpen = action.payload;
    },
    setAutoStartMerge(state, action: PayloadAction<boolean>) {
      state.autoStartMerge = action.payload;
    },
    mergeStarted(state, action: PayloadAction<{ mergeId: string; expectedTotal: number }>) {
      resetMergeState(state);
      state.mailMergeStatus = 'checker';
      state.mergeId = action.payload.mergeId;
      state.expectedTotal = action.payload.expectedTotal;
      state.mailing = mailing.withMergeId(state.mailing, action.payload.mergeId);
    },
    /** A merge of this template still runs on the server (the page was reloaded): show its progress. */
    mergeResumed(state, action: PayloadAction<Merge>) {
      if (state.mergeId !== null || action.payload.templateId !== state.templateId) return;
      state.mergeId = action.payload.mergeId;
      state.mailMergeStatus = 'checker';
      state.activeStep = LAST_STEP;
      if (action.payload.mailingStatus === 'queued' || action.payload.mailingStatus === 'sending') state.mailing = mailing.resumed(action.payload.mergeId);
    },
    /** A merge answer (start, poll, cancel): the status view follows it to its end. */
    mergeUpdated(state, action: PayloadAction<Merge>) {
      const merge = action.payload;
      if (merge.mergeId !== state.mergeId) return;
      // A late progress answer never reopens a merge that has ended (e.g. just cancelled).
      const ended = state.mailMergeStatus === 'completed' || state.mailMergeStatus === 'cancelled' || state.mailMergeStatus === 'error';
      if (ended && statusOfMerge(merge) === 'checker') return;
      state.mailMergeStatus = statusOfMerge(merge);
      state.mailMergeError = merge.status === 'error' && merge.error ? { ...merge.error } : null;
      if (merge.status === 'error') state.mailing = mailing.withSendFailure(state.mailing, merge.error ? { ...merge.error } : { code: 'generic/something-wrong', message: '' });
    },
    /** Polls fail on the network: the merge goes on on the server; progress resumes when back online. */
    mergeOffline(state) {
      if (state.mailMergeStatus === 'checker') state.mailMergeStatus = 'offline';
    },
    mergeOnline(state) {
      if (state.mailMergeStatus === 'offline') state.mailMergeStatus = 'checker';
    },
    mergeFailed(state, action: PayloadAction<MailMergeError>) {
      state.mailMergeStatus = 'error';
      state.mailMergeError = action.payload;
      state.mailing = mailing.withSendFailure(state.mailing, action.payload);
    },
    /** Send clicked: the merge request (with email) is posted next. */
    mailingTriggered(state) {
      state.mailing = mailing.triggered();
    },
    /** After a reload: a merge of this template is still mailing. */
    mailingResumed(state, action: PayloadAction<{ mergeId: string; templateId: string }>) {
      if (action.payload.templateId !== state.templateId || state.mailing.status !== 'initial') return;
      state.mailing = mailing.resumed(action.payload.mergeId);
      state.activeStep = LAST_STEP;
    },
    mailingReportReceived(state, action: PayloadAction<{ mergeId: string; report: MailingReport }>) {
      if (action.payload.mergeId === state.mailing.mergeId) state.mailing = mailing.withReport(state.mailing, action.payload.report);
    },
    mailingPollFailed(state, action: PayloadAction<{ mergeId: string; network: true } | { mergeId: string; network: false; error: mailing.MailingError }>) {
      if (action.payload.mergeId === state.mailing.mergeId) state.mailing = mailing.withPollFailure(state.mailing, action.payload);
    },
    /** Back to the options after a mailing error, or a new merge after it ended. */
    mailingReset(state) {
      state.mailing = mailing.INITIAL_MAILING;
    },
    setDataCheckOpen(state, action: PayloadAction<boolean>) {
      state.dataCheckOpen = action.payload;
    },
    /** A check ran to its end (the spreadsheet it checked is named, so a late answer for another one is ignored). */
    dataCheckCompleted(state, action: PayloadAction<DataCheckResult>) {
      if (action.payload.sheetKey === state.sheetKey) state.dataCheck = action.payload;
    },
    mergeCancelled(state) {
      state.mailMergeStatus = 'cancelled';
    },
    /** Back to the options (after an error, a cancel, or to generate again). */
    mergeReset(state) {
      resetMergeState(state);
    },
    /** The user left the wizard (or opened /wizard/new): nothing of the old template stays. */
    wizardLeft() {
      return initialState;
    },
  },
});

export const {
  templateLoaded, templateUnlocked, setOpenEncryptionDialog, excelChanged, rowSelectionChanged, stepChanged,
  requestStep, pendingStepHandled, stepChanging, setNoMatchingDialog, setAutoStartMerge, mergeStarted, mergeResumed, mergeUpdated, mergeOffline, mergeOnline, mergeFailed,
  mergeCancelled, mergeReset, wizardLeft, mailingTriggered, mailingResumed, mailingReportReceived, mailingPollFailed, mailingReset,
  setDataCheckOpen, dataCheckCompleted,
} = wizardSlice.actions;

export default wizardSlice.reducer;

export interface WizardCrumbs {
  templateId: string;
  templateName: string;
  excelName: string | null;
  isEncrypted: boolean;
  activeStep: number;
}

/** What the navbar's breadcrumbs show inside the wizard (the template's detail from the query cache); null elsewhere. */
export function wizardCrumbs(wizard: Pick<WizardState, 'templateId' | 'isInWizard' | 'activeStep'>, detail: TemplateDetail | null): WizardCrumbs | null {
  if (!wizard.isInWizard || !detail || detail.id !== wizard.templateId) return null;
  const excel = detail.excel;
  return {
    templateId: detail.id,
    templateName: detail.customName ?? detail.name,
    excelName: excel && !excel.message ? excel.excelName : null,
    isEncrypted: detail.isEncrypted,
    activeStep: wizard.activeStep,
  };
}
