import { describe, expect, it } from 'vitest';
import { validateRegistration, type RegistrationValues } from './registerValidation.ts';

const valid: RegistrationValues = { firstName: 'Ada', lastName: 'Lovelace', company: '', email: 'ada@example.com', password: 'secret1', confirmPassword: 'secret1', acceptTerms: true };

describe('registration checks', () => {
  it('lets a complete form through (company is optional)', () => {
    expect(validateRegistration(valid)).toEqual({});
  });

  it('names every missing or wrong field with its documented message key', () => {
    expect(validateRegistration({ ...valid, firstName: ' ', lastName: '', email: '', password: '12345', confirmPassword: 'x', acceptTerms: false })).toEqual({
      firstName: 'validation.firstNameRequired',
      lastName: 'validation.lastNameRequired',
      email: 'validation.emailRequired',
      password: 'validation.passwordTooShort',
      confirmPassword: 'validation.passwordsDoNotMatch',
      acceptTerms: 'validation.acceptTermsRequired',
    });
  });

  it('refuses what the server would: a common password or the address itself (the shared rule)', () => {
    expect(validateRegistration({ ...valid, password: 'Password1', confirmPassword: 'Password1' }).password).toBe('validation.passwordCommon');
    expect(validateRegistration({ ...valid, password: 'ADA@example.com', confirmPassword: 'ADA@example.com' }).password).toBe('validation.passwordCommon');
  });

  it('refuses an address without a top-level domain', () => {
    expect(validateRegistration({ ...valid, email: 'ada@example' }).email).toBe('validation.emailInvalid');
  });
});
