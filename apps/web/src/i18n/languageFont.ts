/**
 * A Chinese UI must not depend on a CJK font being installed (without one, every character is an
 * empty box). For zh the app loads Noto Sans SC as a web font: its CSS declares one face per
 * unicode-range chunk, so the browser fetches only the chunks of the characters on screen. Other
 * languages never load it (the stylesheet is a separate chunk, imported on the first switch to zh).
 * The theme's font stack names "Noto Sans SC" after the Latin fonts.
 */
import type { i18n as I18n } from 'i18next';

let loading: Promise<unknown> | null = null;

export function loadFontFor(language: string | undefined): void {
  if (language !== 'zh' || loading) return;
  loading = import('@fontsource/noto-sans-sc/400.css').catch(() => {
    loading = null; // a failed chunk load may be retried on the next language change
  });
}

/** Loads the font now if the UI is in Chinese, and on every later change to Chinese. */
export function installLanguageFont(i18n: I18n): void {
  loadFontFor(i18n.resolvedLanguage ?? i18n.language);
  i18n.on('languageChanged', loadFontFor);
}
