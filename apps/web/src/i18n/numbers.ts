/**
 * Numbers in messages read the way the UI language groups them ("5,000 documents", "5.000 Dokumente",
 * "5 000 documents"): every number passed to a translation is formatted by the language's
 * Intl.NumberFormat, whatever the message's {{slot}} is called. A few slots hold numbers that are
 * names rather than amounts (a year, a port) and stay as they are.
 */
const VERBATIM_SLOTS = new Set(['year', 'version', 'port']);

const formats = new Map<string, Intl.NumberFormat>();

function numberFormat(language: string): Intl.NumberFormat {
  let format = formats.get(language);
  if (!format) {
    format = new Intl.NumberFormat(language === 'zh' ? 'zh-Hans' : language);
    formats.set(language, format);
  }
  return format;
}

/** i18next's interpolation `format` (with `alwaysFormat`): called for every {{slot}} of every message. */
export function formatInterpolated(value: unknown, format: string | undefined, language: string | undefined, options?: object): string {
  // Anything else goes through untouched (i18next handles missing values itself).
  const untouched = value as string;
  if (typeof value !== 'number' || !Number.isFinite(value)) return untouched;
  if (format !== undefined && format !== 'number') return untouched;
  if (format === undefined && VERBATIM_SLOTS.has(String((options as { interpolationkey?: string } | undefined)?.interpolationkey))) return untouched;
  return numberFormat(language ?? 'en').format(value);
}
