/**
 * The account changes that need the current password (docs/accounts.md): email, password and
 * deletion of the account. They live with sign-in, since they check the password and end sessions.
 */
import type { z } from 'zod';
import { SheafError, SheafFieldErrors, type ChangeEmailSchema, type ChangePasswordSchema, type Session, type User } from '@sheaf/shared';
import type { AppContext } from '../../context.ts';
import { countChildUsers, deleteUser, getMe, requireUser, setPasswordHash, updateEmail } from '../users/index.ts';
import './events.ts';
import { hashPassword, newPasswordErrors } from './passwords.ts';
import { assertCurrentPassword, emailProblem, isUniqueViolation } from './service.ts';
import { revokeUserTokens } from './repository.ts';
import { startSession } from './sessions.ts';
import { actorFor, type Principal } from '../../access/index.ts';

export async function changeEmail(ctx: AppContext, principal: Principal, input: z.output<typeof ChangeEmailSchema>, ip: string): Promise<User> {
  const uid = actorFor(principal, 'account');
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
  return getMe(ctx, principal);
}

/** New password: every other session ends (refresh tokens revoked, older access tokens refused). */
export async function changePassword(ctx: AppContext, principal: Principal, input: z.output<typeof ChangePasswordSchema>, ip: string): Promise<Session> {
  const uid = actorFor(principal, 'account');
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

/** Deletes the account, its rows and its files. Refused while child users exist (docs/accounts.md#deleting-the-account). */
export async function deleteAccount(ctx: AppContext, principal: Principal, password: string, ip: string): Promise<void> {
  const uid = actorFor(principal, 'account');
  const user = await requireUser(ctx.db, uid);
  await assertCurrentPassword(ctx, user, password, 'password', ip);
  if ((await countChildUsers(ctx.db, uid)) > 0) throw new SheafError('auth/has-child-users');
  const afterDelete: Array<() => Promise<void>> = [];
  await ctx.db.transaction(async (tx) => {
    // The modules keeping files of the account (templates, merges, fonts) list them first.
    await ctx.events.emit('account.deleting', { tx, accountId: uid, afterDelete });
    await deleteUser(tx, uid);
  });
  // Files after the rows: a failure here leaves unreachable files, never rows pointing at no file.
  for (const work of afterDelete) await work();
}
