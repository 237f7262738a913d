/**
 * Helpers of the error-path, language and screen browser tests: accounts made through the public API
 * (the sign-in screens themselves are tested through the UI), texts read from the locale files (so
 * the tests follow the translations instead of copying them), and the local outbox's reset mail.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { ROOT, screenshot, type RunningApp } from './app.ts';

export const LANGUAGES = ['en', 'de', 'fr', 'es', 'zh'] as const;
export type Language = (typeof LANGUAGES)[number];

export const fixture = (name: string): string => path.join(ROOT, 'fixtures/generated', name);

type Json = { [key: string]: string | Json };
const cache = new Map<string, Json>();

async function load(language: Language, namespace: string): Promise<Json> {
  const file = path.join(ROOT, 'apps/web/src/locales', language, `${namespace}.json`);
  let json = cache.get(file);
  if (!json) {
    json = JSON.parse(await readFile(file, 'utf8')) as Json;
    cache.set(file, json);
  }
  return json;
}

/** A text of apps/web/src/locales/<language>/<namespace>.json by its dotted key ('login.title'). */
export async function text(language: Language, namespace: string, key: string): Promise<string> {
  const json = await load(language, namespace);
  // Error codes contain '/' and no '.', so a code is looked up whole.
  const value = key in json ? json[key] : key.split('.').reduce<string | Json | undefined>((node, part) => (typeof node === 'object' ? node[part] : undefined), json);
  if (typeof value !== 'string') throw new Error(`no text ${language}/${namespace}:${key}`);
  return value;
}

/** Fills i18next {{slots}} and catalogue {slots} the way the app does. */
export function fill(template: string, params: Record<string, string | number>): string {
  return template.replace(/\{\{\s*(\w+)\s*\}\}|\{(\w+)\}/g, (slot, double?: string, single?: string) => {
    const key = double ?? single ?? '';
    return key in params ? String(params[key]) : slot;
  });
}

export interface Account {
  email: string;
  password: string;
  firstName: string;
  /** The access token of the registration, for setting up data through the API. */
  token: string;
}

let accounts = 0;

