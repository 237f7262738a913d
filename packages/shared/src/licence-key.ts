/**
 * The offline licence key (docs/licences.md): 25 characters a person can type, shown as five
 * groups of five (`XXXXX-XXXXX-XXXXX-XXXXX-XXXXX`). The web app, the server and the desktop edition
 * check a typed key with this one function, so a typo is caught the same way everywhere, offline and
 * before any lookup.
 *
 * - Alphabet: Crockford's base32, digits and the letters without I, L, O and U. A typed O is read as 0,
 *   I and L as 1 (Crockford's rule), so the letters a person confuses with digits still work.
 * - 24 random characters (120 bits: no key can be guessed) and a check character. The check is a
 *   polynomial over GF(32) (modulus x^5 + x^2 + 1): the key's characters, as the coefficients of a
 *   polynomial, must give 0 at x. Any one wrong character, and any two characters swapped (next to each
 *   other or one apart), change that value, so they never pass.
 */
import { LICENCE_KEY_LENGTH } from './constants.ts';
import type { ErrorCode } from './errors.ts';

export const LICENCE_KEY_ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
/** Characters per displayed group. */
export const LICENCE_KEY_GROUP = 5;
/** Random bytes licenceKeyFromRandom takes: one per character before the check character. */
export const LICENCE_KEY_RANDOM_BYTES = LICENCE_KEY_LENGTH - 1;

const VALUES: ReadonlyMap<string, number> = new Map([...LICENCE_KEY_ALPHABET].map((char, value) => [char, value]));
/** Crockford's readings of the letters left out. */
const READ_AS: Readonly<Record<string, string>> = { O: '0', I: '1', L: '1' };

/** x * value in GF(32) with the modulus x^5 + x^2 + 1 (0b100101). */
const timesX = (value: number): number => ((value << 1) ^ (value & 0x10 ? 0b100101 : 0)) & 0x1f;

/** The key's polynomial at x (Horner): 0 for a whole key with its right check character. */
function syndrome(chars: string): number {
  let sum = 0;
  for (const char of chars) sum = timesX(sum) ^ VALUES.get(char)!;
  return sum;
}

/**
 * A key as typed, in its stored form: dashes and spaces dropped, upper case, O read as 0 and I, L as 1.
 * (LicenceKeySchema drops the same dashes and spaces.)
 */
export function normaliseLicenceKey(typed: string): string {
  return typed.replace(/[\s-]/g, '').toUpperCase().replace(/[OIL]/g, (char) => READ_AS[char]!);
}

/** The check character completing 24 characters of the alphabet. */
export function licenceCheckCharacter(body: string): string {
  if (body.length !== LICENCE_KEY_RANDOM_BYTES || [...body].some((char) => !VALUES.has(char))) {
    throw new Error(`a licence key body is ${LICENCE_KEY_RANDOM_BYTES} characters of the alphabet`);
  }
  return LICENCE_KEY_ALPHABET[timesX(syndrome(body))]!;
}

/**
 * A new key from random bytes (crypto-random: the server's randomBytes, a browser's getRandomValues):
 * each byte's low 5 bits pick a character (256 is a multiple of 32, so every character is equally likely).
 */
export function licenceKeyFromRandom(random: Uint8Array): string {
  if (random.length < LICENCE_KEY_RANDOM_BYTES) throw new Error(`a licence key needs ${LICENCE_KEY_RANDOM_BYTES} random bytes`);
  let body = '';
  for (let index = 0; index < LICENCE_KEY_RANDOM_BYTES; index++) body += LICENCE_KEY_ALPHABET[random[index]! & 0x1f];
  return body + licenceCheckCharacter(body);
}

export type LicenceKeyProblem = Extract<ErrorCode, 'licence/invalid-format' | 'licence/invalid-key'>;
export type LicenceKeyCheck = { ok: true; key: string } | { ok: false; code: LicenceKeyProblem };

/**
 * Checks a typed key: licence/invalid-format when it is not 25 characters of the alphabet (after
 * normaliseLicenceKey), licence/invalid-key when its check character does not match (a typo);
 * otherwise the key in its stored form. A key that passes may still be unknown to the server.
 */
export function checkLicenceKey(typed: string): LicenceKeyCheck {
  const key = normaliseLicenceKey(typed);
  if (key.length !== LICENCE_KEY_LENGTH || [...key].some((char) => !VALUES.has(char))) return { ok: false, code: 'licence/invalid-format' };
  if (syndrome(key) !== 0) return { ok: false, code: 'licence/invalid-key' };
  return { ok: true, key };
}

/** XXXXX-XXXXX-XXXXX-XXXXX-XXXXX: how a key is shown (mails, the account page). */
export function formatLicenceKey(key: string): string {
  const plain = normaliseLicenceKey(key);
  const groups: string[] = [];
  for (let start = 0; start < plain.length; start += LICENCE_KEY_GROUP) groups.push(plain.slice(start, start + LICENCE_KEY_GROUP));
  return groups.join('-');
}
