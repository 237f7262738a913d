/** The password-change form's checks before anything is sent: the account password rule of packages/shared. */
import { accountPasswordProblem } from '@sheaf/shared';

export interface PasswordChangeValues {
  currentPassword: string;
  password: string;
  confirmPassword: string;
}

export type PasswordChangeProblem = 'currentRequired' | 'tooShort' | 'weak' | 'mismatch';

/** Each field's problem (none when the form may be sent); `email` is the account's own address. */
export function passwordChangeProblems(values: PasswordChangeValues, email: string): Partial<Record<keyof PasswordChangeValues, PasswordChangeProblem>> {
  const problems: Partial<Record<keyof PasswordChangeValues, PasswordChangeProblem>> = {};
  if (!values.currentPassword) problems.currentPassword = 'currentRequired';
  const password = accountPasswordProblem(values.password, email);
  if (password === 'empty' || password === 'short') problems.password = 'tooShort';
  else if (password === 'common') problems.password = 'weak';
  if (values.confirmPassword !== values.password) problems.confirmPassword = 'mismatch';
  return problems;
}
