/**
 * UI languages (en, de, fr, es, zh; en fallback). Texts come from src/locales/<lng>/<namespace>.json,
 * one chunk per language (vite.config.ts) fetched on demand: a visit loads the active language and
 * English (the fallback), and a switch loads the new language before the UI changes to it.
 * The language is the one chosen on this device (localStorage 'sheaf.language'), else the
 * signed-in user's saved language, else the browser's.
 */
import i18n, { type BackendModule } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { FALLBACK_LANGUAGE, LANGUAGES, type Language } from '@sheaf/shared';
import { api } from '../api/client.ts';
import { formatInterpolated } from './numbers.ts';

export const LANGUAGE_KEY = 'sheaf.language';
export const NAMESPACES = ['common', 'auth', 'navbar', 'errors', 'help', 'home', 'account', 'wizard', 'editor', 'senders', 'email', 'billing', 'dataCheck', 'users'] as const;

/** Each language's own name, shown in the language selector. */
export const LANGUAGE_NAMES: Record<Language, string> = { en: 'English', de: 'Deutsch', fr: 'Français', es: 'Español', zh: '中文（简体）' };

/** Lazy imports of every texts file, by path: nothing is fetched until a language is needed. */
const textFiles = import.meta.glob<Record<string, unknown>>('../locales/*/*.json', { import: 'default' });

/** The i18next backend: reads a language's namespace from its (lazy) chunk. */
const lazyTexts: BackendModule = {
  type: 'backend',
  init() {},
  read(language, namespace, callback) {
    const load = textFiles[`../locales/${language}/${namespace}.json`];
    if (!load) return callback(null, {}); // an unsupported language: the fallback answers
    load().then(
      (texts) => callback(null, texts),
      (error: unknown) => callback(error instanceof Error ? error : String(error), null),
    );
  },
};

export const isLanguage = (value: unknown): value is Language => typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);

function storedLanguage(): Language | null {
  try {
    const value = localStorage.getItem(LANGUAGE_KEY);
    return isLanguage(value) ? value : null;
  } catch {
    return null;
  }
}

function browserLanguage(): Language {
  const candidates = typeof navigator !== 'undefined' ? (navigator.languages ?? [navigator.language]) : [];
  for (const candidate of candidates) {
    const base = candidate?.toLowerCase().split('-')[0];
    if (isLanguage(base)) return base;
  }
  return FALLBACK_LANGUAGE;
}

function syncHtmlLang(language: string): void {
  if (typeof document !== 'undefined') document.documentElement.lang = language === 'zh' ? 'zh-Hans' : language;
}

/** Settles once the active language's texts (and English) are loaded: the app renders after it. */
export const i18nReady: Promise<unknown> = i18n.use(lazyTexts).use(initReactI18next).init({
  lng: storedLanguage() ?? browserLanguage(),
  fallbackLng: FALLBACK_LANGUAGE,
  supportedLngs: [...LANGUAGES],
  ns: [...NAMESPACES],
  defaultNS: 'common',
  // Error codes contain '/': keep ':' as the namespace separator and '.' for nesting only.
  // Every number in a message is grouped the language's way (numbers.ts).
  interpolation: { escapeValue: false, alwaysFormat: true, format: formatInterpolated },
  returnNull: false,
  react: { useSuspense: false },
  showSupportNotice: false,
});
syncHtmlLang(i18n.language);
i18n.on('languageChanged', syncHtmlLang);

export function currentLanguage(): Language {
  return isLanguage(i18n.resolvedLanguage) ? i18n.resolvedLanguage : FALLBACK_LANGUAGE;
}

/** The user picked a language: remember it on this device and, when signed in, on the account. */
export async function setLanguage(language: Language): Promise<void> {
  try {
    localStorage.setItem(LANGUAGE_KEY, language);
  } catch {
    // Storage blocked: the choice lasts for this page only.
  }
  await i18n.changeLanguage(language);
  if (api.session.token()) {
    await api.call('updateMe', { body: { language } }).catch(() => undefined);
  }
}

/** After sign-in: the account's language applies unless this device has its own choice. */
export function applyAccountLanguage(language: Language): void {
  if (!storedLanguage() && i18n.language !== language) void i18n.changeLanguage(language);
}

export default i18n;