/** Creates an account through the public API (as the register page would) and returns its credentials. */
export async function createAccount(app: RunningApp, firstName = 'Ada'): Promise<Account> {
  const account = { email: `user${Date.now()}-${++accounts}@example.com`, password: 'correct horse 1', firstName, token: '' };
  const response = await fetch(`${app.url}/v1/users/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ firstName, lastName: 'Lovelace', email: account.email, password: account.password, confirmPassword: account.password }),
  });
  if (response.status !== 201) throw new Error(`register answered ${response.status}: ${await response.text()}`);
  account.token = ((await response.json()) as { token: string }).token;
  return account;
}

/** Adds a template to the account's library through the API (the wizard's upload is tested on its own). */
export async function addTemplate(app: RunningApp, account: Account, file: string): Promise<string> {
  const form = new FormData();
  form.append('file', new Blob([await readFile(file)], { type: 'application/pdf' }), path.basename(file));
  const response = await fetch(`${app.url}/v1/templates?name=${encodeURIComponent(path.basename(file))}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${account.token}` },
    body: form,
  });
  if (response.status !== 201) throw new Error(`upload answered ${response.status}: ${await response.text()}`);
  return ((await response.json()) as { id: string }).id;
}

/** Waits until the server has rendered the template's thumbnail (it does so after answering the upload). */
export async function thumbnailReady(app: RunningApp, account: Account, id: string, timeoutMs = 90_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const response = await fetch(`${app.url}/v1/templates/${id}`, { headers: { authorization: `Bearer ${account.token}` } });
    if (((await response.json()) as { thumbnailUrl: string | null }).thumbnailUrl) return;
    if (Date.now() > deadline) throw new Error(`no thumbnail for template ${id}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** Signs in through the login page, in whatever language it shows, and waits for home. */
export async function logIn(page: Page, app: RunningApp, account: Account): Promise<void> {
  await page.goto(`${app.url}/login`);
  await page.locator('input[type=email]').fill(account.email);
  await page.locator('input[type=password]').fill(account.password);
  await page.locator('form button[type=submit]').click();
  await page.waitForURL(`${app.url}/`);
}

/** Sets this device's language choice the way the selector stores it (apps/web/src/i18n LANGUAGE_KEY). */
export async function rememberLanguage(page: Page, language: Language): Promise<void> {
  await page.evaluate(`localStorage.setItem('sheaf.language', ${JSON.stringify(language)})`);
}

/** Picks a language in the login page's selector (the header's combobox). */
export async function chooseLanguage(page: Page, combobox: ReturnType<Page['getByRole']>, language: Language): Promise<void> {
  const names: Record<Language, string> = { en: 'English', de: 'Deutsch', fr: 'Français', es: 'Español', zh: '中文（简体）' };
  await combobox.click();
  await page.getByRole('option', { name: names[language] }).click();
}

/** The text of the newest mail to `email` in the outbox folder of the app's data dir, quoted-printable
 * undone (soft line breaks and =XX escapes); null when there is none yet. */
export async function latestMailTo(app: RunningApp, email: string): Promise<string | null> {
  const dir = path.join(app.dataDir, 'outbox');
  const index = await readFile(path.join(dir, 'outbox.jsonl'), 'utf8').catch(() => '');
  const entry = index.split('\n').filter(Boolean).map((line) => JSON.parse(line) as { to: string; file: string }).filter((mail) => mail.to === email).at(-1);
  if (!entry) return null;
  return (await readFile(path.join(dir, entry.file), 'utf8')).replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

/** The newest reset link mailed to `email` (the server writes the mail before it answers the reset request). */
export async function resetLinkFor(app: RunningApp, email: string): Promise<string> {
  const raw = await latestMailTo(app, email);
  if (raw === null) throw new Error(`no mail to ${email} in ${app.dataDir}/outbox`);
  const link = /https?:\/\/\S+\/resetPassword\?token=[^\s"<>]+/.exec(raw)?.[0];
  if (!link) throw new Error(`no reset link in the mail to ${email}`);
  return link;
}

/** Waits for the page's finite CSS transitions and animations (fades, dialogs, ripples) and its fonts, so a
 * screenshot shows the page as a person sees it once it has settled. Endless ones (spinners) are skipped. */
export async function settle(page: Page): Promise<void> {
  // Runs in the page (a string: this project compiles without the DOM's types).
  await page.evaluate(`(async () => {
    await document.fonts.ready;
    for (let round = 0; round < 20; round++) {
      const running = document.getAnimations().filter((animation) => animation.effect?.getComputedTiming().endTime !== Infinity);
      if (running.length === 0) return;
      await Promise.all(running.map((animation) => animation.finished.catch(() => undefined)));
      await new Promise((resolve) => requestAnimationFrame(resolve));
    }
  })()`);
}

/**
 * Saves e2e/screenshots/<name>.png of the settled page, scrolled to the top (a sticky navbar would
 * otherwise sit in the middle of a full-page picture), and returns what on it is not in `language`.
 */
export async function capture(page: Page, name: string, language: Language, options: { keepScroll?: boolean } = {}): Promise<string[]> {
  await settle(page);
  if (!options.keepScroll) await page.evaluate('window.scrollTo(0, 0)');
  await screenshot(page, name);
  return untranslatedLines(page, language);
}

const NAMESPACES = ['common', 'auth', 'navbar', 'errors', 'help', 'home', 'account', 'wizard', 'editor'] as const;

function flatten(tree: Json, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of Object.entries(tree)) {
    const full = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') out.set(full, value);
    else for (const [inner, text] of flatten(value, full)) out.set(inner, text);
  }
  return out;
}

async function allTexts(language: Language): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const namespace of NAMESPACES) {
    for (const [key, value] of flatten(await load(language, namespace))) out.set(`${namespace}:${key}`, value);
  }
  return out;
}

/**
 * What on the page is not in `language`: lines that are a bare translation key ('login.title',
 * 'auth:login.title': i18next shows the key when a text is missing) and lines that are an English
 * text where `language` has its own (a string that bypasses i18n, or a missing translation).
 */
export async function untranslatedLines(page: Page, language: Language): Promise<string[]> {
  const english = await allTexts('en');
  const translated = language === 'en' ? english : await allTexts(language);
  const keys = new Set<string>();
  for (const key of english.keys()) keys.add(key).add(key.slice(key.indexOf(':') + 1));
  // A key that is also a text of the language ('or' is the key and the English of "or") is no leak.
  for (const value of translated.values()) keys.delete(value);
  const leftovers = new Set<string>();
  if (language !== 'en') {
    for (const [key, value] of english) {
      // Whole texts only: ones with {{slots}} or <tags> never show verbatim, short ones ("OK") are ambiguous.
      if (value.length >= 4 && !/[{<]/.test(value) && translated.get(key) !== value) leftovers.add(value);
    }
  }
  const lines = (await page.locator('body').innerText()).split('\n').map((line) => line.trim()).filter(Boolean);
  return lines.filter((line) => keys.has(line) || leftovers.has(line));
}
