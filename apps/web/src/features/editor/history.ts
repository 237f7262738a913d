/**
 * Undo/redo history of the placeholder editor (docs/editor.md#undo-and-redo), pure and serialisable so
 * it can live in the Redux store. Every state carries a step number that is never reused, so "changed"
 * is simply "the present step is not the one last saved", even after undo + a new edit.
 */
import { EDITOR_HISTORY_STEPS } from '@sheaf/shared';

export interface Step<T> {
  step: number;
  value: T;
}

export interface History<T> {
  /** Oldest first; the last entry is what undo returns to. */
  past: Step<T>[];
  present: Step<T>;
  /** The last entry is what redo returns to. */
  future: Step<T>[];
  /** Key of the change that made `present`; a commit with the same key merges into it. */
  group: string | null;
  /** Step number last saved to the server. */
  savedStep: number;
  nextStep: number;
}

export function createHistory<T>(value: T): History<T> {
  return { past: [], present: { step: 0, value }, future: [], group: null, savedStep: 0, nextStep: 1 };
}

/**
 * Records a change. A change with the same `group` as the previous one (one drag gesture, typing in
 * one field, a run of nudges) replaces the present instead of adding a step, so undo takes back the
 * whole run. Any new change clears the redo stack.
 */
export function commit<T>(history: History<T>, value: T, group: string | null = null, limit = EDITOR_HISTORY_STEPS): History<T> {
  const present = { step: history.nextStep, value };
  const merge = group !== null && group === history.group && history.future.length === 0;
  const past = merge ? history.past : [...history.past, history.present].slice(-limit);
  return { ...history, past, present, future: [], group, nextStep: history.nextStep + 1 };
}

export function canUndo<T>(history: History<T>): boolean {
  return history.past.length > 0;
}

export function canRedo<T>(history: History<T>): boolean {
  return history.future.length > 0;
}

export function undo<T>(history: History<T>, limit = EDITOR_HISTORY_STEPS): History<T> {
  const previous = history.past[history.past.length - 1];
  if (!previous) return history;
  return {
    ...history,
    past: history.past.slice(0, -1),
    present: previous,
    future: [...history.future, history.present].slice(-limit),
    group: null,
  };
}

export function redo<T>(history: History<T>, limit = EDITOR_HISTORY_STEPS): History<T> {
  const next = history.future[history.future.length - 1];
  if (!next) return history;
  return {
    ...history,
    past: [...history.past, history.present].slice(-limit),
    present: next,
    future: history.future.slice(0, -1),
    group: null,
  };
}

/** Marks a step as saved (the one that was sent; the user may have edited on while it was in flight). */
export function markSaved<T>(history: History<T>, step: number = history.present.step): History<T> {
  // A saved state ends any running group, so later typing starts a step of its own.
  return { ...history, savedStep: step, group: step === history.present.step ? null : history.group };
}

export function isChanged<T>(history: History<T>): boolean {
  return history.present.step !== history.savedStep;
}
