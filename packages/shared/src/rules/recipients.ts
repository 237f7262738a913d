/**
 * Recipient addresses (docs/email.md#composing: the recipients check, the reply-to): one
 * reading for the composer and the mailing. A cell may hold several addresses separated by commas,
 * semicolons or whitespace ("a@x.com; b@y.org"), optionally as "Name <address>".
 */
import { cleanWhitespace } from '../api/common.ts';
import { isValidEmail } from '../api/users.ts';
import { columnTags } from '../rows.ts';

export interface CellAddresses {
  valid: string[];
  /** Parts of the cell that are not a valid address. */
  invalid: string[];
}

/** The addresses of one cell, each valid one once (compared without case). */
export function addressesOf(cell: string): CellAddresses {
  const valid: string[] = [];
  const invalid: string[] = [];
  // "Name <address>" -> the address; then split on separators.
  const text = cleanWhitespace(cell).replace(/[^<>,;]*<([^<>]*)>/g, ' $1 ');
  for (const part of text.split(/[\s,;]+/)) {
    if (!part) continue;
    if (isValidEmail(part)) {
      if (!valid.some((address) => address.toLowerCase() === part.toLowerCase())) valid.push(part);
    } else invalid.push(part);
  }
  return { valid, invalid };
}

/** A reply-to that is exactly one {{Column}} tag: the column it names; otherwise null. */
export function replyToColumn(replyTo: string): string | null {
  const value = replyTo.trim();
  return /^\{\{\s*[^{}]+?\s*\}\}$/.test(value) ? columnTags(value)[0]! : null;
}

/** A reply-to is empty, an address, or exactly one column tag. */
export function isValidReplyTo(replyTo: string): boolean {
  const value = cleanWhitespace(replyTo);
  return value === '' || replyToColumn(value) !== null || isValidEmail(value);
}
