import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { LICENCE_KEY_LENGTH } from './constants.ts';
import { LicenceKeySchema } from './api/billing.ts';
import {
  LICENCE_KEY_ALPHABET, checkLicenceKey, formatLicenceKey, licenceCheckCharacter, licenceKeyFromRandom, normaliseLicenceKey,
} from './licence-key.ts';

const newKey = () => licenceKeyFromRandom(randomBytes(24));

describe('licence keys', () => {
  it('are 25 characters of the alphabet, with no I, L, O or U, and pass their own check', () => {
    expect(LICENCE_KEY_ALPHABET).toHaveLength(32);
    expect(LICENCE_KEY_ALPHABET).not.toMatch(/[ILOU]/);
    for (let i = 0; i < 200; i++) {
      const key = newKey();
      expect(key).toMatch(new RegExp(`^[${LICENCE_KEY_ALPHABET}]{${LICENCE_KEY_LENGTH}}$`));
      expect(checkLicenceKey(key)).toEqual({ ok: true, key });
    }
  });

  it('use every character of the alphabet in the random part', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 100; i++) for (const char of newKey().slice(0, 24)) seen.add(char);
    expect(seen.size).toBe(32);
  });

  it('catch every one-character typo', () => {
    for (let round = 0; round < 5; round++) {
      const key = newKey();
      for (let at = 0; at < key.length; at++) {
        for (const char of LICENCE_KEY_ALPHABET) {
          if (char === key[at]) continue;
          const typo = key.slice(0, at) + char + key.slice(at + 1);
          expect(checkLicenceKey(typo), `${typo} (position ${at})`).toEqual({ ok: false, code: 'licence/invalid-key' });
        }
      }
    }
  });

  it('catch every swap of two neighbours, and of two characters one apart', () => {
    for (let round = 0; round < 20; round++) {
      const key = newKey();
      for (const distance of [1, 2]) {
        for (let at = 0; at + distance < key.length; at++) {
          if (key[at] === key[at + distance]) continue;
          const chars = [...key];
          [chars[at], chars[at + distance]] = [chars[at + distance]!, chars[at]!];
          expect(checkLicenceKey(chars.join('')), `swap at ${at}, distance ${distance}`).toEqual({ ok: false, code: 'licence/invalid-key' });
        }
      }
    }
  });

  it('are read as typed: dashes, spaces and lower case do not matter, O is 0 and I, L are 1', () => {
    const body = '0123456789ABCDEFGHJKMNPQ';
    const key = body + licenceCheckCharacter(body);
    const typed = ` ${formatLicenceKey(key).toLowerCase().replace('0', 'o').replace('1', 'l')} `;
    expect(typed).toContain('o');
    expect(checkLicenceKey(typed)).toEqual({ ok: true, key });
    expect(normaliseLicenceKey('abcde fghij-iLOo')).toBe('ABCDEFGH1J1100');
  });

  it('answer invalid-format for a wrong length or a character outside the alphabet', () => {
    const key = newKey();
    expect(checkLicenceKey(key.slice(1))).toEqual({ ok: false, code: 'licence/invalid-format' });
    expect(checkLicenceKey(`${key}A`)).toEqual({ ok: false, code: 'licence/invalid-format' });
    expect(checkLicenceKey(`U${key.slice(1)}`)).toEqual({ ok: false, code: 'licence/invalid-format' });
    expect(checkLicenceKey(`*${key.slice(1)}`)).toEqual({ ok: false, code: 'licence/invalid-format' });
    expect(checkLicenceKey('')).toEqual({ ok: false, code: 'licence/invalid-format' });
  });

  it('are shown in five groups of five, and the API schema reads the shown form back', () => {
    const key = newKey();
    const shown = formatLicenceKey(key);
    expect(shown).toMatch(/^([0-9A-Z]{5}-){4}[0-9A-Z]{5}$/);
    expect(shown.replace(/-/g, '')).toBe(key);
    expect(LicenceKeySchema.parse(shown.toLowerCase())).toBe(key);
  });
});
