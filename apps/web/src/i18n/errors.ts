/**
 * Error messages in the UI language. Every code of the shared catalogue has a translation in the
 * `errors` namespace; {slots} are filled here (not by i18next, whose slots are {{double}}).
 * Unknown codes fall back to the server's English message, then to "something went wrong".
 * Amounts are written the language's way ("more than 100,000 rows", "mehr als 100.000 Zeilen").
 */
import i18next, { type TFunction } from 'i18next';
import { ERROR_MESSAGES, SheafError, fillMessageSlots, type ErrorCode } from '@sheaf/shared';
import { ApiError } from '../api/apiError.ts';

type Params = Record<string, string | number> | undefined;

/** The UI language (the app's i18next instance), for number formats. */
const uiLocale = (): string | undefined => i18next.resolvedLanguage;

/** Amounts ({max}, {maxMb}, ...) are grouped the UI language's way; see AMOUNT_SLOTS in shared. */
export function fillSlots(text: string, params: Params, locale: string | undefined = uiLocale()): string {
  return fillMessageSlots(text, params, locale);
}

export const isCatalogueCode = (code: string): code is ErrorCode => Object.prototype.hasOwnProperty.call(ERROR_MESSAGES, code);

/** The translated text of a catalogue code (or of `network`, `offline`, `checkConnection`). */
export function translateCode(code: string, params: Params, t: TFunction, locale?: string): string {
  const english = isCatalogueCode(code) ? ERROR_MESSAGES[code] : undefined;
  const text = t(code, { ns: 'errors', defaultValue: english ?? '' });
  return text ? fillSlots(text, params, locale) : '';
}

const isOffline = () => typeof navigator !== 'undefined' && navigator.onLine === false;

/** What to tell the user about a failed call or operation. */
export function translateError(error: unknown, t: TFunction, locale?: string): string {
  if (error instanceof ApiError) {
    if (error.isNetwork) return translateCode(isOffline() ? 'offline' : 'network', undefined, t);
    return translateCode(error.code, error.params, t, locale) || error.message || translateCode('generic/something-wrong', undefined, t);
  }
  if (error instanceof SheafError) return translateCode(error.code, error.params, t, locale);
  return translateCode('generic/something-wrong', undefined, t);
}

/** Field codes of a form error, translated: { email: 'Must be a valid email address' }. */
export function translateFields(error: unknown, t: TFunction): Record<string, string> {
  if (!(error instanceof ApiError)) return {};
  return Object.fromEntries(Object.entries(error.fields).map(([field, code]) => [field, translateCode(code, error.params, t) || code]));
}
