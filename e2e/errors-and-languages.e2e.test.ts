/**
 * The wizard's upload errors (wrong file types, too many rows, a password-protected template) and the
 * language switch, driven in Chromium on the built app as a person would. Every text the tests expect
 * is read from the locale files (and the catalogue's English where the docs quote the words), so a
 * changed translation changes the expectation, not the test.
 */
import { readFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { ERROR_MESSAGES, MAX_SHEET_ROWS } from '@sheaf/shared';
import { USER_PASSWORD } from '../scripts/fixtures/encrypted.ts';
import { newContext } from './support/app.ts';
import { browserSession, TEST_TIMEOUT, UI_TIMEOUT } from './support/session.ts';
import { capture, chooseLanguage, fill, fixture, LANGUAGES, logIn, text } from './support/screens.ts';

const session = browserSession();
const { signedInPage } = session;

const en = (namespace: string, key: string) => text('en', namespace, key);
const stepper = async (page: Page) => page.getByRole('tablist', { name: await en('wizard', 'steps.label') });

/** Uploads `file` in the dropzone labelled `label` and waits for the server's answer to `path`. */
async function uploadAndWait(page: Page, label: string, file: string | { name: string; mimeType: string; buffer: Buffer }, path: RegExp) {
  const answered = page.waitForResponse((response) => path.test(new URL(response.url()).pathname) && response.request().method() !== 'GET');
  await page.getByLabel(label, { exact: true }).setInputFiles(file);
  return answered;
}

describe('wizard upload errors', { timeout: TEST_TIMEOUT }, () => {
  it('step 1 refuses a file that is neither a PDF nor a word-processor document, by its name and by its content', async () => {
    const page = await signedInPage();
    await page.goto(`${session.app.url}/wizard/new`);
    const dropLabel = await en('wizard', 'template.dropLabel');
    const wrongType = await en('errors', 'template/wrong-type');
    expect(wrongType).toBe(ERROR_MESSAGES['template/wrong-type']);

    // A picture: refused before anything is sent (Word documents are templates too now).
    await page.getByLabel(dropLabel, { exact: true }).setInputFiles({ name: 'photo.png', mimeType: 'image/png', buffer: await readFile(fixture('random.bin')) });
    const alert = page.getByRole('main').getByRole('alert');
    await alert.filter({ hasText: wrongType }).waitFor();
    expect(await alert.innerText()).toBe(wrongType);
    expect(new URL(page.url()).pathname).toBe('/wizard/new');

    // Random bytes named .pdf pass the name check; the server looks inside and refuses them too.
    await page.getByRole('button', { name: await en('wizard', 'dropzone.choose') }).waitFor();
    const response = await uploadAndWait(page, dropLabel, { name: 'random.pdf', mimeType: 'application/pdf', buffer: await readFile(fixture('random.bin')) }, /^\/v1\/templates$/);
    expect(response.status()).toBe(400);
    await alert.filter({ hasText: wrongType }).waitFor();
    expect(await alert.innerText()).toBe(wrongType);
    expect(new URL(page.url()).pathname).toBe('/wizard/new');
    expect(await capture(page, 'wizard-step1-wrong-type', 'en')).toEqual([]);
  });

  it('a password-protected PDF opens the unlock dialog: Unlock waits for a password, a wrong one says so, the right one opens the editor', async () => {
    const page = await signedInPage();
    await page.goto(`${session.app.url}/wizard/new`);
    await page.getByLabel(await en('wizard', 'template.dropLabel'), { exact: true }).setInputFiles(fixture('encrypted-aes-256.pdf'));

    const dialog = page.getByRole('dialog', { name: await en('wizard', 'decrypt.title') });
    await dialog.waitFor();
    await page.waitForURL(/\/wizard\/[A-Za-z0-9]{20}(\?step=\d)?$/);
    const unlock = dialog.getByRole('button', { name: await en('wizard', 'decrypt.submit'), exact: true });
    const field = dialog.getByLabel(await en('wizard', 'decrypt.password'));
    expect(await unlock.isDisabled()).toBe(true);
    expect(await capture(page, 'wizard-encrypted-dialog', 'en')).toEqual([]);

    await field.fill('not the password');
    expect(await unlock.isEnabled()).toBe(true);
    await unlock.click();
    // While the server checks, the button says so and cannot be pressed twice.
    const unlocking = dialog.getByRole('button', { name: await en('wizard', 'decrypt.submitting') });
    expect(await unlocking.isDisabled()).toBe(true);
    const wrong = dialog.getByText(ERROR_MESSAGES['template/wrong-password'], { exact: true });
    await wrong.waitFor();
    expect(await wrong.innerText()).toBe('Wrong password');
    expect(await field.getAttribute('aria-invalid')).toBe('true');
    expect(await capture(page, 'wizard-encrypted-wrong-password', 'en')).toEqual([]);

    await field.fill('');
    expect(await unlock.isDisabled()).toBe(true);
    await field.fill(USER_PASSWORD);
    await unlock.click();
    await dialog.waitFor({ state: 'hidden' });
    await page.getByRole('toolbar', { name: await en('editor', 'toolbar.label') }).waitFor();
    const placeholders = (await stepper(page)).getByRole('tab', { name: await en('wizard', 'steps.placeholders') });
    expect(await placeholders.getAttribute('aria-current')).toBe('step');
  });

  it('step 3 refuses a file that is not a spreadsheet and sheets of more than 100,000 rows', async () => {
    const page = await signedInPage();
    await page.goto(`${session.app.url}/wizard/new`);
    await page.getByLabel(await en('wizard', 'template.dropLabel'), { exact: true }).setInputFiles(fixture('corpus/classic-xref.pdf'));
    await page.getByRole('toolbar', { name: await en('editor', 'toolbar.label') }).waitFor();
    await (await stepper(page)).getByRole('tab', { name: await en('wizard', 'steps.spreadsheet') }).click();
    const dropLabel = await en('wizard', 'sheet.dropLabel');
    await page.getByRole('heading', { name: await en('wizard', 'sheet.title'), exact: true }).waitFor();
    const alert = page.getByRole('main').getByRole('alert');

    const wrongType = await en('errors', 'sheet/wrong-type');
    await page.getByLabel(dropLabel, { exact: true }).setInputFiles(fixture('not-a-sheet.pdf'));
    await alert.filter({ hasText: wrongType }).waitFor();
    expect(await alert.innerText()).toBe(wrongType);

    // Named like a workbook, but random bytes: the server refuses it with the same words.
    const disguised = { name: 'people.xlsx', mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', buffer: await readFile(fixture('random.bin')) };
    expect((await uploadAndWait(page, dropLabel, disguised, /\/excel$/)).status()).toBe(400);
    await alert.filter({ hasText: wrongType }).waitFor();
    expect(await alert.innerText()).toBe(wrongType);

    // The catalogue's words: "more than 100,000 rows".
    const tooMany = fill(await en('errors', 'sheet/too-many-rows'), { max: MAX_SHEET_ROWS.toLocaleString('en') });
    expect(tooMany).toContain('more than 100,000 rows');
    for (const file of ['rows-100001.csv', 'sheet-100001-rows.xlsx']) {
      expect((await uploadAndWait(page, dropLabel, fixture(file), /\/excel$/)).status(), file).toBe(400);
      await alert.filter({ hasText: tooMany }).waitFor();
      expect(await alert.innerText(), file).toBe(tooMany);
    }
    expect(await capture(page, 'wizard-step3-too-many-rows', 'en')).toEqual([]);
  });
});

describe('language switch', { timeout: TEST_TIMEOUT }, () => {
  it('the login page speaks each language, remembers the choice, and the account page switches the signed-in UI', async () => {
    session.context = await newContext(session.browser);
    const page = await session.context.newPage();
    page.setDefaultTimeout(UI_TIMEOUT);
    await page.goto(`${session.app.url}/login`);
    const selector = page.getByRole('banner').getByRole('combobox');
    const heading = page.getByRole('heading', { level: 1 });
    expect(await heading.innerText()).toBe(await en('auth', 'login.title'));

    for (const language of LANGUAGES.filter((lng) => lng !== 'en')) {
      await chooseLanguage(page, selector, language);
      const title = await text(language, 'auth', 'login.title');
      await heading.filter({ hasText: title }).waitFor();
      expect(await heading.innerText()).toBe(title);
      expect(await page.getByRole('button', { name: await text(language, 'auth', 'login.submit'), exact: true }).count()).toBe(1);
      expect(await page.getByLabel(await text(language, 'common', 'language')).count()).toBeGreaterThan(0);
      expect(await page.locator('html').getAttribute('lang')).toMatch(new RegExp(`^${language}`));
      expect(await capture(page, `login-${language}`, language), language).toEqual([]);
    }

    // Remembered on this device: a reload keeps Chinese, and the server's errors are said in it too.
    await page.reload();
    await heading.filter({ hasText: await text('zh', 'auth', 'login.title') }).waitFor();
    await page.locator('input[type=email]').fill(session.account.email);
    await page.locator('input[type=password]').fill('not the password');
    await page.getByRole('button', { name: await text('zh', 'auth', 'login.submit'), exact: true }).click();
    const refused = await text('zh', 'errors', 'auth/invalid-credentials');
    await page.getByRole('alert').filter({ hasText: refused }).waitFor();
    expect(await page.getByRole('alert').innerText()).toBe(refused);

    // Signed in, the account page's setting switches the whole UI (navbar included).
    await logIn(page, session.app, session.account);
    await page.goto(`${session.app.url}/account`);
    await page.getByRole('heading', { name: await text('zh', 'account', 'title'), exact: true }).waitFor();
    await chooseLanguage(page, page.getByRole('combobox', { name: await text('zh', 'account', 'language.label') }), 'de');
    await page.getByRole('heading', { name: await text('de', 'account', 'title'), exact: true }).waitFor();
    await page.getByText(await text('de', 'account', 'language.success'), { exact: true }).waitFor();
    expect(await page.getByRole('navigation', { name: await text('de', 'navbar', 'crumbs.label') }).innerText()).toContain(await text('de', 'navbar', 'crumbs.home'));
    expect(await capture(page, 'account-de', 'de')).toEqual([]);

    // The account keeps the choice: another browser (no choice of its own) opens in German after sign-in.
    const other = await newContext(session.browser);
    try {
      const fresh = await other.newPage();
      fresh.setDefaultTimeout(UI_TIMEOUT);
      await logIn(fresh, session.app, session.account);
      await fresh.getByRole('link', { name: await text('de', 'home', 'create') }).first().waitFor();
      expect(await fresh.locator('html').getAttribute('lang')).toBe('de');
    } finally {
      await other.close();
    }
  });
});
