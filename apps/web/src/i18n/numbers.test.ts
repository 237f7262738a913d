// @vitest-environment node
/**
 * Numbers in messages are grouped the UI language's way in all five languages, whatever the slot is
 * called ("5,000 documents were generated", not "5000 documents"), through the app's own i18next setup.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { LANGUAGES } from '@sheaf/shared';
import i18n, { i18nReady } from './index.ts';

const grouped = (language: string, value: number) => new Intl.NumberFormat(language === 'zh' ? 'zh-Hans' : language).format(value);

describe('numbers in messages', () => {
  // Each language's texts are a chunk loaded on demand, as on a language switch in the app.
  beforeAll(async () => {
    await i18nReady;
    await i18n.loadLanguages([...LANGUAGES]);
  });

  for (const language of LANGUAGES) {
    it(`${language}: a count of 25000 is written ${grouped(language, 25000)}`, () => {
      const t = i18n.getFixedT(language, 'wizard');
      const text = t('status.completedDescription', { count: 25000 });
      expect(text).toContain(grouped(language, 25000));
      expect(text).not.toMatch(/25000/);
      expect(t('bar.cancelMinRows', { count: 12345 })).toContain(grouped(language, 12345));
    });
  }

  it('English says "5,000 documents"', () => {
    expect(i18n.getFixedT('en', 'wizard')('status.completedDescription', { count: 5000 })).toBe('5,000 documents were generated.');
  });

  it('a year stays a year', () => {
    expect(i18n.getFixedT('en', 'auth')('copyright', { year: 2026 })).toContain('© 2026 ');
  });
});
