/**
 * Child users (docs/accounts.md#child-users): the account holder adds users who work inside the
 * account, lists, disables, enables and deletes them, and has a reset link mailed to them. Only a
 * principal with 'users:manage' may (never a child user: access/can.ts); another account's user is
 * "not found". The plan's users (the catalogue's `users`, the holder included) are the limit, counted
 * under a lock on the account's row so parallel requests cannot pass it.
 */
import type { z } from 'zod';
import {
  SheafError, SheafFieldErrors, billingPlanOf, entitlements, type ChildUser, type ChildUserList, type RegisterChildRequestSchema,
} from '@sheaf/shared';
import type { AppContext } from '../../context.ts';
import { accountFor, type Principal } from '../../access/index.ts';
import { newId } from '../../ids.ts';
import {
  checkNewUserFields, endUserSessions, hashPassword, isUniqueViolation, registerChildKeys, resetKeys, sendPasswordResetMail, takeAttempts,
} from '../auth/index.ts';
import { countChildUsers, insertUser } from '../users/index.ts';
import './events.ts';
import { deleteChild, findChild, listChildren, lockAccount, setChildDisabled, type ChildRow } from './repository.ts';

export function presentChild(row: ChildRow): ChildUser {
  return {
    uid: row.id,
    email: row.email,
    firstName: row.first_name,
    lastName: row.last_name,
    status: row.disabled_at ? 'disabled' : 'active',
    createdAt: row.created_at.toISOString(),
    disabledAt: row.disabled_at?.toISOString() ?? null,
  };
}

export async function listChildUsers(ctx: AppContext, principal: Principal): Promise<ChildUserList> {
  const accountId = accountFor(principal, 'users:manage');
  const rows = await listChildren(ctx.db, accountId);
  return { users: rows.map(presentChild), seats: { used: rows.length + 1, limit: principal.entitlements.users } };
}

/** users/seat-limit (402) when the account's users, the holder included, already fill `limit`. */
function assertSeatFree(children: number, limit: number): void {
  if (children + 1 >= limit) throw new SheafError('users/seat-limit', { max: limit });
}

type RegisterChildInput = z.output<typeof RegisterChildRequestSchema>;

/** A new child user, active at once, with the sign-up's checks (no company, no terms) and the admin's language. */
export async function registerChild(ctx: AppContext, principal: Principal, input: RegisterChildInput): Promise<ChildUser> {
  const accountId = accountFor(principal, 'users:manage');
  // Counted before anything is checked or hashed: each try costs a password hash.
  await takeAttempts(ctx.db, registerChildKeys(accountId));
  // A plan without room is told so before the form is checked (the answer is "upgrade", whatever the fields).
  assertSeatFree(await countChildUsers(ctx.db, accountId), principal.entitlements.users);
  const { firstName, lastName } = await checkNewUserFields(ctx.db, input);
  const passwordHash = await hashPassword(input.password);
  try {
    const row = await ctx.db.transaction(async (tx) => {
      // The account's row stays locked until the new user is in: parallel requests count one after the other.
      const account = await lockAccount(tx, accountId);
      if (!account) throw new SheafError('access/forbidden', { action: 'users:manage' });
      const plan = billingPlanOf(account.billing_plan);
      assertSeatFree(await countChildUsers(tx, accountId), entitlements(plan, ctx.config.EDITION).users);
      return insertUser(tx, {
        id: newId(), email: input.email, passwordHash, firstName, lastName, company: '', language: account.language, parentUid: accountId,
      });
    });
    return presentChild(row);
  } catch (error) {
    if (isUniqueViolation(error)) throw new SheafFieldErrors({ email: 'auth/email-already-in-use' });
    throw error;
  }
}

async function requireChild(ctx: AppContext, accountId: string, uid: string): Promise<ChildRow> {
  const child = await findChild(ctx.db, accountId, uid);
  if (!child) throw new SheafError('users/not-found');
  return child;
}

/** Disables the child user: no sign-in (auth/account-disabled), and every session ends at once. */
export async function disableChildUser(ctx: AppContext, principal: Principal, uid: string): Promise<ChildUser> {
  const accountId = accountFor(principal, 'users:manage');
  const row = await ctx.db.transaction(async (tx) => {
    const disabled = await setChildDisabled(tx, accountId, uid, true);
    if (!disabled) throw new SheafError('users/not-found');
    // Refresh tokens revoked here; access tokens are refused from the next request (tokens.ts reads disabled_at).
    await endUserSessions(tx, uid);
    return disabled;
  });
  return presentChild(row);
}

/** Enables a disabled child user: they sign in again (with the password they had). */
export async function enableChildUser(ctx: AppContext, principal: Principal, uid: string): Promise<ChildUser> {
  const accountId = accountFor(principal, 'users:manage');
  const row = await setChildDisabled(ctx.db, accountId, uid, false);
  if (!row) throw new SheafError('users/not-found');
  return presentChild(row);
}

/**
 * Mails the child user a reset link in their language (the reset page's flow and limits: 3 an hour per
 * address). A disabled user is refused (users/disabled): the link would not let them in.
 */
export async function resetChildPassword(ctx: AppContext, principal: Principal, uid: string, ip: string): Promise<{ ok: true }> {
  const accountId = accountFor(principal, 'users:manage');
  const child = await requireChild(ctx, accountId, uid);
  if (child.disabled_at) throw new SheafError('users/disabled');
  await takeAttempts(ctx.db, resetKeys(child.email, ip));
  await sendPasswordResetMail(ctx, child);
  return { ok: true };
}

/**
 * Deletes the child user's login, sessions and reset links. The account's data stays: templates,
 * spreadsheets, senders and merges were the account's all along (the merges they started count as the
 * holder's from then on), and their support requests pass to the holder.
 */
export async function deleteChildUser(ctx: AppContext, principal: Principal, uid: string): Promise<{ ok: true }> {
  const accountId = accountFor(principal, 'users:manage');
  await ctx.db.transaction(async (tx) => {
    if (!(await findChild(tx, accountId, uid))) throw new SheafError('users/not-found');
    await ctx.events.emit('child-user.deleting', { tx, accountId, userId: uid });
    if (!(await deleteChild(tx, accountId, uid))) throw new SheafError('users/not-found');
  });
  return { ok: true };
}
