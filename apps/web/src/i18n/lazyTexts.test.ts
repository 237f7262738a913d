// @vitest-environment node
/**
 * A visit loads only its own language's texts (and English, the fallback); another language is
 * fetched when the user switches to it, and is in place before the UI shows it (no raw keys).
 */
import { describe, expect, it } from 'vitest';
import { LANGUAGES } from '@sheaf/shared';
import i18n, { i18nReady, NAMESPACES, setLanguage } from './index.ts';

const loaded = () => LANGUAGES.filter((language) => NAMESPACES.some((namespace) => i18n.hasResourceBundle(language, namespace)));

describe('texts load on demand', () => {
  it('starts with English only, every namespace of it ready', async () => {
    await i18nReady;
    expect(i18n.resolvedLanguage).toBe('en');
    expect(loaded()).toEqual(['en']);
    for (const namespace of NAMESPACES) expect(i18n.hasResourceBundle('en', namespace), namespace).toBe(true);
    expect(i18n.t('auth:workEmail')).toBe('Work email');
  });

  it('fetches German on the switch, before the language changes', async () => {
    const seen: string[] = [];
    const onChange = () => seen.push(i18n.t('auth:workEmail'));
    i18n.on('languageChanged', onChange);
    await setLanguage('de');
    i18n.off('languageChanged', onChange);
    expect(loaded()).toEqual(['en', 'de']);
    // The first render in German already has German texts.
    expect(seen).toEqual(['Geschäftliche E-Mail-Adresse']);
    expect(i18n.t('auth:workEmail')).toBe('Geschäftliche E-Mail-Adresse');
  });
});
