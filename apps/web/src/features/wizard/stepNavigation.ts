/**
 * Performing a step change (spec section 4 "Step changes"): decide by the rules, save the editor when
 * leaving step 2, refresh the template it saved, verify placeholders, and change the step only if the
 * user is still on the same step and template afterwards. A thunk, so the stepper, the bottom bar,
 * the navbar crumbs and the steps themselves all go through the same path.
 */
import type { ErrorCode } from '@sheaf/shared';
import { api } from '../../api/client.ts';
import type { AppDispatch, RootState } from '../../app/store.ts';
import { saveEditorChanges } from '../editor/save.ts';
import { noPlaceholderMatches } from './mergeRules.ts';
import { decideStepChange, type StepContext } from './stepRules.ts';
import { setNoMatchingDialog, stepChanged, stepChanging, templateLoaded, type WizardState } from './wizardSlice.ts';

export type StepOutcome =
  | { kind: 'changed' }
  /** Not allowed; `reason` is shown to the user when there is one. */
  | { kind: 'blocked'; reason?: ErrorCode }
  /** The editor could not save (it said so itself): the user stays to keep the edits. */
  | { kind: 'saveFailed' }
  /** The user moved on (or to another template) while this change was under way. */
  | { kind: 'stale' }
  | { kind: 'noMatching' };

export function stepContext(wizard: WizardState): StepContext {
  return {
    hasTemplate: wizard.template !== null,
    isEncrypted: wizard.template?.isEncrypted ?? false,
    hasExcel: wizard.excel !== null && !wizard.excel.message,
    mailMergeStatus: wizard.mailMergeStatus,
  };
}

export function changeStep(to: number) {
  return async (dispatch: AppDispatch, getState: () => RootState): Promise<StepOutcome> => {
    const start = getState().wizard;
    if (start.stepChanging) return { kind: 'stale' };
    const decision = decideStepChange(start.activeStep, to, stepContext(start));
    if (!decision.allowed || !start.template) return { kind: 'blocked', reason: decision.reason };
    const templateId = start.template.id;
    dispatch(stepChanging(true));
    try {
      if (decision.saveEditor) {
        const result = await dispatch(saveEditorChanges(templateId));
        if (result === 'failed') return { kind: 'saveFailed' };
        if (result === 'saved') {
          // Placeholders (and a changed header row) change what later steps check and count.
          const detail = await api.call('getTemplate', { params: { id: templateId } }).catch(() => null);
          if (detail && getState().wizard.template?.id === templateId) dispatch(templateLoaded(detail));
        }
      }
      const now = getState().wizard;
      if (now.activeStep !== start.activeStep || now.template?.id !== templateId) return { kind: 'stale' };
      const placeholders = now.template.placeholders;
      if (decision.verifyPlaceholders && placeholders.length === 0) return { kind: 'blocked', reason: 'merge/no-placeholders' };
      if (decision.verifyMatching && noPlaceholderMatches(placeholders, now.excel?.headers ?? [])) {
        dispatch(setNoMatchingDialog(true));
        return { kind: 'noMatching' };
      }
      dispatch(stepChanged({ step: to, resetMerge: decision.resetMerge }));
      return { kind: 'changed' };
    } finally {
      dispatch(stepChanging(false));
    }
  };
}
