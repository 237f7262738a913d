/**
 * The billing namespace (and the account page's licences) read fully in every language: every key the
 * code asks for exists in English, every language has the same keys (with its own plural forms), the
 * same {{variables}} and <tags>, and its own words (not English copied).
 */
import { describe, expect, it } from 'vitest';
import { BILLING_CYCLES, BILLING_PLANS, LANGUAGES, SUBSCRIPTION_PLANS } from '@sheaf/shared';

const locales = import.meta.glob<unknown>(['../../locales/*/billing.json', '../../locales/*/account.json'], { eager: true, import: 'default' });
const sources = {
  billing: import.meta.glob<string>(['./*.ts', './*.tsx', '!./*.test.ts'], { eager: true, query: '?raw', import: 'default' }),
  account: import.meta.glob<string>(['../account/Licences*.tsx'], { eager: true, query: '?raw', import: 'default' }),
};
const PLURAL = /_(zero|one|two|few|many|other)$/;

/** Keys built at run time (t(`plan.names.${plan}`) ...). */
const DYNAMIC = {
  billing: [
    ...BILLING_PLANS.map((plan) => `plan.names.${plan}`),
    ...['Free', ...SUBSCRIPTION_PLANS].map((plan) => `plan.tagline.${plan}`),
    ...BILLING_CYCLES.flatMap((cycle) => [`plan.switchCycle.${cycle}`, `subscription.planCycle.${cycle}`]),
    'features.support.standard', 'features.support.priority', 'table.supportLevel.standard', 'table.supportLevel.priority',
    ...['documents', 'users', 'noWatermark', 'sendEmail', 'dkim', 'smtp', 'individualFileNames', 'reusableTemplates', 'support'].map((row) => `table.rows.${row}`),
    ...['charge', 'credit', 'newPeriod'].map((kind) => `change.settlement.${kind}`),
    ...['cancel', 'refund', 'proration', 'vat', 'downgrade', 'paymentMethods', 'quota', 'offline'].flatMap((item) => [`faq.billing.${item}.q`, `faq.billing.${item}.a`]),
    ...['what', 'key', 'computers', 'trial', 'invoices', 'paymentMethod', 'renewal'].flatMap((item) => [`offline.faq.${item}.q`, `offline.faq.${item}.a`]),
    ...['address.organization', 'address.line1', 'address.line2', 'address.zip', 'address.city', 'address.country', 'address.vatId'],
  ],
  account: ['licences.status.active', 'licences.status.expired', ...BILLING_PLANS.map((plan) => `plan.names.${plan}`)],
};

/** Words a language shares with English on purpose (product and plan names, "Support"). */
const SAME_AS_ENGLISH: Record<string, string[]> = {
  'de/billing': ['plan.names.Pro', 'plan.names.Enterprise', 'plan.names.Offline', 'table.rows.support', 'table.supportLevel.standard'],
  'fr/billing': ['plan.names.Pro', 'table.supportLevel.standard'],
  'es/billing': ['plan.names.Pro'],
  'zh/billing': [],
  'de/account': ['plan.names.Pro', 'plan.names.Enterprise', 'plan.names.Offline'],
  'fr/account': ['plan.names.Pro', 'licences.title', 'licences.status.active'],
  'es/account': ['plan.names.Pro', 'licences.plan'],
  'zh/account': [],
};

function flatten(value: unknown, prefix = ''): Record<string, string> {
  if (typeof value === 'string') return { [prefix]: value };
  return Object.assign({}, ...Object.entries(value as Record<string, unknown>).map(([key, child]) => flatten(child, prefix ? `${prefix}.${key}` : key)));
}
const load = (language: string, namespace: string) => flatten(locales[`../../locales/${language}/${namespace}.json`]);
const baseKeys = (texts: Record<string, string>) => new Set(Object.keys(texts).map((key) => key.replace(PLURAL, '')));
const markers = (text: string) => [...text.matchAll(/\{\{\s*(\w+)\s*\}\}|<\/?(\w+)>/g)].map((match) => match[0].replace(/\s/g, '')).sort();

function keysUsedInCode(namespace: 'billing' | 'account'): string[] {
  const keys = new Set(DYNAMIC[namespace]);
  for (const source of Object.values(sources[namespace])) {
    for (const match of source.matchAll(/\bt\('(?:billing:)?([A-Za-z0-9]+\.[A-Za-z0-9.]+)'/g)) keys.add(match[1]!);
    for (const match of source.matchAll(/i18nKey="(?:billing:)?([A-Za-z0-9.]+)"/g)) keys.add(match[1]!);
  }
  return [...keys];
}

for (const namespace of ['billing', 'account'] as const) {
  describe(`${namespace} translations`, () => {
    const english = load('en', namespace);

    it('has every key the code uses in English', () => {
      const used = keysUsedInCode(namespace);
      expect(used.length).toBeGreaterThan(namespace === 'billing' ? 100 : 10);
      expect(used.filter((key) => !baseKeys(english).has(key))).toEqual([]);
    });

    for (const language of LANGUAGES.filter((name: string) => name !== 'en')) {
      it(`${language} has the same keys, variables and tags as English, in its plural forms, translated`, () => {
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
          expect(markers(text).filter((name) => name !== '{{count}}'), `${language} ${key}`).toEqual(markers(englishText!).filter((name) => name !== '{{count}}'));
        }
        const allowed = SAME_AS_ENGLISH[`${language}/${namespace}`] ?? [];
        const copied = Object.keys(texts).filter((key) => texts[key] === english[key] && !allowed.includes(key));
        expect(copied).toEqual([]);
      });
    }
  });
}
