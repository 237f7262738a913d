/**
 * Rate limits on sign-in, password reset and other guessable secrets (docs/accounts.md#rate-limits),
 * counted in the auth_attempts table so they hold across restarts and across server processes.
 *
 * An attempt is taken BEFORE the secret is checked, under a lock on its keys, so parallel requests
 * cannot all pass a check that each of them would fail in turn (50 parallel wrong passwords reach
 * the password check 5 times, not 50).
 */
import { isIPv6 } from 'node:net';
import { SheafError } from '@sheaf/shared';
import type { Db, Queryable } from '../../adapters/db/types.ts';
import { clearAttempts, clearAttemptsStartingWith, countAttempts, creditAttempt, lockAttemptKeys, recordAttempt } from './repository.ts';

export interface Limit {
  /** Attempts allowed inside the window; the next one is refused. */
  max: number;
  windowSeconds: number;
}

const FIFTEEN_MINUTES = 15 * 60;
const ONE_HOUR = 60 * 60;
const ONE_DAY = 24 * ONE_HOUR;
/**
 * No limit counts further back than this (the sender codes' 30 days, a known client's 30 days): the
 * daily sweep (attempts-sweep.ts) deletes older attempts, so takeAttempts refuses a longer window.
 */
export const LONGEST_WINDOW_SECONDS = 30 * ONE_DAY;

export const LIMITS = {
  /** Failed sign-ins (and current-password checks) per account from one client (IP address). */
  loginAccountClient: { max: 5, windowSeconds: FIFTEEN_MINUTES },
  /** Failed sign-ins per client, whatever the account (one client trying many accounts). */
  loginIp: { max: 30, windowSeconds: FIFTEEN_MINUTES },
  /**
   * Failed sign-ins per account from clients it was not signed in from lately: the ceiling of a guess
   * spread over many addresses. The account's own recent clients are not held by it (see knownClient).
   */
  loginAccount: { max: 50, windowSeconds: ONE_DAY },
  /** Reset emails requested, whether or not the account exists. */
  resetEmail: { max: 3, windowSeconds: ONE_HOUR },
  resetIp: { max: 10, windowSeconds: ONE_HOUR },
  /** Offline licence activations per client: keys are guessed only by trying (docs/licences.md#activation-and-machine-limits). */
  licenceActivationIp: { max: 30, windowSeconds: ONE_HOUR },
  /** Sign-ins with Google, Apple or Microsoft started per client: each keeps a row until it expires (docs/accounts.md#social-sign-in). */
  oauthStartIp: { max: 60, windowSeconds: FIFTEEN_MINUTES },
  /** Providers' answers (callbacks) and one-time codes exchanged per client: forged or replayed ones are tried only so often. */
  oauthIp: { max: 60, windowSeconds: FIFTEEN_MINUTES },
  /** Support requests and suggestions a user sends (docs/support.md#limits): each one mails the operator. */
  supportRequestUser: { max: 5, windowSeconds: ONE_HOUR },
  supportRequestUserDay: { max: 20, windowSeconds: ONE_DAY },
  /** Child users an admin tries to create (docs/accounts.md#child-users): each one hashes a password. */
  registerChildAccount: { max: 20, windowSeconds: ONE_HOUR },
} as const satisfies Record<string, Limit>;

/** How long a client that signed in (or reset the password) stays known to the account. */
const KNOWN_CLIENT_SECONDS = LONGEST_WINDOW_SECONDS;

export interface LimitedKey {
  key: string;
  limit: Limit;
}

/**
 * The client a limit counts: an IPv4 address, or the /64 network of an IPv6 address (one host is
 * given a whole /64 and can pick a new address in it for every try).
 */
export function clientOf(ip: string): string {
  const address = ip.replace(/%.*$/, '');
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return mapped[1]!;
  if (!isIPv6(address)) return address;
  const groups = (part: string) => (part ? part.split(':').flatMap((group) => (group.includes('.') ? ['0', '0'] : [group])) : []);
  const [head = '', tail] = address.split('::');
  const left = groups(head);
  const full = tail === undefined ? left : [...left, ...Array<string>(8 - left.length - groups(tail).length).fill('0'), ...groups(tail)];
  return `${full.slice(0, 4).map((group) => parseInt(group, 16).toString(16)).join(':')}::/64`;
}

const accountKey = (email: string) => `login:${email}`;
// An address has no space, so "<account> from " is a prefix no other account's keys share.
const accountClientPrefix = (email: string) => `login:${email} from `;
const accountClientKey = (email: string, client: string) => `${accountClientPrefix(email)}${client}`;
const knownClientKey = (email: string, client: string) => `login-ok:${email} from ${client}`;

