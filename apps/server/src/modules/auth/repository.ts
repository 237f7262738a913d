/**
 * SQL of sign-in state: refresh tokens (rotating, in families), password-reset tokens and failed
 * attempts for rate limits. Tokens are stored only as sha256 hashes.
 */
import type { Queryable } from '../../adapters/db/types.ts';

/** What verifying an access token needs to know about its user, and the account it acts in (one lookup). */
export interface TokenState {
  disabled_at: Date | null;
  password_changed_at: Date;
  parent_uid: string | null;
  /** The account's plan: a child user's is its parent's. */
  billing_plan: string;
}

export async function findTokenState(q: Queryable, uid: string): Promise<TokenState | undefined> {
  const [row] = await q.query<TokenState>(
    `SELECT u.disabled_at, u.password_changed_at, u.parent_uid, COALESCE(p.billing_plan, u.billing_plan) AS billing_plan
       FROM users u LEFT JOIN users p ON p.id = u.parent_uid WHERE u.id = $1`,
    [uid],
  );
  return row;
}

// Refresh tokens

export interface NewRefreshToken {
  id: string;
  userId: string;
  familyId: string;
  tokenHash: string;
  ttlSeconds: number;
}

export async function insertRefreshToken(q: Queryable, token: NewRefreshToken): Promise<void> {
  await q.query(
    `INSERT INTO refresh_tokens (id, user_id, family_id, token_hash, expires_at)
     VALUES ($1, $2, $3, $4, now() + make_interval(secs => $5))`,
    [token.id, token.userId, token.familyId, token.tokenHash, token.ttlSeconds],
  );
}

/**
 * Marks a live token rotated and returns its user and family, in one statement, so two requests
 * presenting the same token cannot both succeed. Undefined when the token is unknown, expired,
 * rotated or revoked.
 */
export async function rotateRefreshToken(q: Queryable, tokenHash: string): Promise<{ user_id: string; family_id: string } | undefined> {
  const [row] = await q.query<{ user_id: string; family_id: string }>(
    `UPDATE refresh_tokens SET rotated_at = now()
     WHERE token_hash = $1 AND rotated_at IS NULL AND revoked_at IS NULL AND expires_at > now()
     RETURNING user_id, family_id`,
    [tokenHash],
  );
  return row;
}

export async function findRefreshTokenFamily(q: Queryable, tokenHash: string): Promise<{ user_id: string; family_id: string } | undefined> {
  const [row] = await q.query<{ user_id: string; family_id: string }>(
    'SELECT user_id, family_id FROM refresh_tokens WHERE token_hash = $1',
    [tokenHash],
  );
  return row;
}

export async function revokeFamily(q: Queryable, familyId: string): Promise<void> {
  await q.query('UPDATE refresh_tokens SET revoked_at = now() WHERE family_id = $1 AND revoked_at IS NULL', [familyId]);
}

/** Revokes every refresh token of the user (password reset or change). */
export async function revokeUserTokens(q: Queryable, uid: string): Promise<void> {
  await q.query('UPDATE refresh_tokens SET revoked_at = now() WHERE user_id = $1 AND revoked_at IS NULL', [uid]);
}

// Password resets

export async function insertPasswordReset(q: Queryable, tokenHash: string, uid: string, ttlSeconds: number): Promise<void> {
  await q.query(
    `INSERT INTO password_resets (token_hash, user_id, expires_at) VALUES ($1, $2, now() + make_interval(secs => $3))`,
    [tokenHash, uid, ttlSeconds],
  );
}

/** Uses a reset token once: returns its user if it was valid, unused and not expired. */
export async function consumePasswordReset(q: Queryable, tokenHash: string): Promise<string | undefined> {
  const [row] = await q.query<{ user_id: string }>(
    `UPDATE password_resets SET used_at = now()
     WHERE token_hash = $1 AND used_at IS NULL AND expires_at > now() RETURNING user_id`,
    [tokenHash],
  );
  return row?.user_id;
}

/** A reset token that is still usable (checked before the password rules, consumed after them). */
export async function passwordResetUsable(q: Queryable, tokenHash: string): Promise<boolean> {
  const rows = await q.query('SELECT 1 FROM password_resets WHERE token_hash = $1 AND used_at IS NULL AND expires_at > now()', [tokenHash]);
  return rows.length > 0;
}

// Attempts (rate limits)

/**
 * Serialises the attempts on these keys until the transaction ends (PostgreSQL advisory locks; keys
 * in one order so two transactions never wait on each other crosswise).
 */
export async function lockAttemptKeys(tx: Queryable, keys: readonly string[]): Promise<void> {
  for (const key of [...new Set(keys)].sort()) await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`auth-attempt:${key}`]);
}

export async function countAttempts(q: Queryable, key: string, windowSeconds: number): Promise<number> {
  const [row] = await q.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM auth_attempts WHERE key = $1 AND attempted_at > now() - make_interval(secs => $2)`,
    [key, windowSeconds],
  );
  return row?.n ?? 0;
}

/** Records an attempt and forgets this key's attempts that have left the window. */
export async function recordAttempt(q: Queryable, key: string, windowSeconds: number): Promise<void> {
  await q.query(`DELETE FROM auth_attempts WHERE key = $1 AND attempted_at <= now() - make_interval(secs => $2)`, [key, windowSeconds]);
  await q.query('INSERT INTO auth_attempts (key) VALUES ($1)', [key]);
}

/** Hands back the key's latest attempt (it turned out not to be a failure). */
export async function creditAttempt(q: Queryable, key: string): Promise<void> {
  await q.query(
    `DELETE FROM auth_attempts WHERE ctid = (SELECT ctid FROM auth_attempts WHERE key = $1 ORDER BY attempted_at DESC LIMIT 1)`,
    [key],
  );
}

export async function clearAttempts(q: Queryable, key: string): Promise<void> {
  await q.query('DELETE FROM auth_attempts WHERE key = $1', [key]);
}

/** Deletes up to `batch` attempts, of any key, older than `seconds`; returns how many. */
export async function deleteAttemptsOlderThan(q: Queryable, seconds: number, batch: number): Promise<number> {
  const [row] = await q.query<{ n: number }>(
    `WITH gone AS (
       DELETE FROM auth_attempts WHERE ctid = ANY(ARRAY(
         SELECT ctid FROM auth_attempts WHERE attempted_at <= now() - make_interval(secs => $1) LIMIT $2))
       RETURNING 1)
     SELECT count(*)::int AS n FROM gone`,
    [seconds, batch],
  );
  return row?.n ?? 0;
}

/** Forgets the attempts of every key that starts with `prefix` (compared as text, not as a LIKE pattern). */
export async function clearAttemptsStartingWith(q: Queryable, prefix: string): Promise<void> {
  await q.query('DELETE FROM auth_attempts WHERE left(key, length($1)) = $1', [prefix]);
}
