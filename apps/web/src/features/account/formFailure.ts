import type { TFunction } from 'i18next';
import { ApiError } from '../../api/client.ts';
import { translateCode, translateError, translateFields } from '../../i18n/errors.ts';

export interface FormFailure {
  /** Translated messages to show under the named fields. */
  fields: Record<string, string>;
  /** What to say when no field explains the failure (null for a cancelled call). */
  general: string | null;
}

/**
 * Splits a failed form submission into messages under fields and a general one. `codeFields` places
 * codes the server sends without a field (e.g. 'auth/wrong-password' belongs under the password).
 */
export function formFailure(error: unknown, t: TFunction, codeFields: Record<string, string> = {}): FormFailure {
  if (error instanceof ApiError && error.isCancelled) return { fields: {}, general: null };
  const fields = translateFields(error, t);
  if (error instanceof ApiError && Object.keys(fields).length === 0 && codeFields[error.code]) {
    fields[codeFields[error.code]] = translateCode(error.code, error.params, t);
  }
  return { fields, general: Object.keys(fields).length > 0 ? null : translateError(error, t) };
}
