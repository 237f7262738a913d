import { describe, expect, it } from 'vitest';
import { configureStore } from '@reduxjs/toolkit';
import type { Placeholder } from '@sheaf/shared';
import editor, {
  addPlaceholder, duplicateSelected, endGesture, markSaved, nudgeSelected, openTemplate, redo, removeSelected, select, selectCanRedo,
  selectCanUndo, selectIsChanged, selectPlaceholderCount, selectPlaceholders, setZoom, startGesture, toggleSelected, undo, updateGesture,
  updatePlaceholders,
} from './editorSlice.ts';
import { createPlaceholder } from './placeholders.ts';

const page = { width: 600, height: 800 };

function setup(placeholders: Placeholder[] = []) {
  const store = configureStore({ reducer: { editor } });
  store.dispatch(openTemplate({ templateId: 'T'.repeat(20), placeholders, pages: [page, page] }));
  store.dispatch(setZoom(1));
  return store;
}

const at = (column: string, x: number, y: number, pageNumber = 1): Placeholder => ({ ...createPlaceholder(column, pageNumber, page, { x, y }), id: column });

describe('editor state', () => {
  it('counts placeholders and marks the template changed until saved', () => {
    const store = setup([at('Name', 0.5, 0.5)]);
    expect(selectPlaceholderCount(store.getState())).toBe(1);
    expect(selectIsChanged(store.getState())).toBe(false);
    store.dispatch(addPlaceholder(at('City', 0.5, 0.2)));
    expect(selectPlaceholderCount(store.getState())).toBe(2);
    expect(selectIsChanged(store.getState())).toBe(true);
    store.dispatch(markSaved({ templateId: 'T'.repeat(20), step: store.getState().editor.doc!.history.present.step }));
    expect(selectIsChanged(store.getState())).toBe(false);
  });

  it('keeps unsaved edits when the same template is opened again, starts afresh for another', () => {
    const store = setup([at('Name', 0.5, 0.5)]);
    store.dispatch(addPlaceholder(at('City', 0.5, 0.2)));
    store.dispatch(openTemplate({ templateId: 'T'.repeat(20), placeholders: [], pages: [page] }));
    expect(selectPlaceholderCount(store.getState())).toBe(2);
    store.dispatch(openTemplate({ templateId: 'U'.repeat(20), placeholders: [], pages: [page] }));
    expect(selectPlaceholderCount(store.getState())).toBe(0);
    expect(selectCanUndo(store.getState())).toBe(false);
  });

  it('makes a whole drag of several placeholders one undo step, clamped to each page', () => {
    const store = setup([at('A', 0.2, 0.2), at('B', 0.5, 0.5, 2)]);
    store.dispatch(select(['A', 'B']));
    store.dispatch(startGesture({ kind: 'move', ids: ['A', 'B'] }));
    for (let step = 1; step <= 20; step += 1) store.dispatch(updateGesture({ dx: step * 5, dy: step * 100 }));
    store.dispatch(endGesture());
    const [a, b] = selectPlaceholders(store.getState());
    expect(a.relativeX).toBeCloseTo(0.2 - a.relativeWidth / 2 + 100 / 600);
    expect(a.relativeY + a.relativeHeight).toBeCloseTo(1); // stopped at the bottom of page 1
    expect(b.pageNumber).toBe(2);
    store.dispatch(undo());
    expect(selectPlaceholders(store.getState())[0].relativeY).toBeCloseTo(0.2 - a.relativeHeight / 2);
    expect(selectCanUndo(store.getState())).toBe(false);
  });

  it('adds no step for a click that did not move', () => {
    const store = setup([at('A', 0.2, 0.2)]);
    store.dispatch(startGesture({ kind: 'move', ids: ['A'] }));
    store.dispatch(endGesture());
    expect(selectCanUndo(store.getState())).toBe(false);
  });

  it('groups a run of nudges and typing in one field into one step each', () => {
    const store = setup([at('A', 0.5, 0.5)]);
    const before = selectPlaceholders(store.getState())[0];
    store.dispatch(select(['A']));
    for (let i = 0; i < 5; i += 1) store.dispatch(nudgeSelected({ key: 'ArrowRight', shift: true }));
    expect(selectPlaceholders(store.getState())[0].relativeX).toBeCloseTo(before.relativeX + 50 / 600);
    for (const column of ['N', 'Na', 'Nam', 'Name']) store.dispatch(updatePlaceholders({ changes: { A: { column } }, group: 'prop:column:A' }));
    store.dispatch(undo());
    expect(selectPlaceholders(store.getState())[0].column).toBe('A');
    expect(selectPlaceholders(store.getState())[0].relativeX).toBeCloseTo(before.relativeX + 50 / 600);
    store.dispatch(undo());
    expect(selectPlaceholders(store.getState())[0].relativeX).toBeCloseTo(before.relativeX);
    store.dispatch(redo());
    store.dispatch(redo());
    expect(selectPlaceholders(store.getState())[0].column).toBe('Name');
    expect(selectCanRedo(store.getState())).toBe(false);
  });

  it('duplicates and removes the selection; undo brings removed ones back and drops them from the selection', () => {
    const store = setup([at('A', 0.5, 0.5), at('B', 0.2, 0.2)]);
    store.dispatch(select(['A']));
    store.dispatch(toggleSelected('B'));
    store.dispatch(duplicateSelected(['A', 'B']));
    const list = selectPlaceholders(store.getState());
    expect(list).toHaveLength(4);
    const copies = store.getState().editor.doc!.selection;
    expect(copies).toHaveLength(2);
    expect(copies).not.toContain('A');
    expect(list.find((item) => item.id === copies[0])!.column).toBe('A');
    store.dispatch(removeSelected());
    expect(selectPlaceholderCount(store.getState())).toBe(2);
    store.dispatch(undo()); // the copies are back
    expect(selectPlaceholderCount(store.getState())).toBe(4);
    store.dispatch(undo()); // before duplicating: copies gone, so not selected
    expect(store.getState().editor.doc!.selection).toEqual([]);
  });
});
