/**
 * Sign-in with Google, Apple and Microsoft in the browser (docs/accounts.md#social-sign-in): the start
 * address a button leads to, and what the server's callback hands back to /oauth/callback (the provider,
 * where the sign-in started, where to go next, and in the fragment a one-time code, a cancellation or an
 * error).
 */
import type { TFunction } from 'i18next';
import {
  ERROR_MESSAGES, OAUTH_PROVIDERS, OAUTH_PROVIDER_NAMES, httpStatusOf, type ErrorCode, type OAuthIntent, type OAuthProvider,
} from '@sheaf/shared';
import { ApiError } from '../../api/apiError.ts';
import { translateError } from '../../i18n/errors.ts';
import { isSitePath } from './afterSignIn.ts';

/** The server's start of a sign-in with `provider` (a full-page navigation, not an API call). */
export function oauthStartUrl(provider: OAuthProvider, intent: OAuthIntent, options: { next?: string | undefined; language?: string | undefined } = {}): string {
  const query = new URLSearchParams({ intent });
  if (isSitePath(options.next) && options.next !== '/') query.set('next', options.next);
  if (options.language) query.set('language', options.language);
  return `/v1/auth/oauth/${provider}/start?${query.toString()}`;
}

export type CallbackOutcome =
  | { kind: 'code'; code: string }
  | { kind: 'cancelled' }
  | { kind: 'error'; error: ApiError };

export interface OAuthCallback {
  provider: OAuthProvider | null;
  /** Shown to people: "Google"; a provider this app does not know keeps its name as given. */
  providerName: string;
  intent: OAuthIntent;
  next: string | null;
  outcome: CallbackOutcome;
}

const isProvider = (value: string | null): value is OAuthProvider => (OAUTH_PROVIDERS as readonly (string | null)[]).includes(value);

/** The callback's address: `?provider=&intent=&next=` and `#code=` | `#cancelled=1` | `#error=<code>&<params>`. */
export function parseOAuthCallback(search: string, hash: string): OAuthCallback {
  const query = new URLSearchParams(search);
  const fragment = new URLSearchParams(hash.replace(/^#/, ''));
  const raw = query.get('provider');
  const provider = isProvider(raw) ? raw : null;
  const intent: OAuthIntent = query.get('intent') === 'register' ? 'register' : 'login';
  const next = query.get('next');
  const base = { provider, providerName: provider ? OAUTH_PROVIDER_NAMES[provider] : (raw ?? '').slice(0, 40), intent, next: isSitePath(next) ? next : null };
  const code = fragment.get('code');
  if (code) return { ...base, outcome: { kind: 'code', code } };
  if (fragment.get('cancelled')) return { ...base, outcome: { kind: 'cancelled' } };
  const errorCode = fragment.get('error') ?? 'generic/something-wrong';
  const params: Record<string, string> = {};
  for (const [name, value] of fragment) if (name !== 'error') params[name] = value;
  const known = Object.prototype.hasOwnProperty.call(ERROR_MESSAGES, errorCode);
  const error = new ApiError({
    status: known ? httpStatusOf(errorCode as ErrorCode) : 400,
    code: known ? errorCode : 'generic/something-wrong',
    message: known ? ERROR_MESSAGES[errorCode as ErrorCode] : ERROR_MESSAGES['generic/something-wrong'],
    params,
  });
  return { ...base, outcome: { kind: 'error', error } };
}

/** "Google", "your email and password or Google": an account's sign-in methods in the UI language. */
export function methodNames(methodIds: unknown, t: TFunction, language: string): string {
  const names = String(methodIds ?? '').split(',').filter(Boolean)
    .map((id) => (id === 'password' ? t('methods.password', { ns: 'auth' }) : isProvider(id) ? OAUTH_PROVIDER_NAMES[id] : id));
  try {
    return new Intl.ListFormat(language, { type: 'disjunction' }).format(names);
  } catch {
    return names.join(', ');
  }
}

/** A failure's message, with an account's sign-in methods (conflict, unsupported method) in the UI language. */
export function translateSignInError(error: unknown, t: TFunction, language: string): string {
  if (error instanceof ApiError && error.params['methodIds'] !== undefined) {
    const localized = new ApiError({
      status: error.status, code: error.code, message: error.message, fields: error.fields,
      params: { ...error.params, methods: methodNames(error.params['methodIds'], t, language) },
    });
    return translateError(localized, t, language);
  }
  return translateError(error, t, language);
}

/** The failure the callback page sent the login or registration page back with (router state), as an error. */
export function oauthFailureOf(state: unknown): ApiError | null {
  const failure = (state as { oauthError?: { status: number; code: string; message: string; params: Record<string, string | number> } } | null)?.oauthError;
  return failure ? new ApiError(failure) : null;
}
