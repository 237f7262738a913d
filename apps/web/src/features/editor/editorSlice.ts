/**
 * Editor state (docs/editor.md#editing): the placeholders of the template being edited with
 * their undo/redo history, the selection, zoom, current page, preview settings and the live drag or
 * resize gesture. Placeholders change only through history commits, so `changed` is exact.
 */
import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { ExcelMeta, Placeholder } from '@sheaf/shared';
import { canRedo, canUndo, commit, createHistory, isChanged, markSaved as markHistorySaved, redo as redoHistory, undo as undoHistory, type History } from './history.ts';
import { clampBox, moveBox, nudgeBox, pagePixels, pageSizeOf, resizeBox, type ArrowKey, type ResizeHandle, type Size } from './geometry.ts';
import { newPlaceholderId } from './placeholders.ts';

/** A drag or resize in progress, in on-screen pixels; committed as one step at pointer up. */
export interface Gesture {
  kind: 'move' | 'resize';
  ids: string[];
  handle?: ResizeHandle;
  dx: number;
  dy: number;
}

export interface EditorDoc {
  templateId: string;
  /** Page sizes in points (from the template detail). */
  pages: Size[];
  history: History<Placeholder[]>;
  selection: string[];
  /** CSS pixels per point; 0 until the view has measured itself and fitted the page width. */
  zoom: number;
  /** The page shown at the top of the view (1-based). */
  pageNumber: number;
  previewOpen: boolean;
  showLongestOccurrence: boolean;
  gesture: Gesture | null;
  saving: boolean;
}

export interface EditorState {
  doc: EditorDoc | null;
}

interface WithEditor {
  editor: EditorState;
}

const initialState: EditorState = { doc: null };

type Changes = Record<string, Partial<Placeholder>>;

function apply(doc: EditorDoc, change: (list: Placeholder[]) => Placeholder[], group: string | null = null): void {
  doc.history = commit(doc.history, change(doc.history.present.value), group);
}

function zoomedPage(doc: EditorDoc, pageNumber: number): Size {
  return pagePixels(pageSizeOf(doc.pages, pageNumber), doc.zoom);
}

/** A placeholder as a gesture in progress shows it (the committed value when the gesture does not touch it). */
export function applyGesture(gesture: Gesture | null, placeholder: Placeholder, pagePx: Size): Placeholder {
  if (!gesture || !gesture.ids.includes(placeholder.id)) return placeholder;
  const box = gesture.kind === 'move'
    ? moveBox(placeholder, gesture.dx, gesture.dy, pagePx)
    : resizeBox(placeholder, gesture.handle ?? 'se', gesture.dx, gesture.dy, pagePx);
  return { ...placeholder, ...box };
}

function withGesture(doc: EditorDoc, placeholder: Placeholder): Placeholder {
  return applyGesture(doc.gesture, placeholder, zoomedPage(doc, placeholder.pageNumber));
}

