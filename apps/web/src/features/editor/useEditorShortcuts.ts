/**
 * Editor keyboard shortcuts (docs/editor.md#editing): arrows nudge (Shift: 10 px), Delete/Backspace
 * remove, Ctrl/Cmd+Z undo, Ctrl/Cmd+Shift+Z and Ctrl/Cmd+Y redo, Ctrl/Cmd+D duplicate, Escape clears
 * the selection, Ctrl/Cmd +/- zoom, Ctrl/Cmd+S saves. Typing in a field keeps the field's own keys.
 */
import { useEffect } from 'react';
import { useAppDispatch, useAppSelector } from '../../app/hooks.ts';
import { isArrowKey, stepZoom } from './geometry.ts';
import { duplicateSelected, nudgeSelected, redo, removeSelected, select, selectEditorDoc, selectSelection, setZoom, undo } from './editorSlice.ts';
import { saveEditorChanges } from './save.ts';
import { focusPagesView } from './focus.ts';

function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName) || target.closest('[role="dialog"], [role="listbox"], [role="menu"]') !== null;
}

export function useEditorShortcuts(templateId: string): void {
  const dispatch = useAppDispatch();
  const doc = useAppSelector(selectEditorDoc);
  const zoom = doc?.zoom ?? 1;
  const selection = useAppSelector(selectSelection);
  const hasSelection = selection.length > 0;

  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      const mod = event.ctrlKey || event.metaKey;
      const key = event.key.toLowerCase();
      if (mod && key === 's') {
        event.preventDefault();
        void dispatch(saveEditorChanges(templateId));
        return;
      }
      if (mod && (key === '+' || key === '=' || key === '-')) {
        event.preventDefault();
        dispatch(setZoom(stepZoom(zoom, key === '-' ? -1 : 1)));
        return;
      }
      if (isTyping(event.target)) return;
      if (mod && key === 'z') {
        event.preventDefault();
        dispatch(event.shiftKey ? redo() : undo());
      } else if (mod && key === 'y') {
        event.preventDefault();
        dispatch(redo());
      } else if (mod && key === 'd') {
        event.preventDefault();
        if (hasSelection) dispatch(duplicateSelected(selection));
      } else if (!mod && hasSelection && isArrowKey(event.key)) {
        event.preventDefault();
        dispatch(nudgeSelected({ key: event.key, shift: event.shiftKey }));
      } else if (!mod && hasSelection && (event.key === 'Delete' || event.key === 'Backspace')) {
        event.preventDefault();
        dispatch(removeSelected());
        focusPagesView();
      } else if (event.key === 'Escape' && hasSelection) {
        dispatch(select([]));
      }
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [dispatch, templateId, zoom, selection, hasSelection]);
}
