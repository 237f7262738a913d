/**
 * Password hashing (argon2id) and the password rules of docs/accounts.md#password-rules. The rules live
 * here once and serve registration, reset, change-password and child-user creation alike.
 */
import argon2 from 'argon2';
import { accountPasswordProblem, type ErrorCode } from '@sheaf/shared';
import { randomBytes } from 'node:crypto';

// OWASP's argon2id setting (19 MiB, 2 passes): strong, and quick enough for a login per request.
const HASH_OPTIONS = { type: argon2.argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(password: string): Promise<string> {
  return argon2.hash(password, HASH_OPTIONS);
}

let dummyHash: Promise<string> | undefined;

/**
 * True when `password` matches `hash`. With no hash (no such user, or an OAuth-only account) a dummy
 * hash is verified anyway, so the answer takes as long whether or not the account exists.
 */
export async function verifyPassword(hash: string | null | undefined, password: string): Promise<boolean> {
  if (!hash) {
    dummyHash ??= hashPassword(randomBytes(16).toString('hex'));
    await argon2.verify(await dummyHash, password).catch(() => false);
    return false;
  }
  try {
    return await argon2.verify(hash, password);
  } catch {
    return false; // a malformed stored hash is a failed check, not a crash
  }
}

/** The code for `password` under the field "password", or null: the shared rule the forms apply (rules/passwords.ts). */
export function passwordProblem(password: string, email: string): ErrorCode | null {
  const problem = accountPasswordProblem(password, email);
  if (problem === 'empty') return 'auth/password-empty';
  return problem ? 'auth/weak-password' : null;
}

/**
 * Field errors of a new password and its confirmation: {password?, confirmPassword?}. Empty when both
 * are fine.
 */
export function newPasswordErrors(password: string, confirmPassword: string, email: string): Record<string, ErrorCode> {
  const fields: Record<string, ErrorCode> = {};
  const problem = passwordProblem(password, email);
  if (problem) fields['password'] = problem;
  if (password !== confirmPassword) fields['confirmPassword'] = 'auth/passwords-must-match';
  return fields;
}
