import { describe, expect, it } from 'vitest';
import { passwordChangeProblems } from './passwordChange.ts';

const email = 'ada@example.com';
const form = (password: string, confirmPassword = password, currentPassword = 'old secret') => ({ currentPassword, password, confirmPassword });

describe('password change form', () => {
  it('accepts a good new password', () => {
    expect(passwordChangeProblems(form('tea and biscuits'), email)).toEqual({});
  });

  it('refuses what the server would refuse, before sending: short, common, the address itself', () => {
    expect(passwordChangeProblems(form('abc'), email).password).toBe('tooShort');
    expect(passwordChangeProblems(form('Password123'), email).password).toBe('weak');
    expect(passwordChangeProblems(form('qwerty'), email).password).toBe('weak');
    expect(passwordChangeProblems(form('ADA@example.com'), email).password).toBe('weak');
  });

  it('asks for the current password and a matching confirmation', () => {
    expect(passwordChangeProblems(form('tea and biscuits', 'tea and biscuit', ''), email)).toEqual({ currentPassword: 'currentRequired', confirmPassword: 'mismatch' });
  });
});