const editorSlice = createSlice({
  name: 'editor',
  initialState,
  reducers: {
    /** Opens a template. Returning to the template already open keeps its edits and history. */
    openTemplate(state, action: PayloadAction<{ templateId: string; placeholders: Placeholder[]; pages: Size[] }>) {
      const { templateId, placeholders, pages } = action.payload;
      if (state.doc?.templateId === templateId) {
        state.doc.pages = pages;
        state.doc.gesture = null;
        return;
      }
      state.doc = {
        templateId, pages, history: createHistory(placeholders), selection: [], zoom: 0, pageNumber: 1,
        previewOpen: false, showLongestOccurrence: false, gesture: null, saving: false,
      };
    },
    closeTemplate(state) {
      state.doc = null;
    },
    addPlaceholder(state, action: PayloadAction<Placeholder>) {
      const doc = state.doc;
      if (!doc) return;
      apply(doc, (list) => [...list, action.payload]);
      doc.selection = [action.payload.id];
    },
    /** Property edits; `group` merges consecutive edits of one field into one undo step. */
    updatePlaceholders(state, action: PayloadAction<{ changes: Changes; group?: string }>) {
      const doc = state.doc;
      if (!doc) return;
      const { changes, group } = action.payload;
      apply(doc, (list) => list.map((item) => (changes[item.id] ? { ...item, ...changes[item.id], id: item.id } : item)), group ?? null);
    },
    removeSelected(state) {
      const doc = state.doc;
      if (!doc || doc.selection.length === 0) return;
      const gone = new Set(doc.selection);
      apply(doc, (list) => list.filter((item) => !gone.has(item.id)));
      doc.selection = [];
    },
    duplicateSelected: {
      reducer(state, action: PayloadAction<{ ids: Record<string, string> }>) {
        const doc = state.doc;
        if (!doc || doc.selection.length === 0) return;
        const list = doc.history.present.value;
        const copies = list
          .filter((item) => action.payload.ids[item.id])
          .map((item) => ({ ...item, ...moveBox(item, 10, 10, zoomedPage(doc, item.pageNumber)), id: action.payload.ids[item.id] }));
        apply(doc, () => [...list, ...copies]);
        doc.selection = copies.map((copy) => copy.id);
      },
      // Ids are made here, not in the reducer, which must stay pure.
      prepare(selection: string[]) {
        return { payload: { ids: Object.fromEntries(selection.map((id) => [id, newPlaceholderId()])) } };
      },
    },
    /** Arrow keys: runs of nudges of the same selection are one undo step. */
    nudgeSelected(state, action: PayloadAction<{ key: ArrowKey; shift: boolean }>) {
      const doc = state.doc;
      if (!doc || doc.selection.length === 0) return;
      const selected = new Set(doc.selection);
      apply(
        doc,
        (list) => list.map((item) => (selected.has(item.id) ? { ...item, ...nudgeBox(item, action.payload.key, action.payload.shift, zoomedPage(doc, item.pageNumber)) } : item)),
        `nudge:${doc.selection.join(',')}`,
      );
    },
    select(state, action: PayloadAction<string[]>) {
      if (state.doc) state.doc.selection = action.payload;
    },
    /** Shift/Ctrl/Cmd click: adds or removes one placeholder. */
    toggleSelected(state, action: PayloadAction<string>) {
      const doc = state.doc;
      if (!doc) return;
      doc.selection = doc.selection.includes(action.payload) ? doc.selection.filter((id) => id !== action.payload) : [...doc.selection, action.payload];
    },
    startGesture(state, action: PayloadAction<{ kind: Gesture['kind']; ids: string[]; handle?: ResizeHandle }>) {
      if (state.doc) state.doc.gesture = { ...action.payload, dx: 0, dy: 0 };
    },
    updateGesture(state, action: PayloadAction<{ dx: number; dy: number }>) {
      const gesture = state.doc?.gesture;
      if (gesture) Object.assign(gesture, action.payload);
    },
    /** Pointer up: the whole drag or resize becomes one undo step (none if nothing moved). */
    endGesture(state) {
      const doc = state.doc;
      const gesture = doc?.gesture;
      if (!doc || !gesture) return;
      if (gesture.dx !== 0 || gesture.dy !== 0) {
        const final = doc.history.present.value.map((item) => withGesture(doc, item));
        doc.history = commit(doc.history, final);
      }
      doc.gesture = null;
    },
    cancelGesture(state) {
      if (state.doc) state.doc.gesture = null;
    },
    undo(state) {
      const doc = state.doc;
      if (!doc) return;
      doc.history = undoHistory(doc.history);
      dropMissingFromSelection(doc);
    },
    redo(state) {
      const doc = state.doc;
      if (!doc) return;
      doc.history = redoHistory(doc.history);
      dropMissingFromSelection(doc);
    },
    savingStarted(state) {
      if (state.doc) state.doc.saving = true;
    },
    /** The server has the placeholders of `step`; also ends the saving state. */
    markSaved(state, action: PayloadAction<{ templateId: string; step: number }>) {
      const doc = state.doc;
      if (!doc || doc.templateId !== action.payload.templateId) return;
      doc.history = markHistorySaved(doc.history, action.payload.step);
      doc.saving = false;
    },
    savingFailed(state) {
      if (state.doc) state.doc.saving = false;
    },
    setZoom(state, action: PayloadAction<number>) {
      if (state.doc) state.doc.zoom = action.payload;
    },
    setPageNumber(state, action: PayloadAction<number>) {
      if (state.doc) state.doc.pageNumber = action.payload;
    },
    setPreviewOpen(state, action: PayloadAction<boolean>) {
      if (state.doc) state.doc.previewOpen = action.payload;
    },
    setShowLongestOccurrence(state, action: PayloadAction<boolean>) {
      if (state.doc) state.doc.showLongestOccurrence = action.payload;
    },
  },
});

function dropMissingFromSelection(doc: EditorDoc): void {
  const present = new Set(doc.history.present.value.map((item) => item.id));
  doc.selection = doc.selection.filter((id) => present.has(id));
}

/** Identifies a spreadsheet version (the preview starts afresh for another one). */
export function excelKey(excel: ExcelMeta | null): string {
  return excel ? `${excel.excelName}|${excel.excelFileSize}|${excel.headersRowNo}|${excel.totalRowCount}` : '';
}

/** Clamps a box edit typed into the properties panel (position and size fields). */
export function clampedBox(placeholder: Placeholder, patch: Partial<Placeholder>): Partial<Placeholder> {
  return { ...patch, ...clampBox({ ...placeholder, ...patch }) };
}

export const {
  openTemplate, closeTemplate, addPlaceholder, updatePlaceholders, removeSelected, duplicateSelected, nudgeSelected, select,
  toggleSelected, startGesture, updateGesture, endGesture, cancelGesture, undo, redo, savingStarted, markSaved, savingFailed,
  setZoom, setPageNumber, setPreviewOpen, setShowLongestOccurrence,
} = editorSlice.actions;

const EMPTY: Placeholder[] = [];
const EMPTY_IDS: string[] = [];

export const selectEditorDoc = (state: WithEditor): EditorDoc | null => state.editor.doc;
export const selectPlaceholders = (state: WithEditor): Placeholder[] => state.editor.doc?.history.present.value ?? EMPTY;
/** How many placeholders the template has in the editor (the wizard needs at least one to go on). */
export const selectPlaceholderCount = (state: WithEditor): number => state.editor.doc?.history.present.value.length ?? 0;
export const selectIsChanged = (state: WithEditor): boolean => (state.editor.doc ? isChanged(state.editor.doc.history) : false);
export const selectCanUndo = (state: WithEditor): boolean => (state.editor.doc ? canUndo(state.editor.doc.history) : false);
export const selectCanRedo = (state: WithEditor): boolean => (state.editor.doc ? canRedo(state.editor.doc.history) : false);
export const selectSelection = (state: WithEditor): string[] => state.editor.doc?.selection ?? EMPTY_IDS;

export default editorSlice.reducer;
