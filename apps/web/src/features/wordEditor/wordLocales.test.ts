/**
 * The Word editor's texts (locales/<lng>/editor.json, under "word") read fully in every language:
 * every word.* key the editor asks for exists in English, the other languages have the same keys and
 * {{slots}}, translated rather than copied.
 */
import { describe, expect, it } from 'vitest';
import { LANGUAGES } from '@sheaf/shared';

// Read through Vite's glob import (the web tsconfig has no Node types).
const locales = import.meta.glob<{ word: unknown }>('../../locales/*/editor.json', { eager: true, import: 'default' });
const sources = import.meta.glob<string>(['./*.ts', './*.tsx', '!./*.test.ts'], { eager: true, query: '?raw', import: 'default' });
const PLURAL = /_(zero|one|two|few|many|other)$/;

function flatten(value: unknown, prefix = ''): Record<string, string> {
  if (typeof value === 'string') return { [prefix]: value };
  return Object.assign({}, ...Object.entries(value as Record<string, unknown>).map(([key, child]) => flatten(child, prefix ? `${prefix}.${key}` : key)));
}
const load = (language: string) => flatten(locales[`../../locales/${language}/editor.json`]!.word, 'word');
const slots = (text: string) => [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((match) => match[1]).sort();

/** Keys the code asks for: t('word.a.b'), and the part headings and refusals it builds. */
function keysUsedInCode(): string[] {
  const keys = new Set<string>(['body', 'header', 'footer', 'footnotes', 'endnotes'].map((part) => `word.parts.${part}`).concat(['word.refused.structure', 'word.refused.section']));
  for (const source of Object.values(sources)) {
    for (const match of source.matchAll(/\bt\('(word\.[A-Za-z0-9.]+)'/g)) keys.add(match[1]!);
  }
  return [...keys];
}

// The same word in that language.
const SAME_AS_ENGLISH: Record<string, string[]> = { de: [], fr: [], es: [], zh: [] };

describe('Word editor translations', () => {
  const english = load('en');

  it('has every key the editor uses in English', () => {
    const known = new Set(Object.keys(english).map((key) => key.replace(PLURAL, '')));
    expect(keysUsedInCode().length).toBeGreaterThan(30);
    expect(keysUsedInCode().filter((key) => !known.has(key))).toEqual([]);
  });

  for (const language of LANGUAGES.filter((lng) => lng !== 'en')) {
    it(`${language} has every key, with the same slots, translated`, () => {
      const translated = load(language);
      const base = (texts: Record<string, string>) => [...new Set(Object.keys(texts).map((key) => key.replace(PLURAL, '')))].sort();
      expect(base(translated)).toEqual(base(english));
      for (const [key, text] of Object.entries(translated)) {
        const englishText = english[key] ?? english[key.replace(PLURAL, '_other')] ?? '';
        expect(slots(text), key).toEqual(slots(englishText));
        if (!(SAME_AS_ENGLISH[language] ?? []).includes(key)) expect(text, key).not.toBe(englishText);
      }
    });
  }
});
