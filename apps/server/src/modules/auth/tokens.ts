/**
 * Access tokens: short-lived JWTs (HS256, issuer and audience 'sheaf'). A token carries the user's
 * password version (`pwv`, the time the password last changed), so changing or resetting the password
 * ends every session at once, not only when the token expires.
 */
import { SignJWT, jwtVerify, errors as joseErrors } from 'jose';
import { SheafError } from '@sheaf/shared';
import type { Config } from '../../config.ts';
import type { AuthUser } from '../../context.ts';
import type { Queryable } from '../../adapters/db/types.ts';
import { findTokenState, type TokenState } from './repository.ts';

export const TOKEN_ISSUER = 'sheaf';
export const TOKEN_AUDIENCE = 'sheaf';

type TokenConfig = Pick<Config, 'jwtKey' | 'ACCESS_TOKEN_TTL_S'>;

export interface IssuedToken {
  token: string;
  /** Seconds until it expires. */
  expiresIn: number;
}

/** `passwordChangedAt` (the users row's password_changed_at) ties the token to the current password. */
export async function issueAccessToken(config: TokenConfig, uid: string, passwordChangedAt?: Date): Promise<IssuedToken> {
  const expiresIn = config.ACCESS_TOKEN_TTL_S;
  const nowS = Math.floor(Date.now() / 1000);
  const claims = passwordChangedAt ? { pwv: passwordChangedAt.getTime() } : {};
  const token = await new SignJWT(claims)
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuer(TOKEN_ISSUER)
    .setAudience(TOKEN_AUDIENCE)
    .setSubject(uid)
    .setIssuedAt(nowS)
    .setExpirationTime(nowS + expiresIn)
    .sign(config.jwtKey);
  return { token, expiresIn };
}

/**
 * The user a token speaks for. Wrong signature, expired, another audience or issuer: auth/unauthenticated.
 * With `db`, also refuses tokens of deleted or disabled users and tokens issued before the password
 * last changed, and answers the account the user acts in (one indexed lookup by primary key, which the
 * principal reuses rather than reading the user again).
 */
export async function verifyAccessToken(config: Pick<Config, 'jwtKey'>, token: string, db?: Queryable): Promise<AuthUser & { account?: SessionAccount }> {
  let subject: string | undefined;
  let passwordVersion: unknown;
  let issuedAtS: number | undefined;
  try {
    const { payload } = await jwtVerify(token, config.jwtKey, {
      issuer: TOKEN_ISSUER,
      audience: TOKEN_AUDIENCE,
      algorithms: ['HS256'],
      requiredClaims: ['sub', 'exp'],
    });
    subject = payload.sub;
    passwordVersion = payload['pwv'];
    issuedAtS = payload.iat;
  } catch (error) {
    if (error instanceof joseErrors.JOSEError) throw new SheafError('auth/unauthenticated');
    throw error;
  }
  if (!subject) throw new SheafError('auth/unauthenticated');
  if (!db) return { uid: subject };
  const user = await assertTokenStillValid(db, subject, passwordVersion, issuedAtS);
  return { uid: subject, account: { parentUid: user.parent_uid, billingPlan: user.billing_plan } };
}

/** The account a verified session acts in: the parent's for a child user, and the account's plan. */
export interface SessionAccount {
  parentUid: string | null;
  billingPlan: string;
}

async function assertTokenStillValid(db: Queryable, uid: string, passwordVersion: unknown, issuedAtS: number | undefined): Promise<TokenState> {
  const user = await findTokenState(db, uid);
  if (!user || user.disabled_at) throw new SheafError('auth/unauthenticated');
  const changedAtMs = user.password_changed_at.getTime();
  if (typeof passwordVersion === 'number') {
    if (passwordVersion !== changedAtMs) throw new SheafError('auth/unauthenticated');
  } else if (issuedAtS === undefined || issuedAtS < Math.floor(changedAtMs / 1000)) {
    // A token without a password version (issued elsewhere): at least not older than the password.
    throw new SheafError('auth/unauthenticated');
  }
  return user;
}
