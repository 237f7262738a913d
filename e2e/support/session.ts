/**
 * The shared frame of the browser test files: one app (served as npm start serves it), one Chromium
 * and one account per file; a fresh browser context per test, closed after it, with a screenshot
 * of the page when the test failed.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { launchBrowser, newContext, screenshot, startApp, type RunningApp } from './app.ts';
import { createAccount, logIn, type Account } from './screens.ts';

/** Generous: these machines are shared, and a loaded one makes every step several times slower. */
export const UI_TIMEOUT = 30_000;
export const TEST_TIMEOUT = 180_000;

export interface BrowserSession {
  app: RunningApp;
  browser: Browser;
  account: Account;
  /** The current test's context, if it opened one. */
  context: BrowserContext | undefined;
  /** A page in a new context (the test's), with the UI timeout. */
  freshPage(): Promise<Page>;
  /** A fresh page signed in as the file's account. */
  signedInPage(): Promise<Page>;
}

/** Registers the hooks of a test file and returns what its tests use (filled in by beforeAll). */
export function browserSession(): BrowserSession {
  const session = {
    context: undefined,
    async freshPage() {
      // Chromium can die under load (it did once closing a page whose beforeunload question was
      // dismissed): the test it died in fails, and the next tests get a browser of their own.
      if (!session.browser.isConnected()) session.browser = await launchBrowser();
      session.context = await newContext(session.browser);
      const page = await session.context.newPage();
      page.setDefaultTimeout(UI_TIMEOUT);
      return page;
    },
    async signedInPage() {
      const page = await session.freshPage();
      await logIn(page, session.app, session.account);
      return page;
    },
  } as BrowserSession;

  beforeAll(async () => {
    [session.app, session.browser] = await Promise.all([startApp(), launchBrowser()]);
    session.account = await createAccount(session.app);
  });
  afterAll(async () => {
    await session.browser?.close();
    await session.app?.stop();
  });
  afterEach(async ({ task }) => {
    // A failed test leaves a picture of what the page showed.
    const page = session.context?.pages()[0];
    if (task.result?.state === 'fail' && page) await screenshot(page, `failed-${task.name.slice(0, 40).replace(/\W+/g, '-')}`).catch(() => undefined);
    await session.context?.close();
    session.context = undefined;
  });
  return session;
}
