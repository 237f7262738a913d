/** SQL of the users table (accounts, profile, quota period). Every query names the user it touches. */
import type { BillingPlan } from '@sheaf/shared';
import type { Queryable } from '../../adapters/db/types.ts';

export interface UserRow {
  id: string;
  email: string;
  password_hash: string | null;
  first_name: string;
  last_name: string;
  company: string;
  language: string;
  billing_plan: string;
  billing_cycle: string | null;
  billing_date: Date;
  counter: number;
  currency: string;
  parent_uid: string | null;
  is_oauth_user: boolean;
  is_new_user: boolean;
  view: string;
  disabled_at: Date | null;
  password_changed_at: Date;
  created_at: Date;
  /** A checkout or plan change waits for Stripe since then (billing module). */
  billing_plan_updating_at: Date | null;
}

const COLUMNS = `id, email, password_hash, first_name, last_name, company, language, billing_plan, billing_cycle,
  billing_date, counter, currency, parent_uid, is_oauth_user, is_new_user, view, disabled_at, password_changed_at, created_at,
  billing_plan_updating_at`;

export async function findUserById(q: Queryable, uid: string): Promise<UserRow | undefined> {
  const [row] = await q.query<UserRow>(`SELECT ${COLUMNS} FROM users WHERE id = $1`, [uid]);
  return row;
}

export async function findUserByEmail(q: Queryable, email: string): Promise<UserRow | undefined> {
  const [row] = await q.query<UserRow>(`SELECT ${COLUMNS} FROM users WHERE email = $1`, [email]);
  return row;
}

export async function emailTaken(q: Queryable, email: string, exceptUid = ''): Promise<boolean> {
  const rows = await q.query('SELECT 1 FROM users WHERE email = $1 AND id <> $2', [email, exceptUid]);
  return rows.length > 0;
}

export interface NewUser {
  id: string;
  email: string;
  passwordHash: string;
  firstName: string;
  lastName: string;
  company: string;
  language: string;
  parentUid?: string | null;
  /** The plan catalogue's INITIAL_PLAN of the edition; absent: the column's default (Free). */
  billingPlan?: BillingPlan;
}

export async function insertUser(q: Queryable, user: NewUser): Promise<UserRow> {
  const [row] = await q.query<UserRow>(
    `INSERT INTO users (id, email, password_hash, first_name, last_name, company, language, parent_uid, billing_plan)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, COALESCE($9, 'Free')) RETURNING ${COLUMNS}`,
    [user.id, user.email, user.passwordHash, user.firstName, user.lastName, user.company, user.language, user.parentUid ?? null, user.billingPlan ?? null],
  );
  return row!;
}

/** Stores a new password hash; every access token issued before now stops working. */
export async function setPasswordHash(q: Queryable, uid: string, passwordHash: string): Promise<UserRow> {
  const [row] = await q.query<UserRow>(
    // clock_timestamp(), not now(): two changes in one transaction must still differ.
    `UPDATE users SET password_hash = $2, password_changed_at = clock_timestamp() WHERE id = $1 RETURNING ${COLUMNS}`,
    [uid, passwordHash],
  );
  return row!;
}

export interface ProfileChanges {
  firstName?: string;
  lastName?: string;
  company?: string;
  language?: string;
  view?: string;
}

export async function updateProfile(q: Queryable, uid: string, changes: ProfileChanges): Promise<void> {
  await q.query(
    `UPDATE users SET first_name = COALESCE($2, first_name), last_name = COALESCE($3, last_name),
       company = COALESCE($4, company), language = COALESCE($5, language), view = COALESCE($6, view)
     WHERE id = $1`,
    [uid, changes.firstName ?? null, changes.lastName ?? null, changes.company ?? null, changes.language ?? null, changes.view ?? null],
  );
}

export async function updateEmail(q: Queryable, uid: string, email: string): Promise<void> {
  await q.query('UPDATE users SET email = $2 WHERE id = $1', [uid, email]);
}

export async function setBillingPlan(q: Queryable, uid: string, plan: string): Promise<void> {
  await q.query('UPDATE users SET billing_plan = $2 WHERE id = $1', [uid, plan]);
}

export async function listUsers(q: Queryable): Promise<UserRow[]> {
  return q.query<UserRow>(`SELECT ${COLUMNS} FROM users ORDER BY created_at, email`);
}

export async function countChildUsers(q: Queryable, uid: string): Promise<number> {
  const [row] = await q.query<{ n: number }>('SELECT count(*)::int AS n FROM users WHERE parent_uid = $1', [uid]);
  return row?.n ?? 0;
}

/** Deletes the user; templates, merges, fonts, tokens and the rest go with it (ON DELETE CASCADE). */
export async function deleteUser(q: Queryable, uid: string): Promise<void> {
  await q.query('DELETE FROM users WHERE id = $1', [uid]);
}
