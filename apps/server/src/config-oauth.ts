/**
 * The sign-in providers' settings (docs/accounts.md#social-sign-in), parsed with the rest of the
 * configuration in config.ts. A provider whose client id is unset is off: no button, no routes.
 * Every provider's redirect URI is <PUBLIC_URL>/v1/auth/oauth/<provider>/callback.
 *
 *   GOOGLE_CLIENT_ID, GOOGLE_CLIENT_SECRET     the OAuth client of a Google Cloud project
 *   GOOGLE_ISSUER                              https://accounts.google.com
 *   APPLE_CLIENT_ID                            the Services ID of Sign in with Apple
 *   APPLE_TEAM_ID, APPLE_KEY_ID                the team and the key the client secret is signed with
 *   APPLE_PRIVATE_KEY                          that key: the .p8 file's PKCS#8 PEM (line breaks may be
 *                                              written \n), or base64 of its DER. Apple's client secret
 *                                              is a short-lived ES256 JWT signed with it, made per use
 *   APPLE_ISSUER                               https://appleid.apple.com
 *   MICROSOFT_CLIENT_ID, MICROSOFT_CLIENT_SECRET  an app registration of Microsoft Entra ID
 *   MICROSOFT_ISSUER                           https://login.microsoftonline.com/common/v2.0 (any work,
 *                                              school or personal account; the ID token's issuer then
 *                                              names the user's tenant, which is accepted), or a
 *                                              tenant's own https://login.microsoftonline.com/<tenant>/v2.0
 *
 * Issuers are reached (OpenID discovery) on first use, never at boot. They must be https://, except on
 * the loopback interface (a local identity provider in tests and development).
 */
import { createPrivateKey, type KeyObject } from 'node:crypto';
import { z } from 'zod';
import { OAUTH_PROVIDERS, type OAuthProvider } from '@sheaf/shared';

const emptyToUndefined = (value: unknown) => (typeof value === 'string' && value.trim() === '' ? undefined : value);
const optionalString = z.preprocess(emptyToUndefined, z.string().trim().optional());

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/** https://, or http:// on the loopback interface. */
export function isAcceptableIssuer(value: string): boolean {
  try {
    const url = new URL(value);
    if (url.search || url.hash) return false;
    return url.protocol === 'https:' || (url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname));
  } catch {
    return false;
  }
}

const issuer = (fallback: string) =>
  z.preprocess(
    emptyToUndefined,
    z.string().trim().refine(isAcceptableIssuer, 'must be an https:// issuer URL (http:// only on localhost)').default(fallback),
  );

export const OAuthEnvShape = {
  GOOGLE_CLIENT_ID: optionalString,
  GOOGLE_CLIENT_SECRET: optionalString,
  GOOGLE_ISSUER: issuer('https://accounts.google.com'),
  APPLE_CLIENT_ID: optionalString,
  APPLE_TEAM_ID: optionalString,
  APPLE_KEY_ID: optionalString,
  APPLE_PRIVATE_KEY: optionalString,
  APPLE_ISSUER: issuer('https://appleid.apple.com'),
  MICROSOFT_CLIENT_ID: optionalString,
  MICROSOFT_CLIENT_SECRET: optionalString,
  MICROSOFT_ISSUER: issuer('https://login.microsoftonline.com/common/v2.0'),
};

export interface OAuthConfig {
  readonly GOOGLE_CLIENT_ID: string | undefined;
  readonly GOOGLE_CLIENT_SECRET: string | undefined;
  readonly GOOGLE_ISSUER: string;
  readonly APPLE_CLIENT_ID: string | undefined;
  readonly APPLE_TEAM_ID: string | undefined;
  readonly APPLE_KEY_ID: string | undefined;
  readonly APPLE_PRIVATE_KEY: string | undefined;
  readonly APPLE_ISSUER: string;
  readonly MICROSOFT_CLIENT_ID: string | undefined;
  readonly MICROSOFT_CLIENT_SECRET: string | undefined;
  readonly MICROSOFT_ISSUER: string;
}

