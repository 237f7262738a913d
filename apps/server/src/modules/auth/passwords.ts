/**
 * Password hashing (argon2id) and the password rules of spec section 5. The rules live here once and
 * serve registration, reset, change-password and child-user creation alike.
 */
import argon2 from 'argon2';
import { MIN_PASSWORD_LENGTH, type ErrorCode } from '@sheaf/shared';
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

/** The most common passwords (leaked-password lists' top entries, several languages). */
const COMMON_PASSWORDS = new Set([
  '123456', '1234567', '12345678', '123456789', '1234567890', '111111', '000000', '123123', '654321',
  '666666', '121212', '112233', '123321', 'abc123', 'abcdef', 'qwerty', 'qwerty123', 'qwertz', 'azerty',
  'password', 'password1', 'password123', 'passw0rd', 'passwort', 'motdepasse', 'contrasena', 'contraseña',
  'iloveyou', 'letmein', 'welcome', 'admin', 'admin123', 'monkey', 'dragon', 'football', 'baseball',
  'sunshine', 'princess', 'master', 'shadow', 'superman', 'trustno1', '1q2w3e4r', '1qaz2wsx', 'zaq12wsx',
  'hallo123', 'bonjour', 'soleil', 'woaini', 'sheaf', 'sheaf123',
]);

/** The code for `password` under the field "password", or null when it is acceptable. */
export function passwordProblem(password: string, email: string): ErrorCode | null {
  if (password.length === 0) return 'auth/password-empty';
  const lower = password.toLowerCase();
  if (password.length < MIN_PASSWORD_LENGTH || lower === email.toLowerCase() || COMMON_PASSWORDS.has(lower)) {
    return 'auth/weak-password';
  }
  return null;
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
