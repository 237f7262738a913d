/**
 * The sign-in screens, the route guards and the remaining screens (home, account, help, not found),
 * driven in Chromium on the built app. Texts come from the locale files; each screen is saved under
 * e2e/screenshots/ for a person to look at, and must show no bare key and no left-over English.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { ERROR_MESSAGES } from '@sheaf/shared';
import { browserSession, TEST_TIMEOUT } from './support/session.ts';
import { addTemplate, capture, createAccount, fill, fixture, logIn, rememberLanguage, resetLinkFor, text, thumbnailReady } from './support/screens.ts';

const session = browserSession();
const { freshPage } = session;

const en = (namespace: string, key: string) => text('en', namespace, key);
const pathname = (page: Page) => new URL(page.url()).pathname;

describe('sign-in screens', { timeout: TEST_TIMEOUT }, () => {
  it('login asks for both fields, then shows the server\'s error for a wrong password', async () => {
    const page = await freshPage();
    await page.goto(`${session.app.url}/login`);
    await page.getByRole('heading', { name: await en('auth', 'login.title') }).waitFor();
    expect(await capture(page, 'login-en', 'en')).toEqual([]);

    await page.getByRole('button', { name: await en('auth', 'login.submit'), exact: true }).click();
    await page.getByText(await en('auth', 'validation.emailRequired'), { exact: true }).waitFor();
    await page.getByText(await en('auth', 'validation.passwordRequired'), { exact: true }).waitFor();

    await page.getByLabel(await en('auth', 'workEmail')).fill(session.account.email);
    await page.getByLabel(await en('auth', 'password')).fill('not my password');
    await page.getByRole('button', { name: await en('auth', 'login.submit'), exact: true }).click();
    const alert = page.getByRole('alert').filter({ hasText: await en('errors', 'auth/invalid-credentials') });
    await alert.waitFor();
    expect(await alert.innerText()).toBe(ERROR_MESSAGES['auth/invalid-credentials']);
    expect(pathname(page)).toBe('/login');
    expect(await capture(page, 'login-wrong-password', 'en')).toEqual([]);
  });

  it('register shows the documented messages and sends nothing until they pass; a new account lands on an empty home', async () => {
    const page = await freshPage();
    let registrations = 0;
    page.on('request', (request) => {
      if (request.method() === 'POST' && request.url().endsWith('/v1/users/register')) registrations++;
    });
    await page.goto(`${session.app.url}/register`);
    const submit = page.getByRole('button', { name: await en('auth', 'register.submit'), exact: true });
    const shows = async (message: string) => {
      const helper = page.getByText(message, { exact: true });
      await helper.waitFor();
      return helper.count();
    };

    await submit.click();
    expect(await shows('First name is required')).toBe(1);
    expect(await shows('Last name is required')).toBe(1);
    expect(await shows('Please enter an email address')).toBe(1);
    expect(await shows('Password must be at least 6 characters long')).toBe(1);
    expect(await shows(await en('auth', 'validation.acceptTermsRequired'))).toBe(1);
    expect(await capture(page, 'register-errors', 'en')).toEqual([]);

    const field = (name: string) => page.locator(`input[name="${name}"]`);
    await field('firstName').fill('Grace');
    await field('lastName').fill('Hopper');
    await field('email').fill('grace@example');
    await field('password').fill('abc');
    await field('confirmPassword').fill('abd');
    await submit.click();
    expect(await shows('Invalid email address')).toBe(1);
    expect(await shows('Passwords do not match')).toBe(1);
    expect(await shows('Password must be at least 6 characters long')).toBe(1);
    expect(await page.getByText('First name is required', { exact: true }).count()).toBe(0);

    // Everything right except the terms: still refused, still nothing sent.
    await field('email').fill(session.account.email);
    await field('password').fill('a-long-password');
    await field('confirmPassword').fill('a-long-password');
    await submit.click();
    expect(await shows(await en('auth', 'validation.acceptTermsRequired'))).toBe(1);
    expect(await page.getByText('Passwords do not match', { exact: true }).count()).toBe(0);
    expect(registrations).toBe(0);

    // Terms accepted: the server says the address is taken, in the documented words under the field (docs/accounts.md#sign-up).
    await page.getByRole('checkbox').check();
    await submit.click();
    expect(await shows('Email address is already in use by another user.')).toBe(1);
    expect(registrations).toBe(1);

    await field('email').fill(`grace${Date.now()}@example.com`);
    await submit.click();
    await page.waitForURL(`${session.app.url}/`);
    await page.getByRole('heading', { name: await en('home', 'empty.title') }).waitFor();
    expect(await capture(page, 'home-empty', 'en')).toEqual([]);
  });

  it('a reset link from the outbox sets a new password that logs in (once), and the old one stops working', async () => {
    const person = await createAccount(session.app, 'Katherine');
    const page = await freshPage();
    await page.goto(`${session.app.url}/resetPassword`);
    const send = page.getByRole('button', { name: await en('auth', 'reset.submit'), exact: true });
    expect(await send.isDisabled()).toBe(true);
    expect(await capture(page, 'reset-password', 'en')).toEqual([]);
    await page.getByLabel(await en('auth', 'workEmail')).fill(person.email);
    await send.click();
    await page.getByRole('status').filter({ hasText: ERROR_MESSAGES['auth/reset-email-sent'] }).waitFor();

    const link = await resetLinkFor(session.app, person.email);
    expect(link.startsWith(`${session.app.url}/resetPassword?token=`)).toBe(true);
    await page.goto(link);
    await page.getByRole('heading', { name: await en('auth', 'reset.newPasswordTitle') }).waitFor();
    const newPassword = page.getByLabel(await en('auth', 'reset.newPassword'));
    const confirm = page.getByLabel(await en('auth', 'register.fields.confirmPassword'));
    const setIt = page.getByRole('button', { name: await en('auth', 'reset.setPassword'), exact: true });
    await newPassword.fill('fresh-password-2');
    await confirm.fill('fresh-password-3');
    await setIt.click();
    await page.getByText('Passwords do not match', { exact: true }).waitFor();
    expect(await capture(page, 'reset-new-password', 'en')).toEqual([]);
    await confirm.fill('fresh-password-2');
    await setIt.click();
    await page.getByRole('status').filter({ hasText: ERROR_MESSAGES['auth/password-reset-done'] }).waitFor();
    await page.getByRole('link', { name: await en('auth', 'reset.toLogin') }).click();
    await page.waitForURL(`${session.app.url}/login`);

    // The old password is gone; the new one signs in.
    await page.getByLabel(await en('auth', 'workEmail')).fill(person.email);
    await page.getByLabel(await en('auth', 'password')).fill(person.password);
    await page.getByRole('button', { name: await en('auth', 'login.submit'), exact: true }).click();
    await page.getByRole('alert').filter({ hasText: ERROR_MESSAGES['auth/invalid-credentials'] }).waitFor();
    await logIn(page, session.app, { ...person, password: 'fresh-password-2' });

    // The link worked once: opened again (signed out) it is refused.
    await session.context!.clearCookies();
    await page.evaluate('localStorage.clear()');
    await page.goto(link);
    await newPassword.fill('another-password');
    await confirm.fill('another-password');
    await setIt.click();
    await page.getByRole('alert').filter({ hasText: ERROR_MESSAGES['auth/reset-link-invalid'] }).waitFor();
  });
});

describe('route guards', { timeout: TEST_TIMEOUT }, () => {
  it('signed out, protected pages lead to login (and back after signing in); unknown paths show not found', async () => {
    const page = await freshPage();
    for (const path of ['/', '/wizard/new', '/help']) {
      await page.goto(`${session.app.url}${path}`);
      await page.waitForURL(`${session.app.url}/login`);
    }
    await page.goto(`${session.app.url}/no/such/page`);
    await page.getByRole('heading', { name: await en('errors', 'pages.notFoundTitle') }).waitFor();
    expect(pathname(page)).toBe('/no/such/page');
    expect(await capture(page, 'not-found-signed-out', 'en')).toEqual([]);

    await page.goto(`${session.app.url}/account`);
    await page.waitForURL(`${session.app.url}/login`);
    await page.getByLabel(await en('auth', 'workEmail')).fill(session.account.email);
    await page.getByLabel(await en('auth', 'password')).fill(session.account.password);
    await page.getByRole('button', { name: await en('auth', 'login.submit'), exact: true }).click();
    await page.waitForURL(`${session.app.url}/account`);
    await page.getByRole('heading', { name: await en('account', 'title'), exact: true }).waitFor();
  });

  it('signed in, the public pages and invalid wizard addresses go home; unknown paths show not found in the app frame', async () => {
    const page = await freshPage();
    await logIn(page, session.app, session.account);
    for (const path of ['/login', '/register', '/resetPassword', '/wizard/abc', '/wizard/ABCDEFGHIJKLMNOPQRSTU']) {
      await page.goto(`${session.app.url}${path}`);
      await page.waitForURL(`${session.app.url}/`);
    }
    // A well-formed id nobody owns: home, with the catalogue's message.
    await page.goto(`${session.app.url}/wizard/ABCDEFGHIJKLMNOPQRST`);
    await page.waitForURL(`${session.app.url}/`);
    await page.getByText(ERROR_MESSAGES['template/not-found'], { exact: true }).waitFor();

    await page.goto(`${session.app.url}/no/such/page`);
    await page.getByRole('heading', { name: await en('errors', 'pages.notFoundTitle') }).waitFor();
    await page.getByRole('navigation', { name: await en('navbar', 'crumbs.label') }).waitFor();
    expect(await capture(page, 'not-found-signed-in', 'en')).toEqual([]);
    await page.getByRole('link', { name: await en('common', 'backHome') }).click();
    await page.waitForURL(`${session.app.url}/`);
  });
});

describe('screens', { timeout: TEST_TIMEOUT }, () => {
  it('home with templates, the account page and the help page', async () => {
    const owner = await createAccount(session.app, 'Dorothy');
    await thumbnailReady(session.app, owner, await addTemplate(session.app, owner, fixture('corpus/classic-xref.pdf')));
    await addTemplate(session.app, owner, fixture('encrypted-aes-128.pdf'));
    const page = await freshPage();
    await logIn(page, session.app, owner);
    await page.getByText('classic-xref.pdf').first().waitFor();
    await page.getByText('encrypted-aes-128.pdf').first().waitFor();
    await page.getByRole('img', { name: fill(await en('home', 'card.thumbnailAlt'), { name: 'classic-xref.pdf' }) }).waitFor();
    // A locked template says so instead of "0 pages".
    const locked = page.getByRole('article', { name: 'encrypted-aes-128.pdf' });
    const lockedText = await en('home', 'card.locked');
    expect(await locked.getByRole('img', { name: lockedText }).count()).toBe(1);
    expect(await locked.locator('p').getByText(lockedText, { exact: true }).count()).toBe(1);
    expect(await locked.getByText(fill(await en('home', 'card.pages_other'), { count: 0 })).count()).toBe(0);
    expect(await capture(page, 'home-templates', 'en')).toEqual([]);

    await page.goto(`${session.app.url}/account`);
    await page.getByRole('heading', { name: await en('account', 'title'), exact: true }).waitFor();
    await page.getByText(owner.email).waitFor();
    expect(await capture(page, 'account', 'en')).toEqual([]);

    await page.goto(`${session.app.url}/help`);
    await page.getByRole('heading', { level: 1 }).waitFor();
    expect(await capture(page, 'help', 'en')).toEqual([]);
  });

  it('home and help read fully in Chinese and German', async () => {
    const page = await freshPage();
    await logIn(page, session.app, session.account);
    for (const language of ['zh', 'de'] as const) {
      await rememberLanguage(page, language);
      await page.goto(`${session.app.url}/`);
      await page.getByRole('heading', { name: await text(language, 'home', 'empty.title') }).waitFor();
      expect(await capture(page, `home-${language}`, language), language).toEqual([]);
      await page.goto(`${session.app.url}/help`);
      await page.getByRole('heading', { name: await text(language, 'help', 'title'), exact: true }).waitFor();
      expect(await capture(page, `help-${language}`, language), language).toEqual([]);
    }
  });
});
