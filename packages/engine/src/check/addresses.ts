/**
 * The email columns' rules (docs/data-check.md#addresses): every address of the recipients, cc and
 * bcc columns follows the spec's address rule (with its top-level-domain list), a reply-to column
 * holds one address, providers' domains are not mistyped, and no recipient gets two documents.
 */
import { addressesOf, cleanWhitespace, hasKnownTopLevelDomain, isAllowedAddress, isValidEmail, providerTypoOf, suggestedAddress } from '@sheaf/shared';

/** A cell of one plain address (no separator, name or invisible character): most cells, read without splitting. */
const SEPARATED = /[\s,;<>\u00a0\u00ad\u200b-\u200d\u2060\ufeff]/;
const plainAddress = (cell: string): boolean => !SEPARATED.test(cell) && isValidEmail(cell);

/** Domains seen and the provider each is a typo of ('' for none): domains repeat row after row. */
const typoCache = new Map<string, string>();
function typoOf(domain: string): string | undefined {
  let found = typoCache.get(domain);
  if (found === undefined) {
    if (typoCache.size >= 10_000) typoCache.clear();
    found = providerTypoOf(domain) ?? '';
    typoCache.set(domain, found);
  }
  return found || undefined;
}

export type AddressRole = 'to' | 'cc' | 'bcc' | 'replyTo';

export type AddressFinding =
  | { code: 'check/email-invalid'; expected: string }
  | { code: 'check/email-typo'; expected: string; domain: string; suggestion: string };

/** The cell with `part` replaced by `fixed` (the first time it appears). */
function replaced(cell: string, part: string, fixed: string): string {
  const at = cell.indexOf(part);
  return at < 0 ? fixed : `${cell.slice(0, at)}${fixed}${cell.slice(at + part.length)}`;
}

/** What is wrong with the addresses of one non-empty cell, each finding with the cell as it should probably be. */
export function addressFindings(cell: string, role: AddressRole): AddressFinding[] {
  const findings: AddressFinding[] = [];
  if (role === 'replyTo') {
    const value = cleanWhitespace(cell);
    if (!isAllowedAddress(value)) findings.push({ code: 'check/email-invalid', expected: suggestedAddress(value) ?? '' });
    return findings;
  }
  const { valid, invalid } = plainAddress(cell) ? { valid: [cell], invalid: [] } : addressesOf(cell);
  if (invalid.length > 0) {
    // "jane @example.com", "jane@example,com": one address the separators cut in two.
    const whole = valid.length === 0 ? suggestedAddress(cell) : undefined;
    let expected = whole ?? cell.trim();
    for (const part of invalid) {
      const fixed = suggestedAddress(part);
      expected = whole === undefined && fixed !== undefined ? replaced(expected, part, fixed) : expected;
    }
    const fixedAll = whole !== undefined || invalid.every((part) => suggestedAddress(part) !== undefined);
    findings.push({ code: 'check/email-invalid', expected: fixedAll ? expected : '' });
  }
  for (const address of valid) {
    if (!hasKnownTopLevelDomain(address)) {
      const fixed = suggestedAddress(address);
      findings.push({ code: 'check/email-invalid', expected: fixed ? replaced(cell.trim(), address, fixed) : '' });
      continue;
    }
    const domain = address.slice(address.lastIndexOf('@') + 1);
    const suggestion = typoOf(domain.toLowerCase());
    if (suggestion) {
      const fixed = `${address.slice(0, address.lastIndexOf('@') + 1)}${suggestion}`;
      findings.push({ code: 'check/email-typo', expected: replaced(cell.trim(), address, fixed), domain, suggestion });
    }
  }
  return findings;
}

/** The valid addresses of a recipients cell, lower case: what duplicates are found by. */
export function recipientKeys(cell: string): string[] {
  return plainAddress(cell) ? [cell.toLowerCase()] : addressesOf(cell).valid.map((address) => address.toLowerCase());
}
