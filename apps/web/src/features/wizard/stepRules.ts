/**
 * What a step change of the wizard implies (docs/web-app.md#step-changes). Pure, so the rules are
 * tested apart from React: the page asks `decideStepChange` and then saves, verifies and resets as told.
 * Steps are 0-based here (0 Template, 1 Placeholders, 2 Spreadsheet, 3 Generate); the screen and the docs
 * count from 1 (docs/web-app.md#wizard).
 */
import type { ErrorCode } from '@sheaf/shared';

export const WIZARD_STEPS = ['template', 'placeholders', 'spreadsheet', 'generate'] as const;
export const LAST_STEP = WIZARD_STEPS.length - 1;

export type MailMergeStatus = 'initial' | 'checker' | 'completed' | 'cancelled' | 'error' | 'offline';

export interface StepContext {
  /** A template exists (false on /wizard/new before the upload). */
  hasTemplate: boolean;
  /** The template is still locked by a password. */
  isEncrypted: boolean;
  /** A readable spreadsheet is attached. */
  hasExcel: boolean;
  mailMergeStatus: MailMergeStatus;
}

export interface StepDecision {
  /** False: the step does not change (a blocked step shows `reason` when there is one). */
  allowed: boolean;
  reason?: ErrorCode;
  /** Leaving the placeholder editor: its unsaved changes are saved first. */
  saveEditor: boolean;
  /** From step 1 straight past step 2, or into step 4: there must be at least one placeholder. */
  verifyPlaceholders: boolean;
  /** Entering step 4: the placeholders must match a heading of the spreadsheet. */
  verifyMatching: boolean;
  /** Generated documents are discarded (they must be made again). */
  resetMerge: boolean;
}

const BLOCKED: StepDecision = { allowed: false, saveEditor: false, verifyPlaceholders: false, verifyMatching: false, resetMerge: false };

/** True while a merge runs on the server: the wizard stays on step 4 until it ends or is cancelled. */
export function isMergeRunning(status: MailMergeStatus): boolean {
  return status === 'checker' || status === 'offline';
}

/** Whether a step can be entered at all (the stepper and the navbar crumbs use it for "clickable"). */
export function stepBlockReason(to: number, context: StepContext): ErrorCode | 'locked' | null {
  if (to === 0) return null;
  if (!context.hasTemplate || context.isEncrypted) return 'locked';
  if (to === LAST_STEP && !context.hasExcel) return 'sheet/missing';
  return null;
}

export function decideStepChange(from: number, to: number, context: StepContext): StepDecision {
  if (!Number.isInteger(to) || to < 0 || to > LAST_STEP) throw new Error(`unknown wizard step ${to}`);
  if (to === from || isMergeRunning(context.mailMergeStatus)) return BLOCKED;
  const blocked = stepBlockReason(to, context);
  if (blocked) return blocked === 'locked' ? BLOCKED : { ...BLOCKED, reason: blocked };
  return {
    allowed: true,
    saveEditor: from === 1,
    verifyPlaceholders: (from === 0 && to > 1) || to === LAST_STEP,
    verifyMatching: to === LAST_STEP,
    // Going back from the download step discards what was generated (docs/merging.md#merge-states; this
    // covers "leaving step 4 for step 2 or earlier"); going back from step 3 too.
    resetMerge: (from === LAST_STEP && to < from) || (from === 2 && to < 2),
  };
}

export type BackAction = 'disabled' | 'resetStatus' | 'previousStep';

/** The bottom bar's Back: with an error on step 4 it returns to the initial view (docs/web-app.md#bottom-bar). */
export function backAction(step: number, status: MailMergeStatus): BackAction {
  if (isMergeRunning(status)) return 'disabled';
  if (step === LAST_STEP && status === 'error') return 'resetStatus';
  return step === 0 ? 'disabled' : 'previousStep';
}
