import { describe, expect, it } from 'vitest';
import { LANGUAGES } from '@sheaf/shared';

// Read through Vite's glob import (the web tsconfig has no Node types).
const locales = import.meta.glob<unknown>('../../locales/*/wizard.json', { eager: true, import: 'default' });
const sources = import.meta.glob<string>(['./*.ts', './*.tsx', '!./*.test.ts'], { eager: true, query: '?raw', import: 'default' });
const PLURAL = /_(zero|one|two|few|many|other)$/;

function flatten(value: unknown, prefix = ''): Record<string, string> {
  if (typeof value === 'string') return { [prefix]: value };
  return Object.assign({}, ...Object.entries(value as Record<string, unknown>).map(([key, child]) => flatten(child, prefix ? `${prefix}.${key}` : key)));
}
const load = (language: string) => flatten(locales[`../../locales/${language}/wizard.json`]);
const baseKeys = (texts: Record<string, string>) => new Set(Object.keys(texts).map((key) => key.replace(PLURAL, '')));

/** Keys the wizard's code asks for: t('a.b') and the step names of t(`steps.${name}`). */
function keysUsedInCode(): string[] {
  const keys = new Set<string>(['steps.template', 'steps.placeholders', 'steps.spreadsheet', 'steps.generate']);
  for (const source of Object.values(sources)) {
    for (const match of source.matchAll(/\bt\('([A-Za-z0-9]+\.[A-Za-z0-9.]+)'/g)) keys.add(match[1]!);
  }
  return [...keys];
}

// Identical to English on purpose: a symbol-only pattern, or a word the language shares.
const SAME_AS_ENGLISH: Record<string, string[]> = {
  de: ['output.format', 'output.formatPdf'],
  fr: ['template.pages_one', 'template.pages_other', 'output.kind', 'output.format', 'output.formatPdf'],
  es: ['credits.plan', 'output.formatPdf'],
  zh: ['output.formatPdf'],
};

describe('wizard translations', () => {
  const english = load('en');

  it('has every key the wizard uses in English', () => {
    const known = baseKeys(english);
    expect(keysUsedInCode().length).toBeGreaterThan(100);
    expect(keysUsedInCode().filter((key) => !known.has(key))).toEqual([]);
  });

  for (const language of LANGUAGES.filter((name: string) => name !== 'en')) {
    it(`${language} has the same keys as English, with the plural forms of the language, translated`, () => {
      const texts = load(language);
      expect([...baseKeys(texts)].sort()).toEqual([...baseKeys(english)].sort());
      const categories = new Intl.PluralRules(language).resolvedOptions().pluralCategories;
      for (const key of Object.keys(english).filter((name) => PLURAL.test(name))) {
        const base = key.replace(PLURAL, '');
        for (const category of categories) expect(texts[`${base}_${category}`], `${language} ${base}_${category}`).toBeTruthy();
      }
      const copied = Object.keys(texts).filter((key) => texts[key] === english[key] && !SAME_AS_ENGLISH[language]!.includes(key));
      expect(copied).toEqual([]);
    });
  }
});
