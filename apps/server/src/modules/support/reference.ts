/** Support references: SUP- and six characters a person reads out without confusion (no 0/O, 1/I/L). */
import { randomInt } from 'node:crypto';

const ALPHABET = '23456789ABCDEFGHJKMNPQRSTUVWXYZ';
const LENGTH = 6;

export function newSupportReference(): string {
  let text = '';
  for (let index = 0; index < LENGTH; index += 1) text += ALPHABET[randomInt(ALPHABET.length)];
  return `SUP-${text}`;
}

/** A reference as typed: any letter case, with or without "SUP-". */
export function normalizeSupportReference(input: string): string {
  return `SUP-${input.trim().toUpperCase().replace(/^SUP-?/, '')}`;
}