export const resetKeys = (email: string, ip: string): LimitedKey[] => [
  { key: `reset:${email}`, limit: LIMITS.resetEmail },
  { key: `reset-ip:${clientOf(ip)}`, limit: LIMITS.resetIp },
];

export const licenceActivationKeys = (ip: string): LimitedKey[] => [{ key: `licence-ip:${clientOf(ip)}`, limit: LIMITS.licenceActivationIp }];

export const oauthStartKeys = (ip: string): LimitedKey[] => [{ key: `oauth-start-ip:${clientOf(ip)}`, limit: LIMITS.oauthStartIp }];
export const oauthExchangeKeys = (ip: string): LimitedKey[] => [{ key: `oauth-ip:${clientOf(ip)}`, limit: LIMITS.oauthIp }];

export const supportRequestKeys = (userId: string): LimitedKey[] => [
  { key: `support:${userId}`, limit: LIMITS.supportRequestUser },
  { key: `support-day:${userId}`, limit: LIMITS.supportRequestUserDay },
];

export const registerChildKeys = (accountId: string): LimitedKey[] => [{ key: `register-child:${accountId}`, limit: LIMITS.registerChildAccount }];

/**
 * Takes one attempt on every key, or none: throws 429 generic/too-many-attempts when any key has
 * used up its window (a refused request is not counted, so hammering does not extend the wait).
 */
export async function takeAttempts(db: Db, keys: readonly LimitedKey[]): Promise<void> {
  const tooLong = keys.find(({ limit }) => limit.windowSeconds > LONGEST_WINDOW_SECONDS);
  if (tooLong) throw new Error(`rate limit ${tooLong.key}: a window longer than the sweep keeps (${LONGEST_WINDOW_SECONDS} s)`);
  const taken = await db.transaction(async (tx) => {
    await lockAttemptKeys(tx, keys.map(({ key }) => key));
    for (const { key, limit } of keys) {
      if ((await countAttempts(tx, key, limit.windowSeconds)) >= limit.max) return false;
    }
    for (const { key, limit } of keys) await recordAttempt(tx, key, limit.windowSeconds);
    return true;
  });
  if (!taken) throw new SheafError('generic/too-many-attempts');
}

/** A sign-in attempt's keys, taken before the password is checked. */
export interface LoginAttempt {
  keys: LimitedKey[];
  email: string;
  /** clientOf the request's address. */
  client: string;
}

/** Whether `client` signed in to the account lately: the owner's usual clients are not held by the account ceiling. */
async function knownClient(q: Queryable, email: string, client: string): Promise<boolean> {
  return (await countAttempts(q, knownClientKey(email, client), KNOWN_CLIENT_SECONDS)) > 0;
}

/** Counts a sign-in (or current-password check) before the password is checked; 429 past a limit. */
export async function takeLoginAttempt(db: Db, email: string, requestIp: string): Promise<LoginAttempt> {
  const client = clientOf(requestIp);
  const keys: LimitedKey[] = [
    { key: accountClientKey(email, client), limit: LIMITS.loginAccountClient },
    { key: `login-ip:${client}`, limit: LIMITS.loginIp },
  ];
  if (!(await knownClient(db, email, client))) keys.push({ key: accountKey(email), limit: LIMITS.loginAccount });
  await takeAttempts(db, keys);
  return { keys, email, client };
}

/**
 * The password was right: the attempt was no failure. The client's failures on this account are
 * forgotten, the attempt is handed back to the client's and the account's counts, and the client
 * becomes known to the account.
 */
export async function loginSucceeded(q: Queryable, attempt: LoginAttempt): Promise<void> {
  for (const { key } of attempt.keys) {
    if (key === accountClientKey(attempt.email, attempt.client)) await clearAttempts(q, key);
    else await creditAttempt(q, key);
  }
  await markClientKnown(q, attempt.email, attempt.client);
}

async function markClientKnown(q: Queryable, email: string, client: string): Promise<void> {
  await clearAttempts(q, knownClientKey(email, client));
  await recordAttempt(q, knownClientKey(email, client), KNOWN_CLIENT_SECONDS);
}

/**
 * A new password makes every guess of the old one moot: all of the account's failures are forgotten,
 * and the client that used the reset link becomes known (so a guessing crowd holding the account's
 * ceiling cannot keep its owner out).
 */
export async function passwordWasReset(q: Queryable, email: string, ip: string): Promise<void> {
  await clearAttempts(q, accountKey(email));
  await clearAttemptsStartingWith(q, accountClientPrefix(email));
  await markClientKnown(q, email, clientOf(ip));
}
