/** Ids of users, templates and merges: 20 crypto-random letters and digits (docs/library.md#templates). */
import { randomBytes } from 'node:crypto';
import { TEMPLATE_ID_LENGTH } from '@sheaf/shared';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
// Bytes at or above 248 (= 4 * 62) are dropped so every character is equally likely.
const UNBIASED_LIMIT = 256 - (256 % ALPHABET.length);

export function newId(length = TEMPLATE_ID_LENGTH): string {
  let id = '';
  while (id.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte >= UNBIASED_LIMIT) continue;
      id += ALPHABET[byte % ALPHABET.length];
      if (id.length === length) break;
    }
  }
  return id;
}
