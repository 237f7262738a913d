/**
 * Rate limits on sign-in and password reset (docs/accounts.md#rate-limits), counted in the
 * auth_attempts table so they hold across restarts and across server processes.
 */
import { SheafError } from '@sheaf/shared';
import type { Queryable } from '../../adapters/db/types.ts';
import { clearAttempts, countAttempts, recordAttempt } from './repository.ts';

export interface Limit {
  /** Attempts allowed inside the window; the next one is refused. */
  max: number;
  windowSeconds: number;
}

const FIFTEEN_MINUTES = 15 * 60;
const ONE_HOUR = 60 * 60;

export const LIMITS = {
  /** Failed logins (and failed current-password checks) per email. */
  loginEmail: { max: 5, windowSeconds: FIFTEEN_MINUTES },
  loginIp: { max: 30, windowSeconds: FIFTEEN_MINUTES },
  /** Reset emails requested, whether or not the account exists. */
  resetEmail: { max: 3, windowSeconds: ONE_HOUR },
  resetIp: { max: 10, windowSeconds: ONE_HOUR },
} as const satisfies Record<string, Limit>;

export interface LimitedKey {
  key: string;
  limit: Limit;
}

export const loginKeys = (email: string, ip: string): LimitedKey[] => [
  { key: `login:${email}`, limit: LIMITS.loginEmail },
  { key: `login-ip:${ip}`, limit: LIMITS.loginIp },
];

export const resetKeys = (email: string, ip: string): LimitedKey[] => [
  { key: `reset:${email}`, limit: LIMITS.resetEmail },
  { key: `reset-ip:${ip}`, limit: LIMITS.resetIp },
];

/** Throws 429 generic/too-many-attempts when any key has used up its attempts. */
export async function assertUnderLimits(q: Queryable, keys: readonly LimitedKey[]): Promise<void> {
  for (const { key, limit } of keys) {
    if ((await countAttempts(q, key, limit.windowSeconds)) >= limit.max) throw new SheafError('generic/too-many-attempts');
  }
}

export async function recordAttempts(q: Queryable, keys: readonly LimitedKey[]): Promise<void> {
  for (const { key, limit } of keys) await recordAttempt(q, key, limit.windowSeconds);
}

/** A successful login forgets the email's failures (the IP's stay: they may be another account's). */
export async function clearLoginFailures(q: Queryable, email: string): Promise<void> {
  await clearAttempts(q, `login:${email}`);
}
