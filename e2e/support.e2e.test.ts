/**
 * Help and support in the browser (docs/support.md): /help's support request passes axe, shows exactly
 * the recent errors it would attach (a failed call with its request id), sends them only when ticked,
 * and confirms with a reference; the operator's mail (SUPPORT_EMAIL, in the outbox) carries them.
 * "Suggest improvement" in the user menu sends the same form with its own topic.
 */
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { simpleParser } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readOutbox, readOutboxMail } from '../apps/server/src/adapters/mail/outbox.ts';
import { launchBrowser, newContext, startApp, type RunningApp } from './support/app.ts';
import { seriousViolations } from './support/axe.ts';
import { createAccount, logIn, type Account } from './support/screens.ts';
import { TEST_TIMEOUT, UI_TIMEOUT } from './support/session.ts';

const OPERATOR = 'helpdesk@operator.example';

/** The operator's mails in the app's outbox, parsed. */
async function operatorMails(app: RunningApp) {
  const dir = path.join(app.dataDir, 'outbox');
  const mails = [];
  for (const entry of await readOutbox(dir)) if (entry.to === OPERATOR) mails.push(await simpleParser(await readOutboxMail(dir, entry)));
  return mails;
}

async function waitFor<T>(read: () => Promise<T | undefined>, what: string): Promise<T> {
  const until = Date.now() + UI_TIMEOUT;
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('help and support', { timeout: TEST_TIMEOUT }, () => {
  let app: RunningApp;
  let browser: Browser;
  let account: Account;
  beforeAll(async () => {
    [app, browser] = await Promise.all([startApp({ SUPPORT_EMAIL: OPERATOR }), launchBrowser()]);
    account = await createAccount(app);
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
  });

  it('sends a request with the recent errors the user saw and agreed to, and shows its reference', async () => {
    const context = await newContext(browser);
    try {
      const page = await context.newPage();
      page.setDefaultTimeout(UI_TIMEOUT);
      await logIn(page, app, account);
      // A template that does not exist: the call fails with 404 and the app goes home.
      const failed = page.waitForResponse((response) => response.url().includes('/v1/templates/') && response.status() === 404);
      await page.goto(`${app.url}/wizard/AAAAAAAAAAAAAAAAAAAA`);
      const requestId = (await (await failed).headerValue('x-request-id'))!;
      expect(requestId).toBeTruthy();
      await page.waitForURL(`${app.url}/`);

      // A new page load (as the error screen's links make): the tab still has its recent errors.
      await page.goto(`${app.url}/help`);
      await page.getByRole('heading', { name: 'Send us a request' }).waitFor();
      expect(await seriousViolations(page)).toEqual([]);

      await page.getByRole('button', { name: 'Show what will be sent' }).click();
      const preview = page.getByLabel('Show what will be sent', { exact: true }).and(page.locator('pre'));
      await expect.poll(() => preview.textContent()).toContain(requestId);
      expect(await preview.textContent()).toContain('template/not-found');
      expect(await seriousViolations(page)).toEqual([]);

      await page.getByLabel('Subject').fill('The wizard sent me home');
      await page.getByLabel('Message').fill('I opened a template link and came back to the home page.');
      await page.getByLabel('Attach details of recent errors').check();
      await page.getByRole('button', { name: 'Send', exact: true }).click();
      const confirmation = page.getByRole('status').filter({ hasText: 'reference' });
      await confirmation.waitFor();
      const reference = /SUP-[0-9A-Z]{6}/.exec((await confirmation.textContent()) ?? '')?.[0];
      expect(reference).toBeTruthy();

      const mail = await waitFor(async () => (await operatorMails(app)).find((item) => item.subject?.includes(reference!)), 'the operator mail');
      expect(mail.text).toContain(requestId);
      expect(mail.text).toContain('template/not-found');
      expect(mail.replyTo?.text).toBe(account.email);
    } finally {
      await context.close();
    }
  });

  it('"Suggest improvement" sends the same form as a suggestion, without error details unless ticked', async () => {
    const context = await newContext(browser);
    try {
      const page = await context.newPage();
      page.setDefaultTimeout(UI_TIMEOUT);
      await logIn(page, app, account);
      await page.getByRole('button', { name: 'Open the user menu' }).click();
      await page.getByRole('menuitem', { name: 'Suggest improvement' }).click();
      const dialog = page.getByRole('dialog');
      await dialog.waitFor();
      expect(await seriousViolations(page)).toEqual([]);
      await dialog.getByLabel('Subject').fill('Dark mode');
      await dialog.getByLabel('Message').fill('Please add a dark mode.');
      await dialog.getByRole('button', { name: 'Send', exact: true }).click();
      const confirmation = dialog.getByRole('status');
      await confirmation.waitFor();
      const reference = /SUP-[0-9A-Z]{6}/.exec((await confirmation.textContent()) ?? '')?.[0];
      expect(reference).toBeTruthy();
      await dialog.getByRole('button', { name: 'Close' }).click();
      await dialog.waitFor({ state: 'detached' });
      const mail = await waitFor(async () => (await operatorMails(app)).find((item) => item.subject?.includes(reference!)), 'the suggestion mail');
      expect(mail.subject).toContain('Suggestion: Dark mode');
      expect(mail.text).toContain('did not send details of recent errors');
    } finally {
      await context.close();
    }
  });
});
