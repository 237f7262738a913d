/**
 * Sign-in with Google as a person goes through it (docs/accounts.md#social-sign-in; issue #14): the
 * "Google" is a real OpenID provider run locally (oidc-provider, apps/server/test/oidc-idp.ts) with its
 * development login page, and the app is started with GOOGLE_* pointing at it (no Apple or Microsoft:
 * their buttons stay away). Sign up with Google, sign out, sign in again to the same account; cancelling
 * at the provider says nothing; the account's password form says "please use Google"; an address that
 * is a password account's is refused until its password links the two. axe on the pages met.
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { reserveIssuer, startTestIdp, type TestIdp } from '../apps/server/test/oidc-idp.ts';
import { seriousViolations } from './support/axe.ts';
import { screenshot } from './support/app.ts';
import { createAccount, resetLinkFor, type Account } from './support/screens.ts';
import { serialFlow } from './support/serial-flow.ts';
import { UI_TIMEOUT } from './support/session.ts';

let idp: TestIdp | undefined;
let issuer: { port: number; issuer: string };

const flow = serialFlow({
  failureScreenshot: 'failed-social-sign-in',
  actionTimeoutMs: UI_TIMEOUT,
  async env() {
    issuer = await reserveIssuer();
    return { GOOGLE_CLIENT_ID: 'sheaf-e2e', GOOGLE_CLIENT_SECRET: 'e2e-secret', GOOGLE_ISSUER: issuer.issuer };
  },
  // The provider must know the app's callback address: it starts once the app has one (Sheaf reaches it on first use).
  async onStarted(app) {
    idp = await startTestIdp({ port: issuer.port, sheafUrl: app.url, clients: [{ provider: 'google', client_id: 'sheaf-e2e', client_secret: 'e2e-secret' }] });
  },
});

afterAll(async () => {
  await idp?.close();
});

const GRACE = { login: 'grace', email: `grace-${Date.now()}@example.com` };

/** The signed-in user as GET /v1/users/me answers (with the page's own token). */
async function me(page: Page): Promise<{ uid: string; email: string; isOAuthUser: boolean; isNewUser: boolean; hasPassword: boolean }> {
  // A string: e2e/ is type-checked without the DOM library.
  return page.evaluate(`fetch('/v1/users/me', { headers: { authorization: 'Bearer ' + localStorage.getItem('sheaf.token') } }).then((response) => response.json())`);
}

/** At the local provider's login page: any login name signs in as that account. */
async function signInAtProvider(page: Page, login: string): Promise<void> {
  // Its page imports a web font from the internet: do not wait for its load event.
  await page.waitForURL((url) => url.origin === issuer.issuer && url.pathname.startsWith('/interaction/'), { waitUntil: 'commit' });
  await page.locator('input[name=login]').fill(login);
  await page.locator('input[name=password]').fill('any password');
  await page.getByRole('button', { name: 'Sign-in' }).click();
}

async function logOut(page: Page, appUrl: string): Promise<void> {
  await page.getByRole('button', { name: 'Open the user menu' }).click();
  await page.getByRole('menuitem', { name: 'Log out' }).click();
  await page.waitForURL(`${appUrl}/login`);
}

/** Forgets the provider's own session (its cookies), so it asks who signs in again; the app keeps its session in localStorage. */
async function leaveProvider(page: Page): Promise<void> {
  await page.context().clearCookies();
}

