/**
 * SQL of an account's child users: rows of the users table whose parent_uid is the account. Every
 * query names the account, so another account's user is simply not found.
 */
import type { Queryable } from '../../adapters/db/types.ts';

export interface ChildRow {
  id: string;
  email: string;
  first_name: string;
  last_name: string;
  language: string;
  disabled_at: Date | null;
  created_at: Date;
}

const COLUMNS = 'id, email, first_name, last_name, language, disabled_at, created_at';

/**
 * Locks the account's own row until the transaction ends and answers its plan: two child users created
 * at once for one account are counted one after the other (PostgreSQL's many connections; PGlite has one).
 * Answers its plan and language; undefined when the account is gone or is itself a child user.
 */
export async function lockAccount(tx: Queryable, accountId: string): Promise<{ billing_plan: string; language: string } | undefined> {
  const [row] = await tx.query<{ billing_plan: string; language: string }>(
    'SELECT billing_plan, language FROM users WHERE id = $1 AND parent_uid IS NULL FOR UPDATE',
    [accountId],
  );
  return row;
}

export async function listChildren(q: Queryable, accountId: string): Promise<ChildRow[]> {
  return q.query<ChildRow>(`SELECT ${COLUMNS} FROM users WHERE parent_uid = $1 ORDER BY created_at, email`, [accountId]);
}

export async function findChild(q: Queryable, accountId: string, uid: string): Promise<ChildRow | undefined> {
  const [row] = await q.query<ChildRow>(`SELECT ${COLUMNS} FROM users WHERE id = $1 AND parent_uid = $2`, [uid, accountId]);
  return row;
}

/** Disables (keeping the first time it was disabled) or enables the account's child user. */
export async function setChildDisabled(q: Queryable, accountId: string, uid: string, disabled: boolean): Promise<ChildRow | undefined> {
  const [row] = await q.query<ChildRow>(
    `UPDATE users SET disabled_at = ${disabled ? 'COALESCE(disabled_at, now())' : 'NULL'}
     WHERE id = $1 AND parent_uid = $2 RETURNING ${COLUMNS}`,
    [uid, accountId],
  );
  return row;
}

/**
 * Deletes the account's child user: their sign-in, sessions and reset links go with the row (ON DELETE
 * CASCADE); the merges they started stay the account's (actor_id SET NULL). False when not found.
 */
export async function deleteChild(q: Queryable, accountId: string, uid: string): Promise<boolean> {
  const rows = await q.query('DELETE FROM users WHERE id = $1 AND parent_uid = $2 RETURNING id', [uid, accountId]);
  return rows.length > 0;
}
