/**
 * Performing a step change (docs/web-app.md#step-changes): decide by the rules, save the editor when
 * leaving step 2, refresh the template it saved, verify placeholders, and change the step only if the
 * user is still on the same step and template afterwards. A thunk, so the stepper, the bottom bar,
 * the navbar crumbs and the steps themselves all go through the same path.
 */
import type { ErrorCode, TemplateDetail } from '@sheaf/shared';
import { api } from '../../api/client.ts';
import type { AppDispatch, RootState } from '../../app/store.ts';
import { saveEditorChanges } from '../editor/save.ts';
import { noPlaceholderMatches } from './mergeRules.ts';
import { decideStepChange, type StepContext } from './stepRules.ts';
import { templateReceived, wizardDetailNow } from './templateDetail.ts';
import { setNoMatchingDialog, stepChanged, stepChanging, type WizardState } from './wizardSlice.ts';

export type StepOutcome =
  | { kind: 'changed' }
  /** Not allowed; `reason` is shown to the user when there is one. */
  | { kind: 'blocked'; reason?: ErrorCode }
  /** The editor could not save (it said so itself): the user stays to keep the edits. */
  | { kind: 'saveFailed' }
  /** The user moved on (or to another template) while this change was under way. */
  | { kind: 'stale' }
  | { kind: 'noMatching' };

/** What the step rules look at: the wizard's state and its template as the query cache has it. */
export function stepContext(wizard: WizardState, template: TemplateDetail | null): StepContext {
  const excel = template?.excel ?? null;
  return {
    hasTemplate: template !== null,
    isEncrypted: template?.isEncrypted ?? false,
    hasExcel: excel !== null && !excel.message,
    mailMergeStatus: wizard.mailMergeStatus,
  };
}

export function changeStep(to: number) {
  return async (dispatch: AppDispatch, getState: () => RootState): Promise<StepOutcome> => {
    const start = getState().wizard;
    if (start.stepChanging) return { kind: 'stale' };
    const startTemplate = wizardDetailNow(start.templateId);
    const decision = decideStepChange(start.activeStep, to, stepContext(start, startTemplate));
    if (!decision.allowed || !startTemplate) return { kind: 'blocked', reason: decision.reason };
    const templateId = startTemplate.id;
    dispatch(stepChanging(true));
    try {
      if (decision.saveEditor) {
        const result = await dispatch(saveEditorChanges(templateId));
        if (result === 'failed') return { kind: 'saveFailed' };
        if (result === 'saved') {
          // Placeholders (and a changed header row) change what later steps check and count.
          const detail = await api.call('getTemplate', { params: { id: templateId } }).catch(() => null);
          if (detail && getState().wizard.templateId === templateId) dispatch(templateReceived(detail));
        }
      }
      const now = getState().wizard;
      const template = wizardDetailNow(now.templateId);
      if (now.activeStep !== start.activeStep || now.templateId !== templateId || !template) return { kind: 'stale' };
      const placeholders = template.placeholders;
      // A Word template's fields are in its document; the server checks them against the headings when
      // the merge starts (docs/word-templates.md#merging).
      const word = template.templateType === 'sfdt';
      if (decision.verifyPlaceholders && !word && placeholders.length === 0) return { kind: 'blocked', reason: 'merge/no-placeholders' };
      if (decision.verifyMatching && !word && noPlaceholderMatches(placeholders, template.excel?.headers ?? [])) {
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
