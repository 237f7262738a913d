/**
 * Child users in the browser (docs/accounts.md#child-users): an Enterprise account holder opens /users
 * (axe), is stopped by the create-user form's checks, creates a child user and sees it listed with the
 * seats; the child signs in elsewhere and finds no Users or Billing, a plan chip that opens nothing, and
 * /users telling it users are the administrator's; the holder disables the child, whose next request
 * signs it out; the holder enables and finally deletes it. Screenshots: e2e/screenshots/users-*.png.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seriousViolations } from './support/axe.ts';
import { newContext, ROOT, screenshot } from './support/app.ts';
import { createAccount, logIn, type Account } from './support/screens.ts';
import { serialFlow } from './support/serial-flow.ts';
import { TEST_TIMEOUT, UI_TIMEOUT } from './support/session.ts';

const run = promisify(execFile);
const CHILD = { firstName: 'Grace', lastName: 'Hopper', email: `grace${Date.now()}@example.com`, password: 'cobol rules 59' };

const flow = serialFlow({ failureScreenshot: 'users-failure', actionTimeoutMs: UI_TIMEOUT });

let parent: Account;
let childContext: BrowserContext | undefined;
let childPage: Page;

beforeAll(async () => {
  parent = await createAccount(flow.app);
  // Five users come with Enterprise (the plan catalogue); the operator's command sets it, through the running server.
  await run(process.execPath, [path.join(ROOT, 'apps/server/bin/sheaf.mjs'), 'users', 'set-plan', parent.email, 'Enterprise'], { env: { ...process.env, DATA_DIR: flow.app.dataDir } });
});

afterAll(async () => {
  await childContext?.close();
});

const snackbar = () => flow.page.getByTestId('snackbar');
const row = () => flow.page.getByTestId('child-user-row').filter({ hasText: CHILD.email });

describe('child users', { timeout: TEST_TIMEOUT }, () => {
  it('the holder opens /users from the user menu: no users yet, 1 of 5, and nothing axe finds serious', async () => {
    const { page, app } = flow;
    await logIn(page, app, parent);
    await page.getByRole('button', { name: 'Open the user menu' }).click();
    await page.getByRole('menuitem', { name: 'Users' }).click();
    await page.waitForURL(`${app.url}/users`);
    await page.getByRole('heading', { name: 'Users', level: 1 }).waitFor();
    await page.getByRole('heading', { name: 'No users yet' }).waitFor();
    expect(await page.getByTestId('seats').textContent()).toContain('1 of 5 users');
    expect(await page.getByRole('tab', { name: 'Users' }).getAttribute('aria-selected')).toBe('true');
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('creates a child user: the registration form\'s checks first, then a snackbar, the row and 2 of 5', async () => {
    const { page } = flow;
    await page.getByRole('button', { name: 'Create user' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create user' });
    await dialog.getByRole('button', { name: 'Create user' }).click();
    await dialog.getByText('First name is required').waitFor();
    await dialog.getByText('Please enter an email address').waitFor();
    await dialog.getByText('Password must be at least 6 characters long').waitFor();
    // No company and no terms in this form.
    expect(await dialog.getByRole('checkbox').count()).toBe(0);
    expect(await dialog.getByLabel(/Company/).count()).toBe(0);
    expect(await seriousViolations(page)).toEqual([]);

    await dialog.getByLabel(/^First name/).fill(CHILD.firstName);
    await dialog.getByLabel(/^Last name/).fill(CHILD.lastName);
    await dialog.getByLabel(/^Work email/).fill(CHILD.email);
    await dialog.getByLabel(/^Password/).fill(CHILD.password);
    await dialog.getByLabel(/^Confirm password/).fill(CHILD.password);
    await dialog.getByRole('button', { name: 'Create user' }).click();
    await dialog.waitFor({ state: 'detached' });
    await snackbar().getByText(`User ${CHILD.email} was created.`).waitFor();
    await row().getByText('Active').waitFor();
    await row().getByText('Grace Hopper').waitFor();
    await expect.poll(() => page.getByTestId('seats').textContent()).toContain('2 of 5 users');
    await screenshot(page, 'users-1-created');
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('the child signs in: no Users or Billing, a plan chip that opens nothing, /users is the admin\'s', async () => {
    const { app } = flow;
    childContext = await newContext(flow.page.context().browser()!);
    childPage = await childContext.newPage();
    childPage.setDefaultTimeout(UI_TIMEOUT);
    await logIn(childPage, app, { ...CHILD, token: '' });

    // The parent's plan, shown but not a way to billing.
    const chip = childPage.getByLabel('Plan: Enterprise');
    await chip.waitFor();
    expect(await childPage.getByRole('button', { name: /^Plan:/ }).count()).toBe(0);
    await chip.click();
    expect(new URL(childPage.url()).pathname).toBe('/');

    await childPage.getByRole('button', { name: 'Open the user menu' }).click();
    await childPage.getByRole('menuitem', { name: 'Account' }).waitFor();
    expect(await childPage.getByRole('menuitem', { name: 'Users' }).count()).toBe(0);
    expect(await childPage.getByRole('menuitem', { name: /Billing|Upgrade plan/ }).count()).toBe(0);
    await childPage.keyboard.press('Escape');

    await childPage.goto(`${app.url}/users`);
    await childPage.getByText('Users are managed by your account\'s administrator.', { exact: false }).waitFor();
    expect(await childPage.getByRole('tab', { name: 'Users' }).count()).toBe(0);
    expect(await childPage.getByRole('tab', { name: 'Billing' }).count()).toBe(0);
    expect(await childPage.getByRole('tab', { name: 'Senders' }).count()).toBe(1);
    expect(await childPage.getByRole('table').count()).toBe(0);
    await screenshot(childPage, 'users-2-child');
    expect(await seriousViolations(childPage)).toEqual([]);
  });

  it('the holder disables the child: a snackbar, the status, and the child\'s next request signs it out', async () => {
    const { page } = flow;
    await row().getByRole('button', { name: 'Disable Grace Hopper' }).click();
    await snackbar().getByText('Grace Hopper was disabled and signed out.').waitFor();
    await row().getByText('Disabled').waitFor();
    // A disabled user gets no reset link.
    expect(await row().getByRole('button', { name: 'Send Grace Hopper a password reset email' }).isDisabled()).toBe(true);

    // The child's next call is refused (its token and its refresh token): the app signs it out.
    await childPage.getByRole('tab', { name: 'Senders' }).click();
    await childPage.waitForURL(/\/login/);
    await childPage.locator('input[type=email]').fill(CHILD.email);
    await childPage.locator('input[type=password]').fill(CHILD.password);
    await childPage.locator('form button[type=submit]').click();
    await childPage.getByText('This account has been disabled. Please contact your administrator.').waitFor();
    expect(new URL(childPage.url()).pathname).toBe('/login');
    await screenshot(page, 'users-3-disabled');
  });

  it('the holder enables the child again, sends it a reset email, then deletes it after a confirmation', async () => {
    const { page } = flow;
    await row().getByRole('button', { name: 'Enable Grace Hopper' }).click();
    await snackbar().getByText('Grace Hopper was enabled.').waitFor();
    await row().getByText('Active').waitFor();

    await row().getByRole('button', { name: 'Send Grace Hopper a password reset email' }).click();
    await snackbar().getByText(`A password reset email was sent to ${CHILD.email}.`).waitFor();

    await row().getByRole('button', { name: 'Delete Grace Hopper' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete Grace Hopper?' });
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await snackbar().getByText('Grace Hopper was deleted.').waitFor();
    await page.getByRole('heading', { name: 'No users yet' }).waitFor();
    await expect.poll(() => page.getByTestId('seats').textContent()).toContain('1 of 5 users');
  });
});
