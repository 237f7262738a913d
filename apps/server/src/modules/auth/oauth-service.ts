/**
 * Sign-in and registration with Google, Apple and Microsoft (docs/accounts.md#social-sign-in).
 *
 * 1. start: a state (random, stored hashed), a browser binding (random, in an HttpOnly cookie, stored
 *    hashed), and from that binding the PKCE verifier and the nonce (HMACs under the server's key, never
 *    stored); the browser goes to the provider.
 * 2. callback: the state is spent (good once, 10 minutes), the cookie must be the one it was issued with,
 *    the code is exchanged and the ID token checked (oauth-providers.ts). A verified answer is kept under a
 *    one-time code (5 minutes) that the web app receives in the URL fragment.
 * 3. the web app exchanges the code, from the same browser (the cookie, now for /v1/users, must match): login (an account linked to this provider's person), register (a new
 *    account, or the linked one), or link (the password account that has the provider's address, with its
 *    password). An address of another account is never signed in to without that account's proof.
 */
import type { z } from 'zod';
import { calculatePKCECodeChallenge } from 'openid-client';
import {
  INITIAL_PLAN, OAUTH_PROVIDER_NAMES, SheafError, SheafFieldErrors, type OAuthIntent, type OAuthLinkSchema, type OAuthProvider,
  type OAuthSignInSchema, type Session, type User,
} from '@sheaf/shared';
import type { AppContext } from '../../context.ts';
import type { Queryable } from '../../adapters/db/types.ts';
import { newId } from '../../ids.ts';
import { hmacSign, randomToken, sha256Hex } from '../../crypto/secrets.ts';
import { findUserByEmail, findUserById, userView, type UserRow } from '../users/index.ts';
import { identityFrom, type OAuthClient } from './oauth-providers.ts';
import {
  consumeResult, findIdentity, findResult, insertFlow, insertIdentity, insertOAuthUser, spendState, storeResult,
  touchIdentity, type OAuthFlowRow, type OAuthResultRow,
} from './oauth-repository.ts';
import { methodList, signInMethodsOf } from './oauth-methods.ts';
import { verifyPassword } from './passwords.ts';
import { loginSucceeded, oauthExchangeKeys, oauthStartKeys, takeAttempts, takeLoginAttempt } from './rate-limits.ts';
import { isUniqueViolation } from './service.ts';
import { startSession } from './sessions.ts';

/** From leaving for the provider to its answer. */
export const FLOW_TTL_S = 10 * 60;
/** From the answer to the web app's exchange of the one-time code. */
export const CODE_TTL_S = 5 * 60;

/** The redirect URI registered with every provider. */
export const callbackUrlOf = (publicUrl: string, provider: OAuthProvider): string => `${publicUrl.replace(/\/+$/, '')}/v1/auth/oauth/${provider}/callback`;

const pkceVerifierOf = (key: Uint8Array, binding: string) => hmacSign(key, `oauth-pkce:${binding}`);
const nonceOf = (key: Uint8Array, binding: string) => hmacSign(key, `oauth-nonce:${binding}`);

/** A path of this site ("/billing?plan=Pro"), never another origin ("//evil.example", "/\\evil", control characters). */
export function sitePath(value: string | undefined): string | null {
  if (!value || !value.startsWith('/') || value.startsWith('//') || value.includes('\\')) return null;
  return [...value].every((character) => character.charCodeAt(0) > 0x1f && character.charCodeAt(0) !== 0x7f) ? value : null;
}

export interface StartInput {
  intent: OAuthIntent;
  next?: string | undefined;
  language?: string | undefined;
}

/** Step 1: the provider's authorization URL, and the binding the browser keeps in its cookie. */
export async function startOAuth(ctx: AppContext, provider: OAuthClient, input: StartInput, ip: string): Promise<{ url: URL; binding: string }> {
  await takeAttempts(ctx.db, oauthStartKeys(ip));
  const binding = randomToken(32);
  const state = randomToken(24);
  const url = await provider.authorizationUrl({
    redirectUri: callbackUrlOf(ctx.config.PUBLIC_URL, provider.id),
    state,
    nonce: nonceOf(ctx.config.jwtKey, binding),
    codeChallenge: await pkceChallenge(pkceVerifierOf(ctx.config.jwtKey, binding)),
  });
  await insertFlow(ctx.db, {
    stateHash: sha256Hex(state),
    bindingHash: sha256Hex(binding),
    provider: provider.id,
    intent: input.intent,
    nextPath: sitePath(input.next),
    language: input.language ?? null,
    ttlSeconds: FLOW_TTL_S,
  });
  return { url, binding };
}

const pkceChallenge = (verifier: string): Promise<string> => calculatePKCECodeChallenge(verifier);

/** Where the callback sends the browser: a one-time code, a cancellation (silent), or an error. */
export type CallbackOutcome =
  | { kind: 'code'; code: string; flow: OAuthFlowRow }
  | { kind: 'cancelled'; flow: OAuthFlowRow }
  | { kind: 'error'; error: SheafError; flow?: OAuthFlowRow };

