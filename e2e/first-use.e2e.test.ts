/**
 * What new users met in the built app (issue 9), each checked the way a person sees it: leaving the
 * editor with unsaved changes, the wizard step in the address, the chosen rows kept with the
 * template, the page field following the pages, opening a template by its name, focus after Delete,
 * and a Chinese UI that shows Chinese without a CJK system font.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { browserSession, TEST_TIMEOUT } from './support/session.ts';
import { rememberLanguage, text } from './support/screens.ts';

const session = browserSession();
const { freshPage } = session;

/** The Noto Sans SC faces the page has declared, and how many of them the browser has loaded. */
async function notoFaces(page: Page): Promise<{ declared: number; loaded: number }> {
  return page.evaluate(`(() => {
    const faces = [...document.fonts].filter((face) => face.family.replace(/["']/g, '') === 'Noto Sans SC');
    return { declared: faces.length, loaded: faces.filter((face) => face.status === 'loaded').length };
  })()`);
}

describe('the Chinese web font', { timeout: TEST_TIMEOUT }, () => {
  it('a Chinese UI loads Noto Sans SC for the characters it shows; an English one never declares it', async () => {
    const page = await freshPage();
    const fontRequests: string[] = [];
    page.on('request', (request) => {
      if (/noto-sans-sc/.test(request.url())) fontRequests.push(request.url());
    });
    await page.goto(`${session.app.url}/login`);
    await page.getByRole('heading', { name: await text('en', 'auth', 'login.title') }).waitFor();
    await page.evaluate('document.fonts.ready');
    expect(await notoFaces(page)).toEqual({ declared: 0, loaded: 0 });
    expect(fontRequests).toEqual([]);

    await rememberLanguage(page, 'zh');
    await page.reload();
    await page.getByRole('heading', { name: await text('zh', 'auth', 'login.title') }).waitFor();
    await expect.poll(async () => (await notoFaces(page)).loaded, { timeout: 30_000 }).toBeGreaterThan(0);
    // Only the chunks of the characters on screen are fetched, not the whole font.
    const { declared, loaded } = await notoFaces(page);
    expect(loaded).toBeLessThan(declared);
    expect(fontRequests.length).toBeGreaterThan(0);
    // The page's font stack names it, so the browser draws the CJK characters with it.
    expect(await page.evaluate('getComputedStyle(document.body).fontFamily')).toContain('Noto Sans SC');
  });
});
