/** The signed-in user's own account: profile and credits (docs/accounts.md). Email, password and deletion need the
 * current password: auth/account.ts. */
import type { z } from 'zod';
import { SheafError, SheafFieldErrors, cleanWhitespace, type ErrorCode, type UpdateMeSchema, type User } from '@sheaf/shared';
import type { AppContext } from '../../context.ts';
import type { Queryable } from '../../adapters/db/types.ts';
import { currentPeriod, getCredits, type Credits } from './quota.ts';
import { findUserById, updateProfile, type UserRow } from './repository.ts';
import { accountFor, actorFor, type Principal } from '../../access/index.ts';

/** A checkout or plan change older than this no longer counts as waiting (an abandoned checkout, docs/billing.md#checkout). */
export const BILLING_UPDATE_WAIT_MS = 30 * 60 * 1000;

export const isUpdatingBillingPlan = (since: Date | null, now = Date.now()): boolean => since !== null && now - since.getTime() < BILLING_UPDATE_WAIT_MS;

/**
 * The user row as the client sees it (UserSchema), with the current quota period. The plan, cycle,
 * quota and counter are the account's (`account`): a child user's are the parent's (docs/accounts.md#child-users).
 */
export async function userView(q: Queryable, row: UserRow, account: UserRow = row): Promise<User> {
  const period = await currentPeriod(q, account.id);
  return {
    uid: row.id,
    email: row.email,
    firstName: row.first_name,
    lastName: row.last_name,
    company: row.company,
    language: row.language as User['language'],
    billingPlan: period.plan,
    billingCycle: account.billing_cycle === 'month' || account.billing_cycle === 'year' ? account.billing_cycle : null,
    billingDate: period.billingDate.toISOString(),
    counter: period.counter,
    quota: period.quota,
    currency: account.currency,
    createdAt: row.created_at.toISOString(),
    parentUid: row.parent_uid,
    isOAuthUser: row.is_oauth_user,
    hasPassword: row.password_hash !== null,
    isNewUser: row.is_new_user,
    view: row.view === 'list' ? 'list' : 'grid',
    isUpdatingBillingPlan: isUpdatingBillingPlan(account.billing_plan_updating_at),
  };
}

/** The signed-in user's row; a deleted or disabled account ends the session. */
export async function requireUser(q: Queryable, uid: string): Promise<UserRow> {
  const row = await findUserById(q, uid);
  if (!row || row.disabled_at) throw new SheafError('auth/unauthenticated');
  return row;
}

export async function getMe(ctx: AppContext, principal: Principal): Promise<User> {
  const uid = actorFor(principal, 'account');
  const row = await requireUser(ctx.db, uid);
  // A child user works in the parent's account: its plan, quota and counter (the navbar's chips).
  const account = row.parent_uid ? await findUserById(ctx.db, row.parent_uid) : row;
  return userView(ctx.db, row, account ?? row);
}

/** The account's credits for a merge of `toBeUsed` documents (a child user sees the parent's). */
export async function credits(ctx: AppContext, principal: Principal, toBeUsed: number): Promise<Credits> {
  return getCredits(ctx.db, accountFor(principal, 'merges:read'), toBeUsed);
}

export async function updateMe(ctx: AppContext, principal: Principal, input: z.output<typeof UpdateMeSchema>): Promise<User> {
  const uid = actorFor(principal, 'account');
  await requireUser(ctx.db, uid);
  const firstName = input.firstName === undefined ? undefined : cleanWhitespace(input.firstName);
  const lastName = input.lastName === undefined ? undefined : cleanWhitespace(input.lastName);
  const fields: Record<string, ErrorCode> = {};
  if (firstName === '') fields['firstName'] = 'auth/firstname-empty';
  if (lastName === '') fields['lastName'] = 'auth/lastname-empty';
  if (Object.keys(fields).length > 0) throw new SheafFieldErrors(fields);
  const company = input.company === undefined ? undefined : cleanWhitespace(input.company);
  await updateProfile(ctx.db, uid, { firstName, lastName, company, language: input.language, view: input.view });
  return getMe(ctx, principal);
}