/**
 * Step 2: the provider's answer (`params`: the callback's query or form post) in the browser that carries
 * `binding`. Never throws a catalogue error: the outcome says where the browser goes.
 */
export async function finishOAuth(
  ctx: AppContext, provider: OAuthClient, params: Record<string, string>, binding: string | undefined, ip: string,
): Promise<CallbackOutcome> {
  try {
    await takeAttempts(ctx.db, oauthExchangeKeys(ip));
  } catch (error) {
    if (error instanceof SheafError) return { kind: 'error', error };
    throw error;
  }
  const state = params['state'];
  const flow = state ? await spendState(ctx.db, sha256Hex(state)) : undefined;
  // Unknown, expired, used before, another provider's, or started in another browser: the same answer.
  if (!state || !flow || flow.provider !== provider.id || !binding || sha256Hex(binding) !== flow.binding_hash) {
    ctx.log.warn({ provider: provider.id, known: Boolean(flow), cookie: Boolean(binding) }, 'oauth callback refused: state');
    return { kind: 'error', error: new SheafError('oauth/state-invalid'), ...(flow ? { flow } : {}) };
  }
  if (params['error']) {
    if (params['error'] === 'access_denied') return { kind: 'cancelled', flow };
    return { kind: 'error', error: new SheafError('oauth/provider-error', { provider: provider.name, detail: safeParam(params['error']) }), flow };
  }
  const callbackUrl = new URL(callbackUrlOf(ctx.config.PUBLIC_URL, provider.id));
  for (const name of ['code', 'state', 'iss', 'session_state']) {
    const value = params[name];
    if (value !== undefined) callbackUrl.searchParams.set(name, value);
  }
  let identity;
  try {
    const { claims } = await provider.exchange(callbackUrl, {
      codeVerifier: pkceVerifierOf(ctx.config.jwtKey, binding),
      state,
      nonce: nonceOf(ctx.config.jwtKey, binding),
    });
    identity = identityFrom(provider.id, claims, params['user']);
  } catch (error) {
    if (!(error instanceof SheafError)) throw error;
    const cause = error.cause as { code?: unknown; message?: unknown } | undefined;
    ctx.log.warn({ provider: provider.id, code: error.code, reason: cause?.code ?? cause?.message }, 'oauth callback refused');
    return { kind: 'error', error, flow };
  }
  if (!identity.subject) return { kind: 'error', error: new SheafError('oauth/token-invalid', { provider: provider.name }), flow };
  // Only an address the provider verified may create an account or meet one (an already linked person signs in by subject).
  if (!identity.emailVerified && !(await findIdentity(ctx.db, provider.id, identity.subject))) {
    return { kind: 'error', error: new SheafError('oauth/email-unverified', { provider: provider.name }), flow };
  }
  const code = randomToken(32);
  await storeResult(ctx.db, flow.state_hash, {
    codeHash: sha256Hex(code),
    ttlSeconds: CODE_TTL_S,
    subject: identity.subject,
    email: identity.email,
    emailVerified: identity.emailVerified,
    firstName: identity.firstName,
    lastName: identity.lastName,
  });
  return { kind: 'code', code, flow };
}

const safeParam = (value: string | undefined) => (value && /^[A-Za-z0-9_.-]{1,60}$/.test(value) ? value : 'error');

// Step 3: the one-time code

type SignInInput = z.output<typeof OAuthSignInSchema>;
type LinkInput = z.output<typeof OAuthLinkSchema>;

interface Redeemed {
  result: OAuthResultRow;
  codeHash: string;
  name: string;
}

/**
 * The answer behind a one-time code, in the browser that signed in: `binding` is that browser's cookie
 * (the one the sign-in started with), so a code handed to someone else's browser (a link to
 * /oauth/callback#code=..., to sign them in to the attacker's account) opens nothing. Counted per client
 * before it is looked up.
 */
async function redeem(ctx: AppContext, token: string, binding: string | undefined, ip: string): Promise<Redeemed> {
  await takeAttempts(ctx.db, oauthExchangeKeys(ip));
  const codeHash = sha256Hex(token);
  const result = await findResult(ctx.db, codeHash);
  if (!result || !binding || sha256Hex(binding) !== result.binding_hash) throw new SheafError('oauth/code-invalid');
  return { result, codeHash, name: OAUTH_PROVIDER_NAMES[result.provider] };
}

/** Spends the code and starts the session in one transaction: a code copied and used twice gives one session. */
async function sessionFor(ctx: AppContext, codeHash: string, user: UserRow, work: (tx: Queryable) => Promise<void> = async () => undefined): Promise<Session> {
  if (user.disabled_at) throw new SheafError('auth/account-disabled');
  return ctx.db.transaction(async (tx) => {
    if (!(await consumeResult(tx, codeHash))) throw new SheafError('oauth/code-invalid');
    await work(tx);
    return startSession(ctx, user, tx);
  });
}

