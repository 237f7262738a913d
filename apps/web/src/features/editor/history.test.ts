import { describe, expect, it } from 'vitest';
import { EDITOR_HISTORY_STEPS } from '@sheaf/shared';
import { canRedo, canUndo, commit, createHistory, isChanged, markSaved, redo, undo, type History } from './history.ts';

function commitAll<T>(history: History<T>, values: T[], group: string | null = null): History<T> {
  return values.reduce((h, value) => commit(h, value, group), history);
}

describe('editor history', () => {
  it('undoes and redoes changes in order', () => {
    let h = commitAll(createHistory(0), [1, 2, 3]);
    h = undo(undo(h));
    expect(h.present.value).toBe(1);
    h = redo(h);
    expect(h.present.value).toBe(2);
    expect(canRedo(h)).toBe(true);
    h = redo(h);
    expect(h.present.value).toBe(3);
    expect(canRedo(h)).toBe(false);
  });

  it('does nothing on undo with no past or redo with no future', () => {
    const h = createHistory('a');
    expect(canUndo(h)).toBe(false);
    expect(undo(h)).toBe(h);
    expect(redo(h)).toBe(h);
  });

  it(`keeps at most ${EDITOR_HISTORY_STEPS} steps to undo`, () => {
    const values = Array.from({ length: 150 }, (_, i) => i + 1);
    let h = commitAll(createHistory(0), values);
    expect(h.past).toHaveLength(EDITOR_HISTORY_STEPS);
    let undos = 0;
    while (canUndo(h)) {
      h = undo(h);
      undos += 1;
    }
    expect(undos).toBe(EDITOR_HISTORY_STEPS);
    // The oldest reachable state is 100 steps back from 150, not the initial 0.
    expect(h.present.value).toBe(50);
    expect(h.future).toHaveLength(EDITOR_HISTORY_STEPS);
  });

  it('merges consecutive changes of one group into a single step', () => {
    let h = commit(createHistory(''), 'x');
    h = commitAll(h, ['H', 'He', 'Hel', 'Hell', 'Hello'], 'field:name');
    expect(h.present.value).toBe('Hello');
    h = undo(h);
    expect(h.present.value).toBe('x');
  });

  it('starts a new step when the group changes or after an undo', () => {
    let h = commitAll(createHistory(0), [1, 2], 'drag:1');
    h = commitAll(h, [3, 4], 'drag:2');
    expect(undo(h).present.value).toBe(2);
    h = undo(h); // back to 2
    h = commit(h, 5, 'drag:1'); // same key as an older gesture, still a new step
    expect(undo(h).present.value).toBe(2);
  });

  it('clears the redo stack on a new change', () => {
    let h = commitAll(createHistory(0), [1, 2]);
    h = undo(h);
    expect(canRedo(h)).toBe(true);
    h = commit(h, 7);
    expect(canRedo(h)).toBe(false);
    expect(redo(h).present.value).toBe(7);
  });

  it('is changed when the present step differs from the saved one', () => {
    let h = createHistory(0);
    expect(isChanged(h)).toBe(false);
    h = commit(h, 1);
    expect(isChanged(h)).toBe(true);
    h = undo(h);
    expect(isChanged(h)).toBe(false);
    h = commit(h, 2);
    h = markSaved(h);
    expect(isChanged(h)).toBe(false);
    h = undo(h);
    expect(isChanged(h)).toBe(true);
    h = redo(h);
    expect(isChanged(h)).toBe(false);
  });

  it('stays changed after undo + a new edit that happens to have the same value', () => {
    let h = commit(createHistory(0), 1);
    h = markSaved(h);
    h = undo(h);
    h = commit(h, 1);
    expect(isChanged(h)).toBe(true);
  });

  it('marks the step that was sent, leaving later edits unsaved', () => {
    let h = commit(createHistory(0), 1);
    const sent = h.present.step;
    h = commit(h, 2);
    h = markSaved(h, sent);
    expect(isChanged(h)).toBe(true);
    expect(isChanged(undo(h))).toBe(false);
  });

  it('does not merge typing after a save into the saved step', () => {
    let h = commit(createHistory(''), 'a', 'field');
    h = markSaved(h);
    h = commit(h, 'ab', 'field');
    expect(isChanged(h)).toBe(true);
    expect(undo(h).present.value).toBe('a');
  });
});
