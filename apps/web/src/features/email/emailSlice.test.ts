import { describe, expect, it } from 'vitest';
import { DEFAULT_EMAIL_SETTINGS } from '@sheaf/shared';
import reducer, { emailChanged, emailLoaded, emailSaved, setFormErrors, unsavedChanges, type EmailState } from './emailSlice.ts';

const ID = 'T'.repeat(20);
const run = (...actions: Parameters<typeof reducer>[1][]): EmailState => actions.reduce(reducer, reducer(undefined, { type: 'init' }));
const loaded = emailLoaded({ templateId: ID, settings: { ...DEFAULT_EMAIL_SETTINGS, isActive: true } });

describe('email draft', () => {
  it('clears formErrors.fromEmail as soon as a sender is chosen, and only that error', () => {
    const state = run(loaded, setFormErrors({ fromEmail: { code: 'email/no-sender' }, subject: { code: 'email/subject-empty' } }), emailChanged({ senderId: 's1' }));
    expect(state.formErrors).toEqual({ subject: { code: 'email/subject-empty' } });
    expect(run(loaded, setFormErrors({ subject: { code: 'email/subject-empty' } }), emailChanged({ isActive: false })).formErrors).toEqual({});
  });

  // The saved settings are the template's (in the query cache): unsavedChanges compares the draft with them.
  it('knows what is not saved yet and keeps what was typed while a save was under way', () => {
    const savedAtLoad = { ...DEFAULT_EMAIL_SETTINGS, isActive: true };
    const typed = run(loaded, emailChanged({ subject: 'Hello ' }));
    expect(unsavedChanges(typed.settings, savedAtLoad)).toEqual({ subject: 'Hello ' });
    const later = reducer(typed, emailChanged({ subject: 'Hello again' }));
    // The server's answer to the first save ('Hello ' trimmed) must not overwrite the newer text.
    const answer = { ...later.settings, subject: 'Hello' };
    const saved = reducer(later, emailSaved({ templateId: ID, sent: { subject: 'Hello ' }, settings: answer }));
    expect(saved.settings.subject).toBe('Hello again');
    expect(unsavedChanges(saved.settings, answer)).toEqual({ subject: 'Hello again' });
    // Unchanged since sent: the server's normalised value is taken.
    const settledAnswer = { ...typed.settings, subject: 'Hello' };
    const settled = reducer(typed, emailSaved({ templateId: ID, sent: { subject: 'Hello ' }, settings: settledAnswer }));
    expect(settled.settings.subject).toBe('Hello');
    expect(unsavedChanges(settled.settings, settledAnswer)).toEqual({});
  });

  it('ignores answers for another template', () => {
    const state = run(loaded, emailChanged({ subject: 'x' }));
    expect(reducer(state, emailSaved({ templateId: 'O'.repeat(20), sent: { subject: 'x' }, settings: DEFAULT_EMAIL_SETTINGS }))).toBe(state);
  });
});