/** The user already linked to the provider's person, signed in; undefined when nobody is linked. */
async function linkedSession(ctx: AppContext, redeemed: Redeemed): Promise<{ session: Session; user: UserRow } | undefined> {
  const { result } = redeemed;
  const identity = await findIdentity(ctx.db, result.provider, result.subject);
  const user = identity ? await findUserById(ctx.db, identity.user_id) : undefined;
  if (!user) return undefined;
  const session = await sessionFor(ctx, redeemed.codeHash, user, (tx) => touchIdentity(tx, result.provider, result.subject));
  return { session, user };
}

/** The address of an answer that may meet an account: verified by the provider (the callback checked it too). */
function verifiedEmail(redeemed: Redeemed): string {
  const { result } = redeemed;
  if (!result.email || !result.email_verified) throw new SheafError('oauth/email-unverified', { provider: redeemed.name });
  return result.email;
}

/**
 * The provider's address belongs to another account: auth/account-exists-with-different-credential with
 * the account's methods; `linkable` when it has a password (the web app then offers to link with it).
 */
async function conflict(ctx: AppContext, user: UserRow, redeemed: Redeemed): Promise<SheafError> {
  const methods = await signInMethodsOf(ctx.db, user);
  return new SheafError('auth/account-exists-with-different-credential', {
    methods: methodList(methods),
    methodIds: methods.join(','),
    provider: redeemed.name,
    email: user.email,
    linkable: user.password_hash ? 1 : 0,
  });
}

/** POST /users/login/oauth: the account linked to the provider's person. */
export async function loginWithCode(ctx: AppContext, input: SignInInput, binding: string | undefined, ip: string): Promise<Session> {
  const redeemed = await redeem(ctx, input.token, binding, ip);
  const linked = await linkedSession(ctx, redeemed);
  if (linked) return linked.session;
  const email = verifiedEmail(redeemed);
  const existing = await findUserByEmail(ctx.db, email);
  if (existing) throw await conflict(ctx, existing, redeemed);
  // The code stays usable: the web app may offer to create the account with it (register).
  throw new SheafError('oauth/no-account', { email, provider: redeemed.name });
}

/** POST /users/register/oauth: a new account (no password, isOAuthUser and isNewUser), or the linked one. */
export async function registerWithCode(ctx: AppContext, input: SignInInput, binding: string | undefined, ip: string): Promise<Session & { user: User }> {
  const redeemed = await redeem(ctx, input.token, binding, ip);
  const linked = await linkedSession(ctx, redeemed);
  if (linked) return { ...linked.session, user: await userView(ctx.db, linked.user) };
  const email = verifiedEmail(redeemed);
  const existing = await findUserByEmail(ctx.db, email);
  if (existing) throw await conflict(ctx, existing, redeemed);
  const { result } = redeemed;
  const id = newId();
  try {
    const { session, user } = await ctx.db.transaction(async (tx) => {
      if (!(await consumeResult(tx, redeemed.codeHash))) throw new SheafError('oauth/code-invalid');
      await insertOAuthUser(tx, {
        id,
        email,
        firstName: result.first_name,
        lastName: result.last_name,
        language: input.language ?? result.language ?? 'en',
        billingPlan: INITIAL_PLAN[ctx.config.EDITION],
      });
      await insertIdentity(tx, { provider: result.provider, subject: result.subject, user_id: id, email });
      const row = (await findUserById(tx, id))!;
      return { session: await startSession(ctx, row, tx), user: row };
    });
    return { ...session, user: await userView(ctx.db, user) };
  } catch (error) {
    // The address was taken (a sign-up at the same moment), or the person linked meanwhile: nothing was written.
    if (!isUniqueViolation(error)) throw error;
    const taken = await findUserByEmail(ctx.db, email);
    throw taken ? await conflict(ctx, taken, redeemed) : new SheafError('oauth/code-invalid');
  }
}

/**
 * POST /users/login/oauth/link: the provider's address is a password account's; its password proves the
 * person owns it (a wrong one counts as a failed sign-in of that account), then the provider is linked
 * and the account signed in.
 */
export async function linkWithCode(ctx: AppContext, input: LinkInput, binding: string | undefined, ip: string): Promise<Session> {
  const redeemed = await redeem(ctx, input.token, binding, ip);
  const linked = await linkedSession(ctx, redeemed);
  if (linked) return linked.session;
  const email = verifiedEmail(redeemed);
  const user = await findUserByEmail(ctx.db, email);
  if (!user) throw new SheafError('oauth/no-account', { email, provider: redeemed.name });
  if (!user.password_hash) throw await conflict(ctx, user, redeemed);
  const attempt = await takeLoginAttempt(ctx.db, user.email, ip);
  if (!(await verifyPassword(user.password_hash, input.password))) throw new SheafFieldErrors({ password: 'auth/wrong-password' });
  await loginSucceeded(ctx.db, attempt);
  const { result } = redeemed;
  try {
    return await sessionFor(ctx, redeemed.codeHash, user, (tx) =>
      insertIdentity(tx, { provider: result.provider, subject: result.subject, user_id: user.id, email }),
    );
  } catch (error) {
    // The account has another person of this provider linked already.
    if (isUniqueViolation(error)) throw await conflict(ctx, user, redeemed);
    throw error;
  }
}
