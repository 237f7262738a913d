/**
 * UI languages (en, de, fr, es, zh; en fallback). Resources are bundled from
 * src/locales/<lng>/<namespace>.json. The language is the one chosen on this device
 * (localStorage 'sheaf.language'), else the signed-in user's saved language, else the browser's.
 */
import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import { FALLBACK_LANGUAGE, LANGUAGES, type Language } from '@sheaf/shared';
import { api } from '../api/client.ts';
import { formatInterpolated } from './numbers.ts';

export const LANGUAGE_KEY = 'sheaf.language';
export const NAMESPACES = ['common', 'auth', 'navbar', 'errors', 'help', 'home', 'account', 'wizard', 'editor', 'senders', 'email'] as const;

/** Each language's own name, shown in the language selector. */
export const LANGUAGE_NAMES: Record<Language, string> = { en: 'English', de: 'Deutsch', fr: 'Français', es: 'Español', zh: '中文（简体）' };

type Resources = Record<string, Record<string, Record<string, unknown>>>;

const files = import.meta.glob<Record<string, unknown>>('../locales/*/*.json', { eager: true, import: 'default' });
const resources: Resources = {};
for (const [file, content] of Object.entries(files)) {
  const match = /locales\/([a-z]+)\/([A-Za-z]+)\.json$/.exec(file);
  if (!match) continue;
  const [, language, namespace] = match;
  (resources[language] ??= {})[namespace] = content;
}

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

void i18n.use(initReactI18next).init({
  resources,
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
