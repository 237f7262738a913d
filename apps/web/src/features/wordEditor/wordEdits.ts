/**
 * The Word document open in step 2 and whether it has unsaved edits, kept outside React and Redux (a
 * parsed XML document is no serialisable state): the editor reads it, the wizard's step change and the
 * leave guard save it (docs/web-app.md#step-changes), Ctrl+S and the Save button too. One save at a time
 * per template, like the placeholders' (features/editor/save.ts).
 */
import { useSyncExternalStore } from 'react';
import type { Dispatch, UnknownAction } from '@reduxjs/toolkit';
import { api } from '../../api/client.ts';
import i18next from '../../i18n/index.ts';
import { translateError } from '../../i18n/errors.ts';
import { showSnackbar } from '../../app/snackbarSlice.ts';
import { templateReceived } from '../wizard/templateDetail.ts';
import { saveDocx, type WordDocument } from './docxModel.ts';
import { EditHistory } from './editHistory.ts';

export interface OpenWordDocument {
  templateId: string;
  /** The checksum of the stored DOCX this document was read from (or last saved as). */
  checksum: string;
  document: WordDocument;
  /** Undo and redo of the edits since the document was opened (saves included). */
  history: EditHistory;
  dirty: boolean;
  saving: boolean;
}

let current: OpenWordDocument | null = null;
let version = 0;
const listeners = new Set<() => void>();
const inFlight = new Map<string, Promise<WordSaveResult>>();

function changed(): void {
  version++;
  listeners.forEach((listener) => listener());
}

export function openedWordDocument(templateId: string): OpenWordDocument | null {
  return current?.templateId === templateId ? current : null;
}

export function setWordDocument(templateId: string, checksum: string, document: WordDocument): void {
  current = { templateId, checksum, document, history: new EditHistory(), dirty: false, saving: false };
  changed();
}

/** The document was edited (the editor changed `document` in place). */
export function markWordEdited(templateId: string): void {
  if (current?.templateId !== templateId) return;
  current.dirty = true;
  changed();
}

/** Forget the edits (the user chose to discard them, or left the template). */
export function discardWordEdits(templateId: string): void {
  if (current?.templateId !== templateId) return;
  current = null;
  changed();
}

export function hasWordEdits(templateId: string): boolean {
  return current?.templateId === templateId && current.dirty;
}

/** Re-renders on every change of the open document; returns a counter that changes with it. */
export function useWordEdits(): number {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => version,
  );
}

export type WordSaveResult = 'saved' | 'unchanged' | 'failed';

/** Sends the edited DOCX (PATCH updateSfdt); the server checks it again and answers the template. */
export function saveWordEdits(templateId: string) {
  return async (dispatch: Dispatch<UnknownAction>): Promise<WordSaveResult> => {
    const running = inFlight.get(templateId);
    if (running) await running.catch(() => undefined);
    const open = openedWordDocument(templateId);
    if (!open || !open.dirty) return 'unchanged';
    const attempt = (async (): Promise<WordSaveResult> => {
      const savedVersion = version;
      open.saving = true;
      changed();
      try {
        const bytes = saveDocx(open.document);
        const file = new File([bytes as BlobPart], 'template.docx', { type: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document' });
        const detail = await api.call('updateSfdt', { params: { id: templateId }, file });
        open.checksum = detail.checksum;
        // Edits made while the save was under way stay unsaved.
        open.dirty = version !== savedVersion + 1;
        templateReceived(detail)(dispatch);
        dispatch(showSnackbar({ type: 'success', message: i18next.t('editor:word.saved') }));
        return 'saved';
      } catch (error) {
        dispatch(showSnackbar({ type: 'error', message: `${i18next.t('editor:save.failure')} ${translateError(error, i18next.t)}` }));
        return 'failed';
      } finally {
        open.saving = false;
        changed();
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
