/** Sign-up, sign-in and password reset (docs/accounts.md). */
import type { z } from 'zod';
import {
  ERROR_MESSAGES, INITIAL_PLAN, SheafError, SheafFieldErrors, cleanWhitespace, isValidEmail, type ErrorCode, type Session,
  type RegisterRequestSchema, type ResetPasswordConfirmSchema,
} from '@sheaf/shared';
import type { AppContext } from '../../context.ts';
import type { Queryable } from '../../adapters/db/types.ts';
import { newId } from '../../ids.ts';
import { randomToken, sha256Hex } from '../../crypto/secrets.ts';
import { emailTaken, findUserByEmail, findUserById, insertUser, setPasswordHash, type UserRow } from '../users/index.ts';
import { hashPassword, newPasswordErrors, verifyPassword } from './passwords.ts';
import { unsupportedSignInMethod } from './oauth-methods.ts';
import { loginSucceeded, passwordWasReset, resetKeys, takeAttempts, takeLoginAttempt } from './rate-limits.ts';
import { consumePasswordReset, insertPasswordReset, passwordResetUsable, revokeUserTokens } from './repository.ts';
import { startSession } from './sessions.ts';
import { resetPasswordMail } from './mail-texts.ts';

const RESET_TOKEN_TTL_S = 60 * 60;

/** Field codes for a new address: empty, invalid, or another account's. */
export async function emailProblem(q: Queryable, email: string, exceptUid = ''): Promise<ErrorCode | null> {
  if (email === '') return 'auth/email-empty';
  if (!isValidEmail(email)) return 'auth/email-invalid';
  if (await emailTaken(q, email, exceptUid)) return 'auth/email-already-in-use';
  return null;
}

/** PostgreSQL's unique_violation: two sign-ups with one address at the same moment. */
export const isUniqueViolation = (error: unknown): boolean =>
  typeof error === 'object' && error !== null && (error as { code?: unknown }).code === '23505';

type RegisterInput = z.output<typeof RegisterRequestSchema>;

/** The fields every new user gives (sign-up, and a child user created by the admin). */
export type NewUserFields = Pick<RegisterInput, 'firstName' | 'lastName' | 'email' | 'password' | 'confirmPassword'>;

/**
 * The sign-up checks of docs/accounts.md#sign-up (names, a free valid address, the password rules);
 * throws their field errors, else answers the names cleaned.
 */
export async function checkNewUserFields(q: Queryable, input: NewUserFields): Promise<{ firstName: string; lastName: string }> {
  const firstName = cleanWhitespace(input.firstName);
  const lastName = cleanWhitespace(input.lastName);
  const fields: Record<string, ErrorCode> = {};
  if (!firstName) fields['firstName'] = 'auth/firstname-empty';
  if (!lastName) fields['lastName'] = 'auth/lastname-empty';
  const emailCode = await emailProblem(q, input.email);
  if (emailCode) fields['email'] = emailCode;
  Object.assign(fields, newPasswordErrors(input.password, input.confirmPassword, input.email));
  if (Object.keys(fields).length > 0) throw new SheafFieldErrors(fields);
  return { firstName, lastName };
}

