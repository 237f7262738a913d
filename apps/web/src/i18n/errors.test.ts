// @vitest-environment node
/**
 * Every error the server or the engine can report reads well in every UI language: each catalogue
 * code has a translation in all five languages with the same {slots}, English is the catalogue's
 * own text, and the other languages are translated rather than copied.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createInstance } from 'i18next';
import { describe, expect, it } from 'vitest';
import { ERROR_MESSAGES, LANGUAGES, SheafError } from '@sheaf/shared';
import { ApiError } from '../api/apiError.ts';
import { translateCode, translateError, translateFields } from './errors.ts';

/** The error messages of a language (the namespace's `pages` object holds the error screens' texts). */
function load(language: string): Record<string, string> {
  const file = fileURLToPath(new URL(`../locales/${language}/errors.json`, import.meta.url));
  const { pages: _screens, ...messages } = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  return messages as Record<string, string>;
}
const slots = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((match) => match[1]).sort();
const EXTRA = { network: 'There was some network error, please try again', offline: 'No internet connection', checkConnection: 'Please check your internet connection.' };

describe('error translations', () => {
  const english = load('en');

  it('English is the catalogue text word for word, plus the client-side messages', () => {
    expect(english).toEqual({ ...ERROR_MESSAGES, ...EXTRA });
  });

  for (const language of LANGUAGES.filter((lng) => lng !== 'en')) {
    it(`${language} translates every code with the same slots`, () => {
      const translated = load(language);
      expect(Object.keys(translated).sort()).toEqual(Object.keys(english).sort());
      for (const [code, text] of Object.entries(english)) {
        expect(translated[code].trim(), `${language} ${code}`).not.toBe('');
        expect(slots(translated[code]), `${language} ${code}`).toEqual(slots(text));
        expect(translated[code], `${language} ${code} is an English copy`).not.toBe(text);
      }
    });
  }
});

describe('translateError', () => {
  const i18n = createInstance();
  void i18n.init({ lng: 'de', fallbackLng: 'en', resources: { de: { errors: load('de') }, en: { errors: load('en') } }, initAsync: false, showSupportNotice: false });
  const t = i18n.t;

  it('shows a server error in the UI language with its parameters filled in, amounts grouped the language\'s way', () => {
    const error = ApiError.fromResponse(400, { code: 'sheet/too-many-rows', message: 'The spreadsheet has more than 100000 rows.', params: { max: 100000 } });
    expect(translateError(error, t, 'de')).toBe('Die Tabelle hat mehr als 100.000 Zeilen.');
    // The catalogue's words in English: "more than 100,000 rows".
    expect(translateError(error, i18n.getFixedT('en'), 'en')).toBe('The spreadsheet has more than 100,000 rows.');
  });

  it('keeps row numbers as the spreadsheet shows them', () => {
    expect(translateCode('merge/image-missing', { row: 12345, image: 'a.png' }, i18n.getFixedT('en'), 'en')).toBe('Row 12345: no image named "a.png" was supplied with the template.');
  });

  it('translates engine errors and form field codes', () => {
    expect(translateError(new SheafError('template/too-large', { maxMb: 25 }), t)).toBe('Die Datei ist zu groß. Die maximale Größe beträgt 25 MB.');
    const form = ApiError.fromResponse(400, { code: 'auth/email-invalid', message: 'x', fields: { email: 'auth/email-invalid' } });
    expect(translateFields(form, t)).toEqual({ email: 'Muss eine gültige E-Mail-Adresse sein' });
  });

  it('says "network error" for a failed connection and keeps unknown server messages', () => {
    expect(translateError(ApiError.network(), t)).toBe('Es ist ein Netzwerkfehler aufgetreten, bitte versuchen Sie es erneut');
    expect(translateError(ApiError.fromResponse(409, { code: 'future/code', message: 'A newer server said this' }), t)).toBe('A newer server said this');
    expect(translateCode('checkConnection', undefined, t)).toBe('Bitte überprüfen Sie Ihre Internetverbindung.');
  });
});
