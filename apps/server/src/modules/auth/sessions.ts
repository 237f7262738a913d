/**
 * Sessions: an access token plus a rotating refresh token. Each sign-in starts a token family; every
 * refresh marks the presented token rotated and hands out the next one of the family. A rotated or
 * revoked token presented again means it was copied: the whole family is revoked (theft detection).
 */
import { SheafError, type Session } from '@sheaf/shared';
import type { AppContext } from '../../context.ts';
import type { Queryable } from '../../adapters/db/types.ts';
import { newId } from '../../ids.ts';
import { randomToken, sha256Hex } from '../../crypto/secrets.ts';
import { findUserById } from '../users/index.ts';
import { issueAccessToken } from './tokens.ts';
import { findRefreshTokenFamily, insertRefreshToken, revokeFamily, revokeUserTokens, rotateRefreshToken } from './repository.ts';

type SessionContext = Pick<AppContext, 'config' | 'db'>;

interface SessionUser {
  id: string;
  email: string;
  password_changed_at: Date;
}

async function addRefreshToken(ctx: SessionContext, q: Queryable, uid: string, familyId: string): Promise<string> {
  const refreshToken = randomToken(32);
  await insertRefreshToken(q, {
    id: newId(),
    userId: uid,
    familyId,
    tokenHash: sha256Hex(refreshToken),
    ttlSeconds: ctx.config.REFRESH_TOKEN_TTL_S,
  });
  return refreshToken;
}

/** A new session (a new token family) for `user`. */
export async function startSession(ctx: SessionContext, user: SessionUser, q: Queryable = ctx.db): Promise<Session> {
  const refreshToken = await addRefreshToken(ctx, q, user.id, newId());
  const access = await issueAccessToken(ctx.config, user.id, user.password_changed_at);
  return { token: access.token, refreshToken, uid: user.id, email: user.email, expiresIn: access.expiresIn };
}

/** The token endpoint: exchanges a refresh token for new tokens, or detects reuse. */
export async function refreshSession(ctx: SessionContext, refreshToken: string): Promise<Session> {
  const tokenHash = sha256Hex(refreshToken);
  const outcome = await ctx.db.transaction(async (tx) => {
    const rotated = await rotateRefreshToken(tx, tokenHash);
    if (!rotated) return { reused: await findRefreshTokenFamily(tx, tokenHash) };
    const user = await findUserById(tx, rotated.user_id);
    if (!user || user.disabled_at) {
      await revokeFamily(tx, rotated.family_id);
      return {};
    }
    const next = await addRefreshToken(ctx, tx, user.id, rotated.family_id);
    return { user, next };
  });
  if (outcome.reused) await revokeFamily(ctx.db, outcome.reused.family_id);
  if (!('user' in outcome) || !outcome.user || !outcome.next) throw new SheafError('auth/unauthenticated');
  const access = await issueAccessToken(ctx.config, outcome.user.id, outcome.user.password_changed_at);
  return { token: access.token, refreshToken: outcome.next, uid: outcome.user.id, email: outcome.user.email, expiresIn: access.expiresIn };
}

/** Logout: revokes the family of the presented refresh token (unknown tokens are ignored). */
export async function endSession(ctx: SessionContext, refreshToken: string | undefined): Promise<void> {
  if (!refreshToken) return;
  const token = await findRefreshTokenFamily(ctx.db, sha256Hex(refreshToken));
  if (token) await revokeFamily(ctx.db, token.family_id);
}

/**
 * Ends every session of the user (a child user disabled by the admin): their refresh tokens are
 * revoked here; their access tokens are refused from the next request on, since verifyAccessToken
 * reads the user's disabled_at (tokens.ts).
 */
export async function endUserSessions(q: Queryable, uid: string): Promise<void> {
  await revokeUserTokens(q, uid);
}
