/**
 * The senders and email namespaces read fully in every language: every key the code asks for exists
 * in English, every language has the same keys (with its own plural forms), the same {{variables}},
 * and its own words (not English copied).
 */
import { describe, expect, it } from 'vitest';
import { LANGUAGES, MESSAGE_STATUSES, SENDER_METHODS, SPAM_CATEGORIES } from '@sheaf/shared';

const locales = import.meta.glob<unknown>(['../../locales/*/senders.json', '../../locales/*/email.json'], { eager: true, import: 'default' });
const sources = {
  senders: import.meta.glob<string>(['../senders/*.ts', '../senders/*.tsx', '!../senders/*.test.ts'], { eager: true, query: '?raw', import: 'default' }),
  email: import.meta.glob<string>(['./*.ts', './*.tsx', '!./*.test.ts', '../emailReport/*.ts', '../emailReport/*.tsx', '!../emailReport/*.test.ts'], { eager: true, query: '?raw', import: 'default' }),
};
const PLURAL = /_(zero|one|two|few|many|other)$/;

/** Keys built at run time (t(`method.${method}`) ...). */
const DYNAMIC: Record<'senders' | 'email', string[]> = {
  senders: [
    ...SENDER_METHODS.flatMap((method) => [`method.${method}`, `method.${method}Description`, `field.emailHelp.${method}`]),
    'dialog.step.method', 'dialog.step.details', 'dialog.step.verify', 'dns.pending', 'dns.success',
    ...['dkim', 'spf', 'mxa', 'mxb', 'cname'].map((purpose) => `dns.purpose.${purpose}`),
    ...['email', 'identifier', 'subdomain', 'server', 'port', 'username', 'password'].map((field) => `field.${field}`),
    'notifications.failed', 'notifications.all',
  ],
  email: [
    ...MESSAGE_STATUSES.map((status) => `status.${status}`),
    ...SPAM_CATEGORIES.map((category) => `spam.category.${category}`),
    'spam.rating.good', 'spam.rating.review', 'spam.rating.highRisk',
    'compose.recipientsColumn', 'compose.ccColumn', 'compose.bccColumn',
    ...['total', 'queued', 'accepted', 'delivery', 'opened', 'clicked', 'softBounce', 'hardBounce', 'failed', 'cancelled'].map((key) => `report.count.${key}`),
  ],
};

/** Words a language shares with English on purpose. */
const SAME_AS_ENGLISH: Record<string, string[]> = {
  'de/senders': ['dialog.upgrade', 'field.port', 'dns.name', 'dns.status', 'page.status', 'field.portHelp'],
  'fr/senders': ['page.notifications', 'page.actions', 'field.portHelp'],
  'es/senders': ['field.portHelp'],
  'zh/senders': [],
  'de/email': ['spam.score', 'report.column.status'],
  'fr/email': ['compose.content', 'spam.score'],
  'es/email': ['spam.score'],
  'zh/email': ['spam.score'],
};

function flatten(value: unknown, prefix = ''): Record<string, string> {
  if (typeof value === 'string') return { [prefix]: value };
  return Object.assign({}, ...Object.entries(value as Record<string, unknown>).map(([key, child]) => flatten(child, prefix ? `${prefix}.${key}` : key)));
}
const load = (language: string, namespace: string) => flatten(locales[`../../locales/${language}/${namespace}.json`]);
const baseKeys = (texts: Record<string, string>) => new Set(Object.keys(texts).map((key) => key.replace(PLURAL, '')));
const markers = (text: string) => [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((match) => match[1]).sort();

function keysUsedInCode(namespace: 'senders' | 'email'): string[] {
  const keys = new Set(DYNAMIC[namespace]);
  for (const source of Object.values(sources[namespace])) {
    for (const match of source.matchAll(/\bt\('([A-Za-z0-9]+\.[A-Za-z0-9.]+)'/g)) keys.add(match[1]!);
  }
  return [...keys];
}

for (const namespace of ['senders', 'email'] as const) {
  describe(`${namespace} translations`, () => {
    const english = load('en', namespace);

    it('has every key the code uses in English', () => {
      const used = keysUsedInCode(namespace);
      expect(used.length).toBeGreaterThan(40);
      expect(used.filter((key) => !baseKeys(english).has(key))).toEqual([]);
    });

    for (const language of LANGUAGES.filter((name: string) => name !== 'en')) {
      it(`${language} has the same keys and variables as English, in its plural forms, translated`, () => {
        const texts = load(language, namespace);
        expect([...baseKeys(texts)].sort()).toEqual([...baseKeys(english)].sort());
        const categories = new Intl.PluralRules(language).resolvedOptions().pluralCategories;
        for (const key of Object.keys(english).filter((name) => PLURAL.test(name))) {
          const base = key.replace(PLURAL, '');
          for (const category of categories) expect(texts[`${base}_${category}`], `${language} ${base}_${category}`).toBeTruthy();
        }
        for (const [key, text] of Object.entries(texts)) {
          expect(text.trim(), `${language} ${key}`).not.toBe('');
          const englishText = english[key] ?? english[`${key.replace(PLURAL, '')}_other`];
          expect(markers(text).filter((name) => name !== 'count'), `${language} ${key}`).toEqual(markers(englishText!).filter((name) => name !== 'count'));
        }
        const allowed = SAME_AS_ENGLISH[`${language}/${namespace}`] ?? [];
        const copied = Object.keys(texts).filter((key) => texts[key] === english[key] && !allowed.includes(key));
        expect(copied).toEqual([]);
      });
    }
  });
}
