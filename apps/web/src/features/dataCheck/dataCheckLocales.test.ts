/**
 * The dialog's texts (locales/<lng>/dataCheck.json) read fully in every language: every key the code
 * asks for exists in English, the other languages have the same keys with their own plural forms and
 * the same {{slots}}, translated rather than copied.
 */
import { describe, expect, it } from 'vitest';
import { DATA_ISSUE_KINDS, LANGUAGES } from '@sheaf/shared';

// Read through Vite's glob import (the web tsconfig has no Node types).
const locales = import.meta.glob<unknown>('../../locales/*/dataCheck.json', { eager: true, import: 'default' });
const sources = import.meta.glob<string>(['./*.ts', './*.tsx', '!./*.test.ts'], { eager: true, query: '?raw', import: 'default' });
/** Step 3's button: its t() is the wizard's, tCheck() this namespace's. */
const step3 = import.meta.glob<string>('../wizard/Step3Spreadsheet.tsx', { eager: true, query: '?raw', import: 'default' });
const PLURAL = /_(zero|one|two|few|many|other)$/;

function flatten(value: unknown, prefix = ''): Record<string, string> {
  if (typeof value === 'string') return { [prefix]: value };
  return Object.assign({}, ...Object.entries(value as Record<string, unknown>).map(([key, child]) => flatten(child, prefix ? `${prefix}.${key}` : key)));
}
const load = (language: string) => flatten(locales[`../../locales/${language}/dataCheck.json`]);
const baseKeys = (texts: Record<string, string>) => new Set(Object.keys(texts).map((key) => key.replace(PLURAL, '')));
const slots = (text: string) => [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((match) => match[1]).sort();

/** Keys the code asks for: t('a.b'), tCheck('open'), the kinds of t(`kind.${kind}`) and the exclusion notes. */
function keysUsedInCode(): string[] {
  const keys = new Set<string>([...DATA_ISSUE_KINDS.map((kind) => `kind.${kind}`), 'exclude.nothing', 'exclude.allFlagged', 'exclude.tooLong', 'step4.open', 'step4.check']);
  for (const source of Object.values(sources)) {
    for (const match of source.matchAll(/\bt\('([A-Za-z0-9]+(?:\.[A-Za-z0-9.]+)?)'/g)) keys.add(match[1]!);
  }
  for (const source of Object.values(step3)) {
    for (const match of source.matchAll(/\btCheck\('([A-Za-z0-9.]+)'/g)) keys.add(match[1]!);
  }
  return [...keys];
}

// The same word in that language.
const SAME_AS_ENGLISH: Record<string, string[]> = {
  de: ['status.summary', 'column.problem', 'filter.option'],
  fr: ['column.suggestion', 'filter.option'],
  es: ['filter.option'],
  zh: [],
};

describe('data check translations', () => {
  const english = load('en');

  it('has every key the dialog uses in English', () => {
    const known = baseKeys(english);
    expect(keysUsedInCode().length).toBeGreaterThan(40);
    expect(keysUsedInCode().filter((key) => !known.has(key))).toEqual([]);
  });

  for (const language of LANGUAGES.filter((name: string) => name !== 'en')) {
    it(`${language} has the same keys and slots as English, with the language's plural forms, translated`, () => {
      const texts = load(language);
      expect([...baseKeys(texts)].sort()).toEqual([...baseKeys(english)].sort());
      const categories = new Intl.PluralRules(language).resolvedOptions().pluralCategories;
      for (const key of Object.keys(english)) {
        if (!PLURAL.test(key)) {
          expect(texts[key], `${language} ${key}`).toBeTruthy();
          expect(slots(texts[key]!), `${language} ${key}`).toEqual(slots(english[key]!));
          continue;
        }
        // A plural form may spell its number out ("the row"): {{count}} aside, the slots are the same.
        const base = key.replace(PLURAL, '');
        const others = (text: string) => slots(text).filter((slot) => slot !== 'count');
        for (const category of categories) {
          const form = `${base}_${category}`;
          expect(texts[form], `${language} ${form}`).toBeTruthy();
          expect(others(texts[form]!), `${language} ${form}`).toEqual(others(english[form] ?? english[`${base}_other`]!));
        }
      }
      const copied = Object.keys(texts).filter((key) => texts[key] === english[key] && !SAME_AS_ENGLISH[language]!.includes(key));
      expect(copied).toEqual([]);
    });
  }
});