describe('sign-in with Google', () => {
  let grace: { uid: string };
  let ada: Account;

  it('the sign-up page offers Google only (the configured provider) and passes axe', async () => {
    const { page, app } = flow;
    idp!.accounts.set(GRACE.login, { email: GRACE.email, email_verified: true, given_name: 'Grace', family_name: 'Hopper' });
    await page.goto(`${app.url}/register`);
    await page.getByRole('link', { name: 'Continue with Google' }).waitFor();
    expect(await page.getByRole('link', { name: /Continue with (Apple|Microsoft)/ }).count()).toBe(0);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'social-sign-in-1-register');
  });

  it('signs up with Google: home, signed in as a new OAuth user', async () => {
    const { page, app } = flow;
    await page.getByRole('link', { name: 'Continue with Google' }).click();
    await signInAtProvider(page, GRACE.login);
    await page.waitForURL(`${app.url}/`);
    const user = await me(page);
    expect(user).toMatchObject({ email: GRACE.email, isOAuthUser: true, isNewUser: true });
    grace = user;
    // The one-time code does not stay in the address bar or the history.
    expect(page.url()).not.toContain('code=');
  });

  it('signs out, and in again with Google to the same account', async () => {
    const { page, app } = flow;
    await logOut(page, app.url);
    await page.getByRole('link', { name: 'Continue with Google' }).click();
    // The provider remembers Grace: it may send her straight back.
    await page.waitForURL((url) => url.href === `${app.url}/` || url.pathname.startsWith('/interaction/'), { waitUntil: 'commit' });
    if (page.url().startsWith(issuer.issuer)) await signInAtProvider(page, GRACE.login);
    await page.waitForURL(`${app.url}/`);
    expect((await me(page)).uid).toBe(grace.uid);
  });

  it('cancelling at the provider comes back to the login page without a word', async () => {
    const { page, app } = flow;
    await logOut(page, app.url);
    await leaveProvider(page);
    await page.getByRole('link', { name: 'Continue with Google' }).click();
    await page.waitForURL((url) => url.pathname.startsWith('/interaction/'), { waitUntil: 'commit' });
    await page.getByRole('link', { name: '[ Cancel ]' }).click();
    await page.waitForURL(`${app.url}/login`);
    await page.getByRole('heading', { name: 'Log in to Sheaf' }).waitFor();
    expect(await page.getByRole('alert').count()).toBe(0);
    expect(await page.getByTestId('snackbar').count()).toBe(0);
  });

  it('the password form of an account made with Google says to use Google', async () => {
    const { page } = flow;
    await page.locator('input[type=email]').fill(GRACE.email);
    await page.locator('input[type=password]').fill('a password she never had');
    await page.locator('form button[type=submit]').click();
    await expect.poll(() => page.getByRole('alert').textContent()).toBe('Please use Google to sign in.');
  });

  it('an address that is a password account\'s is refused, then linked with its password', async () => {
    const { page, app } = flow;
    ada = await createAccount(app, 'Ada');
    idp!.accounts.set('ada', { email: ada.email, email_verified: true, given_name: 'Ada', family_name: 'Lovelace' });
    await leaveProvider(page);
    await page.goto(`${app.url}/login`);
    await page.getByRole('link', { name: 'Continue with Google' }).click();
    await signInAtProvider(page, 'ada');
    await page.getByRole('heading', { name: 'This email address already has an account' }).waitFor();
    await expect.poll(() => page.getByTestId('snackbar').textContent()).toContain('Sign-in with Google did not work');
    const message = await page.getByRole('alert').filter({ hasText: 'already exists' }).textContent();
    expect(message).toBe('An account already exists with the same email address but different sign-in credentials. Sign in using your email and password.');
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'social-sign-in-2-conflict');

    await page.getByLabel('Password').fill('not her password');
    await page.getByRole('button', { name: 'Link Google and log in' }).click();
    await page.getByText('Wrong password').waitFor();
    await page.getByLabel('Password').fill(ada.password);
    await page.getByRole('button', { name: 'Link Google and log in' }).click();
    await page.waitForURL(`${app.url}/`);
    expect(await me(page)).toMatchObject({ email: ada.email, isOAuthUser: false });

    // From now on Google signs Ada in.
    await logOut(page, app.url);
    await page.getByRole('link', { name: 'Continue with Google' }).click();
    await page.waitForURL((url) => url.href === `${app.url}/` || url.pathname.startsWith('/interaction/'), { waitUntil: 'commit' });
    if (page.url().startsWith(issuer.issuer)) await signInAtProvider(page, 'ada');
    await page.waitForURL(`${app.url}/`);
    expect((await me(page)).email).toBe(ada.email);
  });

  it('an account made with Google sets a first password from the account page, then signs in with it too', async () => {
    const { page, app } = flow;
    await logOut(page, app.url);
    await leaveProvider(page);
    await page.getByRole('link', { name: 'Continue with Google' }).click();
    await signInAtProvider(page, GRACE.login);
    await page.waitForURL(`${app.url}/`);
    await page.goto(`${app.url}/account`);
    await page.getByText('Your account has no password').waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Email me a link' }).click();
    await page.getByText(`A link to set your password is on its way to ${GRACE.email}.`).waitFor();

    await logOut(page, app.url);
    await page.goto(await resetLinkFor(app, GRACE.email));
    await page.getByLabel('New password').fill('grace-first-password-42');
    await page.getByLabel('Confirm password').fill('grace-first-password-42');
    await page.getByRole('button', { name: 'Set new password', exact: true }).click();
    await page.getByText('Your password has been changed. You can log in now.').waitFor();
    await page.goto(`${app.url}/login`);
    await page.locator('input[type=email]').fill(GRACE.email);
    await page.locator('input[type=password]').fill('grace-first-password-42');
    await page.locator('form button[type=submit]').click();
    await page.waitForURL(`${app.url}/`);
    expect(await me(page)).toMatchObject({ uid: grace.uid, hasPassword: true });
    await page.goto(`${app.url}/account`);
    await page.getByRole('heading', { name: 'Account', exact: true }).waitFor();
    expect(await page.getByText('Your account has no password').count()).toBe(0);
  });
});
