/**
 * What an address probably should have been (docs/data-check.md#addresses): the spec's address rule
 * with its top-level-domain list, and the fixes a person would make without asking: a mistyped
 * top-level domain (".con"), a mistyped mail provider ("gmial.com"), spaces or a comma where they
 * cannot be ("jane @example.com", "jane@example,com").
 */
import { cleanWhitespace } from '../api/common.ts';
import { isValidEmail } from '../api/users.ts';
import { hasKnownTopLevelDomain } from './top-level-domains.ts';

/** The spec's rule (section 5): a valid address whose last domain label is a delegated top-level domain. */
export function isAllowedAddress(address: string): boolean {
  return isValidEmail(address) && hasKnownTopLevelDomain(cleanWhitespace(address));
}

/**
 * Mail providers whose domains people mistype most. Short ones (gmx.de, web.de, aol.com) are left
 * out: one letter away from them are real domains of other people.
 */
export const COMMON_EMAIL_DOMAINS: readonly string[] = [
  'gmail.com', 'googlemail.com', 'yahoo.com', 'hotmail.com', 'outlook.com', 'icloud.com', 'live.com', 'protonmail.com',
  'yahoo.co.uk', 'hotmail.co.uk', 'hotmail.fr', 'yahoo.fr', 'orange.fr', 'wanadoo.fr', 'laposte.net', 'hotmail.de',
  't-online.de', 'freenet.de', 'yahoo.es', 'hotmail.es', 'comcast.net', 'verizon.net', 'sbcglobal.net', 'yandex.ru',
  'mail.ru', 'rambler.ru', 'libero.it', 'outlook.fr', 'outlook.de', 'outlook.es',
];
const COMMON = new Set(COMMON_EMAIL_DOMAINS);

/** Top-level domains as they are mistyped (none of them is delegated), and what was meant. */
const TLD_TYPOS: Readonly<Record<string, string>> = {
  con: 'com', cpm: 'com', cim: 'com', vom: 'com', xom: 'com', comm: 'com', coom: 'com', ocm: 'com', cmo: 'com', copm: 'com', comn: 'com',
  nte: 'net', ner: 'net', nett: 'net', ent: 'net', ogr: 'org', orgg: 'org', prg: 'org', rog: 'org',
};

/** Edit distance with adjacent swaps (Damerau–Levenshtein, optimal string alignment), stopping above `limit`. */
function distanceWithin(a: string, b: string, limit: number): boolean {
  if (Math.abs(a.length - b.length) > limit) return false;
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[] = new Array(rows * cols);
  for (let i = 0; i < rows; i++) d[i * cols] = i;
  for (let j = 0; j < cols; j++) d[j] = j;
  for (let i = 1; i < rows; i++) {
    let best = Infinity;
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min(d[(i - 1) * cols + j]! + 1, d[i * cols + j - 1]! + 1, d[(i - 1) * cols + j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) value = Math.min(value, d[(i - 2) * cols + j - 2]! + 1);
      d[i * cols + j] = value;
      best = Math.min(best, value);
    }
    if (best > limit) return false;
  }
  return d[rows * cols - 1]! <= limit;
}

/** The common provider `domain` is one typo away from (not itself one), or undefined. */
export function providerTypoOf(domain: string): string | undefined {
  const lower = domain.toLowerCase();
  if (COMMON.has(lower)) return undefined;
  return COMMON_EMAIL_DOMAINS.find((known) => distanceWithin(lower, known, 1));
}

/**
 * The address `address` was probably meant to be, when that can be told: a mistyped provider or
 * top-level domain corrected, stray spaces, a doubled "@" or a comma in the domain removed. Undefined
 * when the address is fine as it is or when no single fix makes it allowed.
 */
export function suggestedAddress(address: string): string | undefined {
  let candidate = cleanWhitespace(address).replace(/\s+/g, '').replace(/@{2,}/g, '@');
  const at = candidate.lastIndexOf('@');
  if (at <= 0 || candidate.indexOf('@') !== at) return undefined;
  let domain = candidate.slice(at + 1).replace(/,/g, '.').replace(/\.{2,}/g, '.').replace(/^\.|\.$/g, '');
  const local = candidate.slice(0, at);
  const dot = domain.lastIndexOf('.');
  if (dot > 0) {
    const tld = domain.slice(dot + 1).toLowerCase();
    const meant = TLD_TYPOS[tld];
    if (meant && !hasKnownTopLevelDomain(`x.${tld}`)) domain = `${domain.slice(0, dot + 1)}${meant}`;
  }
  domain = providerTypoOf(domain) ?? domain;
  candidate = `${local}@${domain}`;
  return candidate !== address && isAllowedAddress(candidate) ? candidate : undefined;
}