/** The settings each provider needs: all of them, or none (the provider is then off). */
const REQUIRED: Record<OAuthProvider, readonly (keyof OAuthConfig)[]> = {
  google: ['GOOGLE_CLIENT_ID', 'GOOGLE_CLIENT_SECRET'],
  apple: ['APPLE_CLIENT_ID', 'APPLE_TEAM_ID', 'APPLE_KEY_ID', 'APPLE_PRIVATE_KEY'],
  microsoft: ['MICROSOFT_CLIENT_ID', 'MICROSOFT_CLIENT_SECRET'],
};

/** The providers whose settings are all present, in the order the buttons show. */
export function configuredOAuthProviders(config: OAuthConfig): OAuthProvider[] {
  return OAUTH_PROVIDERS.filter((provider) => REQUIRED[provider].every((name) => Boolean(config[name])));
}

/** Apple's key as written in APPLE_PRIVATE_KEY: PEM (with real or written-out line breaks) or base64 DER. */
export function applePrivateKey(text: string): KeyObject {
  const pem = text.replace(/\\n/g, '\n').trim();
  const key = pem.startsWith('-----BEGIN')
    ? createPrivateKey({ key: pem, format: 'pem' })
    : createPrivateKey({ key: Buffer.from(pem.replace(/\s+/g, ''), 'base64'), format: 'der', type: 'pkcs8' });
  if (key.asymmetricKeyType !== 'ec' || key.asymmetricKeyDetails?.namedCurve !== 'prime256v1') throw new Error('not a P-256 (ES256) key');
  return key;
}

/** Every problem of the providers' settings: one set but not the others, or an unreadable Apple key. */
export function oauthConfigProblems(config: OAuthConfig): string[] {
  const problems: string[] = [];
  for (const provider of OAUTH_PROVIDERS) {
    const names = REQUIRED[provider];
    const set = names.filter((name) => Boolean(config[name]));
    if (set.length > 0 && set.length < names.length) problems.push(`${names.join(', ')}: set all of them to offer sign-in with ${provider}, or none`);
  }
  if (config.APPLE_PRIVATE_KEY) {
    try {
      applePrivateKey(config.APPLE_PRIVATE_KEY);
    } catch (error) {
      problems.push(`APPLE_PRIVATE_KEY: must be the PKCS#8 P-256 key of the .p8 file Apple gave (${(error as Error).message})`);
    }
  }
  return problems;
}

/** The parsed settings as Config holds them (every key present, unset ones undefined). */
export function oauthConfigOf(raw: { [K in keyof OAuthConfig]?: OAuthConfig[K] | undefined }): OAuthConfig {
  return {
    GOOGLE_CLIENT_ID: raw.GOOGLE_CLIENT_ID,
    GOOGLE_CLIENT_SECRET: raw.GOOGLE_CLIENT_SECRET,
    GOOGLE_ISSUER: raw.GOOGLE_ISSUER ?? 'https://accounts.google.com',
    APPLE_CLIENT_ID: raw.APPLE_CLIENT_ID,
    APPLE_TEAM_ID: raw.APPLE_TEAM_ID,
    APPLE_KEY_ID: raw.APPLE_KEY_ID,
    APPLE_PRIVATE_KEY: raw.APPLE_PRIVATE_KEY,
    APPLE_ISSUER: raw.APPLE_ISSUER ?? 'https://appleid.apple.com',
    MICROSOFT_CLIENT_ID: raw.MICROSOFT_CLIENT_ID,
    MICROSOFT_CLIENT_SECRET: raw.MICROSOFT_CLIENT_SECRET,
    MICROSOFT_ISSUER: raw.MICROSOFT_ISSUER ?? 'https://login.microsoftonline.com/common/v2.0',
  };
}
