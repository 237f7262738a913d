/**
 * SQL of sign-in with a provider (docs/accounts.md#social-sign-in): the identities linked to users and the
 * sign-ins in progress. States, cookies and one-time codes are stored only as sha256 hashes.
 */
import type { BillingPlan, OAuthIntent, OAuthProvider } from '@sheaf/shared';
import type { Queryable } from '../../adapters/db/types.ts';

// Identities

export interface OAuthIdentityRow {
  provider: OAuthProvider;
  subject: string;
  user_id: string;
  email: string;
}

export async function findIdentity(q: Queryable, provider: OAuthProvider, subject: string): Promise<OAuthIdentityRow | undefined> {
  const [row] = await q.query<OAuthIdentityRow>('SELECT provider, subject, user_id, email FROM oauth_identities WHERE provider = $1 AND subject = $2', [provider, subject]);
  return row;
}

/** The providers linked to the user, in the order they were linked. */
export async function identityProviders(q: Queryable, userId: string): Promise<OAuthProvider[]> {
  const rows = await q.query<{ provider: OAuthProvider }>('SELECT provider FROM oauth_identities WHERE user_id = $1 ORDER BY created_at, provider', [userId]);
  return rows.map((row) => row.provider);
}

export async function insertIdentity(q: Queryable, identity: OAuthIdentityRow): Promise<void> {
  await q.query(
    'INSERT INTO oauth_identities (provider, subject, user_id, email, last_used_at) VALUES ($1, $2, $3, $4, now())',
    [identity.provider, identity.subject, identity.user_id, identity.email],
  );
}

export async function touchIdentity(q: Queryable, provider: OAuthProvider, subject: string): Promise<void> {
  await q.query('UPDATE oauth_identities SET last_used_at = now() WHERE provider = $1 AND subject = $2', [provider, subject]);
}

export interface NewOAuthUser {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
  language: string;
  billingPlan: BillingPlan;
}

/**
 * A user created through a provider: no password (users.password_hash stays null), flagged as an OAuth
 * user and new. Written here rather than with the users module's insertUser, which takes a password.
 */
export async function insertOAuthUser(q: Queryable, user: NewOAuthUser): Promise<void> {
  await q.query(
    `INSERT INTO users (id, email, password_hash, first_name, last_name, language, billing_plan, is_oauth_user, is_new_user)
     VALUES ($1, $2, NULL, $3, $4, $5, $6, true, true)`,
    [user.id, user.email, user.firstName, user.lastName, user.language, user.billingPlan],
  );
}

// Sign-ins in progress

export interface NewOAuthFlow {
  stateHash: string;
  bindingHash: string;
  provider: OAuthProvider;
  intent: OAuthIntent;
  nextPath: string | null;
  language: string | null;
  ttlSeconds: number;
}

export interface OAuthFlowRow {
  state_hash: string;
  binding_hash: string;
  provider: OAuthProvider;
  intent: OAuthIntent;
  next_path: string | null;
  language: string | null;
}

/** The verified answer of the provider, kept under the one-time code. */
export interface OAuthResultRow extends OAuthFlowRow {
  subject: string;
  email: string | null;
  email_verified: boolean;
  first_name: string;
  last_name: string;
}

const FLOW_COLUMNS = 'state_hash, binding_hash, provider, intent, next_path, language';
const RESULT_COLUMNS = `${FLOW_COLUMNS}, subject, email, email_verified, first_name, last_name`;

/** Forgets the sign-ins that expired (the daily sweep; new sign-ins do it too); returns how many. */
export async function deleteExpiredFlows(q: Queryable): Promise<number> {
  const rows = await q.query('DELETE FROM oauth_flows WHERE expires_at <= now() RETURNING 1');
  return rows.length;
}

/** Records a sign-in leaving for the provider, and forgets the ones that expired. */
export async function insertFlow(q: Queryable, flow: NewOAuthFlow): Promise<void> {
  await q.query('DELETE FROM oauth_flows WHERE expires_at <= now()');
  await q.query(
    `INSERT INTO oauth_flows (state_hash, binding_hash, provider, intent, next_path, language, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, now() + make_interval(secs => $7))`,
    [flow.stateHash, flow.bindingHash, flow.provider, flow.intent, flow.nextPath, flow.language, flow.ttlSeconds],
  );
}

/**
 * Uses up a state: the sign-in it names, if it is known, not expired and not used before. One statement,
 * so the same state presented twice (at once or later) is good only once.
 */
export async function spendState(q: Queryable, stateHash: string): Promise<OAuthFlowRow | undefined> {
  const [row] = await q.query<OAuthFlowRow>(
    `UPDATE oauth_flows SET returned_at = now()
     WHERE state_hash = $1 AND returned_at IS NULL AND code_hash IS NULL AND expires_at > now()
     RETURNING ${FLOW_COLUMNS}`,
    [stateHash],
  );
  return row;
}

export interface OAuthResult {
  codeHash: string;
  ttlSeconds: number;
  subject: string;
  email: string | null;
  emailVerified: boolean;
  firstName: string;
  lastName: string;
}

/** Keeps the verified answer of a returned sign-in under the one-time code's hash. */
export async function storeResult(q: Queryable, stateHash: string, result: OAuthResult): Promise<void> {
  await q.query(
    `UPDATE oauth_flows SET code_hash = $2, code_expires_at = now() + make_interval(secs => $3), expires_at = now() + make_interval(secs => $3),
       subject = $4, email = $5, email_verified = $6, first_name = $7, last_name = $8
     WHERE state_hash = $1`,
    [stateHash, result.codeHash, result.ttlSeconds, result.subject, result.email, result.emailVerified, result.firstName, result.lastName],
  );
}

/** The answer a one-time code holds, if the code is known and not expired (it stays usable). */
export async function findResult(q: Queryable, codeHash: string): Promise<OAuthResultRow | undefined> {
  const [row] = await q.query<OAuthResultRow>(
    `SELECT ${RESULT_COLUMNS} FROM oauth_flows WHERE code_hash = $1 AND code_expires_at > now()`,
    [codeHash],
  );
  return row;
}

/** Uses up a one-time code (in the transaction that starts the session): true only for the one caller that did. */
export async function consumeResult(q: Queryable, codeHash: string): Promise<boolean> {
  const rows = await q.query('DELETE FROM oauth_flows WHERE code_hash = $1 AND code_expires_at > now() RETURNING 1', [codeHash]);
  return rows.length > 0;
}
