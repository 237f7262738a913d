import { z } from 'zod';
import { LanguageSchema, SessionSchema, UserSchema } from './users.ts';

/**
 * Sign-in with Google, Apple and Microsoft (OpenID Connect; docs/accounts.md#social-sign-in). The
 * browser goes to GET /v1/auth/oauth/:provider/start, the provider, then the server's callback, which
 * hands the web app a one-time code (`/oauth/callback#code=...`); the web app exchanges that code for a
 * session with the calls below.
 */
export const OAUTH_PROVIDERS = ['google', 'apple', 'microsoft'] as const;
export type OAuthProvider = (typeof OAUTH_PROVIDERS)[number];
export const OAuthProviderSchema = z.enum(OAUTH_PROVIDERS);

/** How each provider is named to people (the same in every language). */
export const OAUTH_PROVIDER_NAMES: Readonly<Record<OAuthProvider, string>> = { google: 'Google', apple: 'Apple', microsoft: 'Microsoft' };

/** A way to sign in to an account: a provider, or the email address and password. */
export type SignInMethod = OAuthProvider | 'password';

/** Where the sign-in started: the login page (an existing account) or the registration page (a new one). */
export const OAUTH_INTENTS = ['login', 'register'] as const;
export type OAuthIntent = (typeof OAUTH_INTENTS)[number];

/** GET /auth/oauth/:provider/start (a browser navigation, answered with a redirect to the provider). */
export const OAuthStartQuerySchema = z.object({
  intent: z.enum(OAUTH_INTENTS).default('login'),
  /** A path of this site to go to once signed in (/billing?plan=Pro); anything else is ignored. */
  next: z.string().max(2000).optional(),
  /** The language the page is read in: a new account's language. */
  language: LanguageSchema.optional(),
});

/** POST /users/login/oauth and /users/register/oauth: the one-time code of the callback. */
export const OAuthSignInSchema = z.object({
  token: z.string().min(1).max(256),
  /** A new account's language (register). */
  language: LanguageSchema.optional(),
  ga4ClientId: z.string().max(200).optional(),
  linkedinId: z.string().max(200).optional(),
});

/** POST /users/login/oauth/link: the one-time code and the password of the account that has the provider's address. */
export const OAuthLinkSchema = z.object({
  token: z.string().min(1).max(256),
  password: z.string().max(1024),
});

/** Registration through a provider answers the session and the user (isOAuthUser, isNewUser). */
export const OAuthRegisterResponseSchema = SessionSchema.extend({ user: UserSchema });