export async function register(ctx: AppContext, input: RegisterInput): Promise<Session> {
  const { firstName, lastName } = await checkNewUserFields(ctx.db, input);

  const passwordHash = await hashPassword(input.password);
  try {
    return await ctx.db.transaction(async (tx) => {
      const user = await insertUser(tx, {
        id: newId(),
        email: input.email,
        passwordHash,
        firstName,
        lastName,
        company: cleanWhitespace(input.company ?? ''),
        language: input.language ?? 'en',
        billingPlan: INITIAL_PLAN[ctx.config.EDITION],
      });
      return startSession(ctx, user, tx);
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new SheafFieldErrors({ email: 'auth/email-already-in-use' });
    throw error;
  }
}

export async function login(ctx: AppContext, email: string, password: string, ip: string): Promise<Session> {
  // Counted before the password is checked, so parallel guesses cannot overtake the count.
  const attempt = await takeLoginAttempt(ctx.db, email, ip);
  const user = email ? await findUserByEmail(ctx.db, email) : undefined;
  // Same work and the same answer whether or not the account exists.
  const matches = await verifyPassword(user?.password_hash, password);
  // An account made through Google, Apple or Microsoft has no password: it is told which way it signs in.
  const otherMethod = user && !matches ? await unsupportedSignInMethod(ctx.db, user) : undefined;
  if (otherMethod) throw otherMethod;
  if (!user || !matches) throw new SheafError('auth/invalid-credentials');
  await loginSucceeded(ctx.db, attempt);
  if (user.disabled_at) throw new SheafError('auth/account-disabled');
  return startSession(ctx, user);
}

/**
 * Checks the signed-in user's current password before a sensitive change (email, password, deletion).
 * Wrong passwords count as failed logins, so a stolen access token cannot guess the password.
 */
export async function assertCurrentPassword(ctx: AppContext, user: UserRow, password: string, field: string, ip: string): Promise<void> {
  const attempt = await takeLoginAttempt(ctx.db, user.email, ip);
  if (!(await verifyPassword(user.password_hash, password))) throw new SheafFieldErrors({ [field]: 'auth/wrong-password' });
  await loginSucceeded(ctx.db, attempt);
}

/** Emails a reset link if the account exists; the answer never tells whether it does. */
export async function requestPasswordReset(ctx: AppContext, email: string, language: string | undefined, ip: string): Promise<{ message: string }> {
  await takeAttempts(ctx.db, resetKeys(email, ip));
  const user = email ? await findUserByEmail(ctx.db, email) : undefined;
  if (user && !user.disabled_at) {
    try {
      // The language the person is reading the page in, else the one stored with the account.
      await sendPasswordResetMail(ctx, user, language);
    } catch (error) {
      // Logged without the link; the answer stays the same so it tells nothing about the account.
      ctx.log.error({ err: error instanceof Error ? error.message : String(error) }, 'password reset email failed');
    }
  }
  return { message: ERROR_MESSAGES['auth/reset-email-sent'] };
}

/**
 * Mails `user` a reset link (one hour, usable once) in `language`, else the account's; throws when
 * the mail cannot be sent. The page's reset request and the admin's reset of a child user both use it.
 */
export async function sendPasswordResetMail(
  ctx: AppContext, user: Pick<UserRow, 'id' | 'email' | 'language' | 'first_name'>, language?: string,
): Promise<void> {
  const token = randomToken(32);
  await insertPasswordReset(ctx.db, sha256Hex(token), user.id, RESET_TOKEN_TTL_S);
  const link = `${ctx.config.PUBLIC_URL.replace(/\/+$/, '')}/resetPassword?token=${encodeURIComponent(token)}`;
  const mail = resetPasswordMail(language ?? user.language, link, user.first_name || user.email);
  await ctx.mailer.send({ to: user.email, ...mail });
}

type ResetConfirmInput = z.output<typeof ResetPasswordConfirmSchema>;

/** Works whatever the sign-in limits hold: the link is the owner's way back in (docs/accounts.md#rate-limits). */
export async function confirmPasswordReset(ctx: AppContext, input: ResetConfirmInput, ip: string): Promise<{ message: string }> {
  const tokenHash = sha256Hex(input.token);
  if (!(await passwordResetUsable(ctx.db, tokenHash))) throw new SheafError('auth/reset-link-invalid');
  await ctx.db.transaction(async (tx) => {
    const uid = await consumePasswordReset(tx, tokenHash);
    const user = uid ? await findUserById(tx, uid) : undefined;
    if (!user) throw new SheafError('auth/reset-link-invalid');
    const fields = newPasswordErrors(input.password, input.confirmPassword, user.email);
    // Rolling back keeps the link usable, so the person can correct the password and submit again.
    if (Object.keys(fields).length > 0) throw new SheafFieldErrors(fields);
    await setPasswordHash(tx, user.id, await hashPassword(input.password));
    await revokeUserTokens(tx, user.id);
    await passwordWasReset(tx, user.email, ip);
  });
  return { message: ERROR_MESSAGES['auth/password-reset-done'] };
}
