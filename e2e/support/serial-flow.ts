/**
 * Steps that run in order on one page of the built app, as a person goes through a flow: one app, one
 * browser, one page for the whole file. Once a step fails, the later steps are skipped (they would
 * only fail again for the same reason, hiding the first failure) and the page is saved as a screenshot.
 */
import { afterAll, beforeAll, beforeEach, onTestFailed } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchBrowser, newContext, screenshot, startApp, type RunningApp } from './app.ts';

export interface SerialFlow {
  readonly app: RunningApp;
  readonly page: Page;
}

/** Registers the file's hooks; `app` and `page` are there from the first beforeAll on. */
export function serialFlow(options: {
  failureScreenshot: string;
  actionTimeoutMs: number;
  /** Settings of the app (peers the file starts first, such as a payment stand-in). */
  env?: () => Promise<Record<string, string>>;
  /** Runs once the app answers (a peer that must know the app's address). */
  onStarted?: (app: RunningApp) => void | Promise<void>;
}): SerialFlow {
  let app: RunningApp | undefined;
  let browser: Browser | undefined;
  let context: BrowserContext | undefined;
  let page: Page | undefined;
  let broken = false;

  beforeAll(async () => {
    const env = (await options.env?.()) ?? {};
    [app, browser] = await Promise.all([startApp(env), launchBrowser()]);
    await options.onStarted?.(app);
    context = await newContext(browser);
    page = await context.newPage();
    // The machine may be busy (builds, other suites): actions wait longer than Playwright's default.
    page.setDefaultTimeout(options.actionTimeoutMs);
  });

  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await app?.stop();
  });

  beforeEach((test) => {
    if (broken) test.skip();
    onTestFailed(async () => {
      broken = true;
      if (page) await screenshot(page, options.failureScreenshot);
    });
  });

  return {
    get app() {
      return app!;
    },
    get page() {
      return page!;
    },
  };
}
