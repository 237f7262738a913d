// @vitest-environment node
/**
 * The browser's side of social sign-in: the start address a button leads to, and what the callback page
 * reads from the server's redirect (a one-time code, a cancellation, an error with its parameters), and
 * an account's sign-in methods written in the UI language.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createInstance } from 'i18next';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../api/apiError.ts';
import { methodNames, oauthFailureOf, oauthStartUrl, parseOAuthCallback, translateSignInError } from './oauth.ts';

const texts = (language: string, namespace: string) =>
  JSON.parse(readFileSync(fileURLToPath(new URL(`../../locales/${language}/${namespace}.json`, import.meta.url)), 'utf8')) as Record<string, unknown>;

describe('the start address', () => {
  it('names the provider, where the sign-in started, a same-site next page and the language', () => {
    expect(oauthStartUrl('google', 'register', { next: '/billing?plan=Pro', language: 'de' }))
      .toBe('/v1/auth/oauth/google/start?intent=register&next=%2Fbilling%3Fplan%3DPro&language=de');
    expect(oauthStartUrl('apple', 'login', { next: '/' })).toBe('/v1/auth/oauth/apple/start?intent=login');
    expect(oauthStartUrl('microsoft', 'login', { next: '//evil.example' })).toBe('/v1/auth/oauth/microsoft/start?intent=login');
  });
});

describe('the callback page\'s address', () => {
  it('a one-time code from the fragment, the intent and next page from the query', () => {
    const callback = parseOAuthCallback('?provider=google&intent=register&next=%2Fbilling', '#code=abc');
    expect(callback).toEqual({ provider: 'google', providerName: 'Google', intent: 'register', next: '/billing', outcome: { kind: 'code', code: 'abc' } });
  });

  it('a cancellation (silent), and a next page of another site dropped', () => {
    const callback = parseOAuthCallback('?provider=apple&intent=login&next=%2F%2Fevil.example', '#cancelled=1');
    expect(callback).toMatchObject({ provider: 'apple', intent: 'login', next: null, outcome: { kind: 'cancelled' } });
  });

  it('an error as the API would answer it: catalogue code, its status, its parameters', () => {
    const callback = parseOAuthCallback('?provider=google&intent=login', '#error=oauth%2Femail-unverified&provider=Google');
    expect(callback.outcome.kind).toBe('error');
    const error = (callback.outcome as { error: ApiError }).error;
    expect(error).toMatchObject({ status: 400, code: 'oauth/email-unverified', params: { provider: 'Google' } });
    const unknown = parseOAuthCallback('?provider=x', '#error=evil%2Fcode').outcome as { error: ApiError };
    expect(unknown.error.code).toBe('generic/something-wrong');
    // It survives the router state that carries it back to the login page.
    expect(oauthFailureOf({ oauthError: { status: error.status, code: error.code, message: error.message, params: error.params } })).toMatchObject({ code: 'oauth/email-unverified' });
    expect(oauthFailureOf(null)).toBeNull();
  });
});

describe('sign-in methods in the UI language', () => {
  const i18n = createInstance();
  void i18n.init({
    lng: 'de', fallbackLng: 'en', initAsync: false, showSupportNotice: false,
    resources: { de: { auth: texts('de', 'auth'), errors: texts('de', 'errors') }, en: { auth: texts('en', 'auth'), errors: texts('en', 'errors') } },
  });

  it('lists providers and the password the language\'s way', () => {
    expect(methodNames('google', i18n.getFixedT('en'), 'en')).toBe('Google');
    expect(methodNames('password,google', i18n.getFixedT('en'), 'en')).toBe('your email and password or Google');
    expect(methodNames('google,microsoft', i18n.getFixedT('de'), 'de')).toBe('Google oder Microsoft');
  });

  it('"please use" the account\'s methods, translated with the methods translated too', () => {
    const error = ApiError.fromResponse(400, { code: 'pdfmm/unsupported-sign-in-method', message: 'Please use Google to sign in.', params: { methods: 'Google', methodIds: 'google' } });
    expect(translateSignInError(error, i18n.getFixedT('en'), 'en')).toBe('Please use Google to sign in.');
    expect(translateSignInError(error, i18n.getFixedT('de'), 'de')).toBe('Bitte melden Sie sich mit Google an.');
    const conflict = ApiError.fromResponse(409, {
      code: 'auth/account-exists-with-different-credential', message: '...', params: { methods: 'your email and password', methodIds: 'password', linkable: 1 },
    });
    expect(translateSignInError(conflict, i18n.getFixedT('de'), 'de')).toContain('mit Ihrer E-Mail-Adresse und Ihrem Passwort an.');
  });
});
