/**
 * Client checks of the registration form (docs/accounts.md#sign-up), in the documented order. Each
 * result is a key of the `auth` namespace (validation.*) whose English text is the documented wording.
 */
import { accountPasswordProblem, isValidEmail } from '@sheaf/shared';

export interface RegistrationValues {
  firstName: string;
  lastName: string;
  company: string;
  email: string;
  password: string;
  confirmPassword: string;
  acceptTerms: boolean;
}

export type RegistrationField = keyof RegistrationValues;

export function validateRegistration(values: RegistrationValues): Partial<Record<RegistrationField, string>> {
  const errors: Partial<Record<RegistrationField, string>> = {};
  if (!values.firstName.trim()) errors.firstName = 'validation.firstNameRequired';
  if (!values.lastName.trim()) errors.lastName = 'validation.lastNameRequired';
  if (!values.email.trim()) errors.email = 'validation.emailRequired';
  else if (!isValidEmail(values.email)) errors.email = 'validation.emailInvalid';
  // The server's rule: also not one of the most common passwords, nor the address itself.
  const password = accountPasswordProblem(values.password, values.email);
  if (password === 'empty' || password === 'short') errors.password = 'validation.passwordTooShort';
  else if (password === 'common') errors.password = 'validation.passwordCommon';
  if (values.confirmPassword !== values.password) errors.confirmPassword = 'validation.passwordsDoNotMatch';
  if (!values.acceptTerms) errors.acceptTerms = 'validation.acceptTermsRequired';
  return errors;
}
