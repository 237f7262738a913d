/** The signed-in user's own account: profile, email, password, deletion and credits (spec sections 2, 3, 6). */
import type { z } from 'zod';
import {
  SheafError, SheafFieldErrors, cleanWhitespace, type ChangeEmailSchema, type ChangePasswordSchema, type ErrorCode,
  type Session, type UpdateMeSchema, type User,
} from '@sheaf/shared';
import type { AppContext } from '../../context.ts';
import type { Queryable } from '../../adapters/db/types.ts';
import { blobLayout } from '../../adapters/blobs/layout.ts';
import { hashPassword, newPasswordErrors } from '../auth/passwords.ts';
import { assertCurrentPassword, emailProblem, isUniqueViolation } from '../auth/service.ts';
import { revokeUserTokens } from '../auth/repository.ts';
import { startSession } from '../auth/sessions.ts';
import { currentPeriod } from './quota.ts';
import {
  countChildUsers, deleteUser, findUserById, listOwnedBlobIds, setPasswordHash, updateEmail, updateProfile, type UserRow,
} from './repository.ts';

/** The user row as the client sees it (UserSchema), with the current quota period. */
export async function userView(q: Queryable, row: UserRow): Promise<User> {
  const period = await currentPeriod(q, row.id);
  return {
    uid: row.id,
    email: row.email,
    firstName: row.first_name,
    lastName: row.last_name,
    company: row.company,
    language: row.language as User['language'],
    billingPlan: period.plan,
    billingCycle: row.billing_cycle === 'month' || row.billing_cycle === 'year' ? row.billing_cycle : null,
    billingDate: period.billingDate.toISOString(),
    counter: period.counter,
    quota: period.quota,
    currency: row.currency,
    createdAt: row.created_at.toISOString(),
    parentUid: row.parent_uid,
    isOAuthUser: row.is_oauth_user,
    isNewUser: row.is_new_user,
    view: row.view === 'list' ? 'list' : 'grid',
  };
}

/** The signed-in user's row; a deleted or disabled account ends the session. */
export async function requireUser(q: Queryable, uid: string): Promise<UserRow> {
  const row = await findUserById(q, uid);
  if (!row || row.disabled_at) throw new SheafError('auth/unauthenticated');
  return row;
}

export async function getMe(ctx: AppContext, uid: string): Promise<User> {
  return userView(ctx.db, await requireUser(ctx.db, uid));
}

export async function updateMe(ctx: AppContext, uid: string, input: z.output<typeof UpdateMeSchema>): Promise<User> {
  await requireUser(ctx.db, uid);
  const firstName = input.firstName === undefined ? undefined : cleanWhitespace(input.firstName);
  const lastName = input.lastName === undefined ? undefined : cleanWhitespace(input.lastName);
  const fields: Record<string, ErrorCode> = {};
  if (firstName === '') fields['firstName'] = 'auth/firstname-empty';
  if (lastName === '') fields['lastName'] = 'auth/lastname-empty';
  if (Object.keys(fields).length > 0) throw new SheafFieldErrors(fields);
  const company = input.company === undefined ? undefined : cleanWhitespace(input.company);
  await updateProfile(ctx.db, uid, { firstName, lastName, company, language: input.language, view: input.view });
  return getMe(ctx, uid);
}

export async function changeEmail(ctx: AppContext, uid: string, input: z.output<typeof ChangeEmailSchema>, ip: string): Promise<User> {
  const user = await requireUser(ctx.db, uid);
  await assertCurrentPassword(ctx, user, input.password, 'password', ip);
  if (input.email !== user.email) {
    const problem = await emailProblem(ctx.db, input.email, uid);
    if (problem) throw new SheafFieldErrors({ email: problem });
    try {
      await updateEmail(ctx.db, uid, input.email);
    } catch (error) {
      if (isUniqueViolation(error)) throw new SheafFieldErrors({ email: 'auth/email-already-in-use' });
      throw error;
    }
  }
  return getMe(ctx, uid);
}

/** New password: every other session ends (refresh tokens revoked, older access tokens refused). */
export async function changePassword(ctx: AppContext, uid: string, input: z.output<typeof ChangePasswordSchema>, ip: string): Promise<Session> {
  const user = await requireUser(ctx.db, uid);
  await assertCurrentPassword(ctx, user, input.currentPassword, 'currentPassword', ip);
  const fields = newPasswordErrors(input.password, input.confirmPassword, user.email);
  if (Object.keys(fields).length > 0) throw new SheafFieldErrors(fields);
  const passwordHash = await hashPassword(input.password);
  return ctx.db.transaction(async (tx) => {
    const updated = await setPasswordHash(tx, uid, passwordHash);
    await revokeUserTokens(tx, uid);
    return startSession(ctx, updated, tx);
  });
}

/** Deletes the account, its rows and its files. Refused while child users exist (spec section 6). */
export async function deleteAccount(ctx: AppContext, uid: string, password: string, ip: string): Promise<void> {
  const user = await requireUser(ctx.db, uid);
  await assertCurrentPassword(ctx, user, password, 'password', ip);
  if ((await countChildUsers(ctx.db, uid)) > 0) throw new SheafError('auth/has-child-users');
  const { templateIds, mergeIds } = await ctx.db.transaction(async (tx) => {
    const owned = await listOwnedBlobIds(tx, uid);
    await deleteUser(tx, uid);
    return owned;
  });
  // Files after the rows: a failure here leaves unreachable files, never rows pointing at no file.
  for (const id of templateIds) await ctx.blobs.deletePrefix(blobLayout.template.folder(id));
  for (const id of mergeIds) await ctx.blobs.deletePrefix(blobLayout.merge.folder(id));
  await ctx.blobs.deletePrefix(blobLayout.font.folder(uid));
}
