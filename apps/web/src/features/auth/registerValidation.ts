/**
 * Client checks of the registration form (spec section 5), in the order the spec lists them. Each
 * result is a key of the `auth` namespace (validation.*) whose English text is the spec's wording.
 */
import { isValidEmail, MIN_PASSWORD_LENGTH } from '@sheaf/shared';

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
  if (values.password.length < MIN_PASSWORD_LENGTH) errors.password = 'validation.passwordTooShort';
  if (values.confirmPassword !== values.password) errors.confirmPassword = 'validation.passwordsDoNotMatch';
  if (!values.acceptTerms) errors.acceptTerms = 'validation.acceptTermsRequired';
  return errors;
}
