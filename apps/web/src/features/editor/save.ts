/**
 * Saving the editor's placeholders (docs/web-app.md#step-changes): the wizard awaits this before
 * leaving step 2, and Ctrl/Cmd+S calls it. It reports by snackbar itself and resolves to what happened.
 */
import type { Dispatch, UnknownAction } from '@reduxjs/toolkit';
import { api } from '../../api/client.ts';
import i18next from '../../i18n/index.ts';
import { templateReceived } from '../wizard/templateDetail.ts';
import { translateError } from '../../i18n/errors.ts';
import { showSnackbar } from '../../app/snackbarSlice.ts';
import { isChanged } from './history.ts';
import { hasWordEdits, saveWordEdits } from '../wordEditor/wordEdits.ts';
import { markSaved, savingFailed, savingStarted, type EditorState } from './editorSlice.ts';

export type SaveResult = 'saved' | 'unchanged' | 'failed';

/** One save at a time per template: a second request waits for the first, then saves what is newer. */
const inFlight = new Map<string, Promise<SaveResult>>();

export function saveEditorChanges(templateId: string) {
  return async (dispatch: Dispatch<UnknownAction>, getState: () => { editor: EditorState }): Promise<SaveResult> => {
    // A Word template's edits are its document's (features/wordEditor); it has no placeholders to save.
    if (hasWordEdits(templateId)) return saveWordEdits(templateId)(dispatch);
    const running = inFlight.get(templateId);
    if (running) await running.catch(() => undefined);
    const doc = getState().editor.doc;
    if (!doc || doc.templateId !== templateId || !isChanged(doc.history)) return 'unchanged';
    const { step, value: placeholders } = doc.history.present;
    const attempt = (async (): Promise<SaveResult> => {
      dispatch(savingStarted());
      try {
        const detail = await api.call('updatePlaceholders', {
          params: { id: templateId },
          body: { templateId, placeholders, ...(placeholders.length === 0 ? { forceDeleteAllPlaceholders: true } : {}) },
        });
        dispatch(markSaved({ templateId, step }));
        // The wizard's template (placeholder count, checks before a merge) follows.
        templateReceived(detail)(dispatch);
        dispatch(showSnackbar({ type: 'success', message: i18next.t('editor:save.success') }));
        return 'saved';
      } catch (error) {
        dispatch(savingFailed());
        const reason = translateError(error, i18next.t);
        dispatch(showSnackbar({ type: 'error', message: `${i18next.t('editor:save.failure')} ${reason}` }));
        return 'failed';
      }
    })();
    inFlight.set(templateId, attempt);
    try {
      return await attempt;
    } finally {
      if (inFlight.get(templateId) === attempt) inFlight.delete(templateId);
    }
  };
}
