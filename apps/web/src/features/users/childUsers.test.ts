/** The pure parts of /users: the create-user form's checks, the seats and the plan that adds users. */
import { describe, expect, it } from 'vitest';
import { entitlements } from '@sheaf/shared';
import { childUserName, planWithMoreUsers, seatState, validateChildUser, type ChildUserValues } from './childUsers.ts';

const valid: ChildUserValues = { firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com', password: 'secret1', confirmPassword: 'secret1' };

describe('the create-user form', () => {
  it('lets a complete form through: no company, no terms to accept', () => {
    expect(validateChildUser(valid)).toEqual({});
  });

  it('says what the registration form says for each field, and nothing about terms', () => {
    expect(validateChildUser({ firstName: ' ', lastName: '', email: '', password: '12345', confirmPassword: 'x' })).toEqual({
      firstName: 'validation.firstNameRequired',
      lastName: 'validation.lastNameRequired',
      email: 'validation.emailRequired',
      password: 'validation.passwordTooShort',
      confirmPassword: 'validation.passwordsDoNotMatch',
    });
    expect(validateChildUser({ ...valid, email: 'ada@example' }).email).toBe('validation.emailInvalid');
    // The shared password rule: not a common password, not the address itself.
    expect(validateChildUser({ ...valid, password: 'Password1', confirmPassword: 'Password1' }).password).toBe('validation.passwordCommon');
    expect(validateChildUser({ ...valid, password: 'ADA@example.com', confirmPassword: 'ADA@example.com' }).password).toBe('validation.passwordCommon');
  });
});

describe('seats', () => {
  it('is full once the account has as many users as the plan', () => {
    expect(seatState({ used: 2, limit: 5 })).toEqual({ used: 2, limit: 5, full: false });
    expect(seatState({ used: 5, limit: 5 }).full).toBe(true);
    expect(seatState({ used: 1, limit: 1 }).full).toBe(true);
    // A plan moved down below the users the account has: still full.
    expect(seatState({ used: 4, limit: 1 }).full).toBe(true);
  });

  it('names the plan with more users from the catalogue: one user on the web leads to the plan with five', () => {
    const more = planWithMoreUsers(1, 'web');
    expect(more).not.toBeNull();
    expect(more!.users).toBe(5);
    expect(entitlements(more!.plan, 'web').users).toBe(5);
    // Nothing has more than the top plan; the desktop edition sells no plan with more users.
    expect(planWithMoreUsers(5, 'web')).toBeNull();
    expect(planWithMoreUsers(1, 'desktop')).toBeNull();
  });

  it('shows a user by name, else by address', () => {
    expect(childUserName({ firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com' })).toBe('Ada Lovelace');
    expect(childUserName({ firstName: '', lastName: ' ', email: 'ada@example.com' })).toBe('ada@example.com');
  });
});
