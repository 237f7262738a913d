/**
 * How the public forms turn a failed call into messages: field codes under their fields, and one
 * general message below the form (docs/accounts.md#sign-in: login shows the server's field errors and a
 * general error; registration says "technical error" for anything it does not recognise).
 */
import type { TFunction } from 'i18next';
import { ApiError } from '../../api/client.ts';
import { translateCode, translateError, translateFields } from '../../i18n/errors.ts';

export interface FormErrors {
  fields: Record<string, string>;
  general: string | null;
}

export function formErrors(error: unknown, t: TFunction, options: { knownGeneral: readonly string[]; fallbackCode: string }): FormErrors {
  if (error instanceof ApiError && error.isCancelled) return { fields: {}, general: null };
  const fields = translateFields(error, t);
  if (error instanceof ApiError) {
    if (error.isNetwork) return { fields, general: translateError(error, t) };
    if (Object.keys(fields).length > 0) return { fields, general: null };
    if (options.knownGeneral.includes(error.code)) return { fields, general: translateError(error, t) };
  }
  return { fields, general: translateCode(options.fallbackCode, undefined, t) };
}
