import { describe, expect, it } from 'vitest';
import { backAction, decideStepChange, stepBlockReason, type StepContext } from './stepRules.ts';

const ready: StepContext = { hasTemplate: true, isEncrypted: false, hasExcel: true, mailMergeStatus: 'initial' };

describe('wizard step changes', () => {
  it('saves the placeholder editor when leaving step 2, in either direction', () => {
    expect(decideStepChange(1, 2, ready)).toMatchObject({ allowed: true, saveEditor: true });
    expect(decideStepChange(1, 0, ready)).toMatchObject({ allowed: true, saveEditor: true });
    expect(decideStepChange(2, 3, ready).saveEditor).toBe(false);
  });

  it('checks for placeholders when jumping from step 1 past step 2 and before step 4', () => {
    expect(decideStepChange(0, 2, ready).verifyPlaceholders).toBe(true);
    expect(decideStepChange(0, 3, ready).verifyPlaceholders).toBe(true);
    expect(decideStepChange(2, 3, ready).verifyPlaceholders).toBe(true);
    expect(decideStepChange(0, 1, ready).verifyPlaceholders).toBe(false);
    expect(decideStepChange(1, 2, ready).verifyPlaceholders).toBe(false);
  });

  it('checks that placeholders match the headings when entering step 4', () => {
    expect(decideStepChange(2, 3, ready).verifyMatching).toBe(true);
    expect(decideStepChange(1, 2, ready).verifyMatching).toBe(false);
  });

  it('discards generated documents when going back from step 4 or from step 3', () => {
    expect(decideStepChange(3, 1, ready).resetMerge).toBe(true);
    expect(decideStepChange(3, 0, ready).resetMerge).toBe(true);
    expect(decideStepChange(3, 2, { ...ready, mailMergeStatus: 'completed' }).resetMerge).toBe(true);
    expect(decideStepChange(2, 1, ready).resetMerge).toBe(true);
    expect(decideStepChange(1, 0, ready).resetMerge).toBe(false);
    expect(decideStepChange(2, 3, ready).resetMerge).toBe(false);
  });

  it('keeps the user on step 4 while a merge runs, online or not', () => {
    expect(decideStepChange(3, 2, { ...ready, mailMergeStatus: 'checker' }).allowed).toBe(false);
    expect(decideStepChange(3, 0, { ...ready, mailMergeStatus: 'offline' }).allowed).toBe(false);
  });

  it('allows only step 1 before a template exists or while it is locked', () => {
    expect(decideStepChange(0, 1, { ...ready, hasTemplate: false }).allowed).toBe(false);
    expect(decideStepChange(0, 2, { ...ready, isEncrypted: true }).allowed).toBe(false);
    expect(decideStepChange(2, 0, { ...ready, isEncrypted: true }).allowed).toBe(true);
  });

  it('refuses step 4 without a spreadsheet and says why', () => {
    const decision = decideStepChange(2, 3, { ...ready, hasExcel: false });
    expect(decision).toMatchObject({ allowed: false, reason: 'sheet/missing' });
    expect(stepBlockReason(2, { ...ready, hasExcel: false })).toBeNull();
  });

  it('does nothing when the step stays the same and rejects unknown steps', () => {
    expect(decideStepChange(2, 2, ready).allowed).toBe(false);
    expect(() => decideStepChange(0, 4, ready)).toThrow(/unknown wizard step/);
    expect(() => decideStepChange(0, -1, ready)).toThrow(/unknown wizard step/);
  });

  it('Back returns to the initial view after an error on step 4 and is disabled while generating', () => {
    expect(backAction(3, 'error')).toBe('resetStatus');
    expect(backAction(3, 'completed')).toBe('previousStep');
    expect(backAction(3, 'checker')).toBe('disabled');
    expect(backAction(0, 'initial')).toBe('disabled');
    expect(backAction(2, 'initial')).toBe('previousStep');
  });
});
