/**
 * The users namespace reads fully in every language: every key the code asks for exists in English,
 * every language has the same keys (with its own plural forms), the same {{variables}}, and its own
 * words (not English copied, except words the language shares).
 */
import { describe, expect, it } from 'vitest';
import { CHILD_USER_STATUSES, LANGUAGES } from '@sheaf/shared';

const locales = import.meta.glob<unknown>('../../locales/*/users.json', { eager: true, import: 'default' });
const sources = import.meta.glob<string>(['./*.ts', './*.tsx', '!./*.test.ts'], { eager: true, query: '?raw', import: 'default' });
const PLURAL = /_(zero|one|two|few|many|other)$/;

/** Keys built at run time. */
const DYNAMIC = [...CHILD_USER_STATUSES.map((status) => `status.${status}`), ...['disable', 'enable', 'reset', 'delete'].flatMap((action) => [`snackbar.${action}Success`, `snackbar.${action}Failure`]), 'seats'];

/** Words a language shares with English on purpose. */
const SAME_AS_ENGLISH: Record<string, string[]> = {
  de: ['table.name', 'table.status'],
  fr: ['table.actions'],
  es: [],
  zh: [],
};

function flatten(value: unknown, prefix = ''): Record<string, string> {
  if (typeof value === 'string') return { [prefix]: value };
  return Object.assign({}, ...Object.entries(value as Record<string, unknown>).map(([key, child]) => flatten(child, prefix ? `${prefix}.${key}` : key)));
}
const load = (language: string) => flatten(locales[`../../locales/${language}/users.json`]);
const baseKeys = (texts: Record<string, string>) => new Set(Object.keys(texts).map((key) => key.replace(PLURAL, '')));
const markers = (text: string) => [...text.matchAll(/\{\{\s*(\w+)\s*\}\}|<\/?(\w+)>/g)].map((match) => match[0].replace(/\s/g, '')).sort();

function keysUsedInCode(): string[] {
  const keys = new Set(DYNAMIC);
  for (const source of Object.values(sources)) {
    for (const match of source.matchAll(/\bt\('([A-Za-z0-9]+(?:\.[A-Za-z0-9.]+)?)'/g)) keys.add(match[1]!);
  }
  return [...keys];
}

describe('users translations', () => {
  const english = load('en');

  it('has every key the code uses in English', () => {
    const used = keysUsedInCode();
    expect(used.length).toBeGreaterThan(30);
    expect(used.filter((key) => !baseKeys(english).has(key))).toEqual([]);
  });

  for (const language of LANGUAGES.filter((name: string) => name !== 'en')) {
    it(`${language} has the same keys, variables and plural forms as English, translated`, () => {
      const texts = load(language);
      expect([...baseKeys(texts)].sort()).toEqual([...baseKeys(english)].sort());
      const categories = new Intl.PluralRules(language).resolvedOptions().pluralCategories;
      for (const key of Object.keys(english).filter((name) => PLURAL.test(name))) {
        const base = key.replace(PLURAL, '');
        for (const category of categories) expect(texts[`${base}_${category}`], `${language} ${base}_${category}`).toBeTruthy();
      }
      for (const [key, text] of Object.entries(texts)) {
        expect(text.trim(), `${language} ${key}`).not.toBe('');
        const englishText = english[key] ?? english[`${key.replace(PLURAL, '')}_other`];
        expect(markers(text), `${language} ${key}`).toEqual(markers(englishText!));
      }
      const copied = Object.keys(texts).filter((key) => texts[key] === english[key] && !SAME_AS_ENGLISH[language]!.includes(key));
      expect(copied).toEqual([]);
    });
  }
});
