/**
 * Typing through an input method in the Word editor (issue 12, docs/word-templates.md#editing-in-the-browser),
 * in Chromium: a Pinyin composition driven through the DevTools protocol (the intermediate
 * romanisations, a key the input method takes, then the committed 你好) lands once at the caret in the
 * bold greeting and is one undo step; text inserted without keys (`keyboard.insertText`, as dictation
 * and on-screen keyboards do) lands at the caret inside the closing sentence, and keys still type
 * there; a click places the caret, and a composition over a selection replaces it; the saved DOCX
 * holds it all. Axe checks the editor. Screenshot: e2e/screenshots/word-ime.png.
 * The steps run in order on one page; once one fails, the later ones are skipped.
 */
import { strFromU8, unzipSync } from 'fflate';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { screenshot, type RunningApp } from './support/app.ts';
import { seriousViolations } from './support/axe.ts';
import { serialFlow } from './support/serial-flow.ts';
import { signUp, tempFile } from './support/flows.ts';
import { letterDocx } from './support/docx.ts';

const flow = serialFlow({ failureScreenshot: 'word-ime-failure', actionTimeoutMs: 60_000 });
let app: RunningApp;
let page: Page;

beforeAll(() => {
  ({ app, page } = flow);
});

const paragraphText = (index: number) => page.getByTestId('word-paragraph').nth(index).textContent();
const documentText = () => page.getByRole('textbox', { name: 'Document text' });
const saveState = (label: string) => page.getByTestId('word-save-state').getByText(label);

describe('typing through an input method in the Word editor', { timeout: 180_000 }, () => {
  it('opens an uploaded DOCX at step 2', async () => {
    await signUp(page, app.url);
    await page.getByRole('link', { name: 'Create mail merge' }).click();
    await page.getByLabel('Drop your PDF or Word template here').setInputFiles(await tempFile('Letter.docx', letterDocx('Dear Ada,')));
    await page.getByRole('heading', { name: 'Edit the Word document' }).waitFor();
    expect(await paragraphText(0)).toBe('Dear Ada,');
    await saveState('All changes saved').waitFor();
  });

  it('takes a Pinyin composition once, at the caret, only when it is committed, as one undo step', async () => {
    // The cursor before the greeting's comma.
    await documentText().focus();
    await page.keyboard.press('End');
    await page.keyboard.press('ArrowLeft');
    const cdp = await page.context().newCDPSession(page);
    for (const text of ['n', 'ni', 'nih', 'niha', 'nihao', '你好']) {
      await cdp.send('Input.imeSetComposition', { text, selectionStart: text.length, selectionEnd: text.length });
      // The browser shows what is being composed in place; the document is not changed by it.
      await expect.poll(() => paragraphText(0)).toBe(`Dear Ada${text},`);
    }
    // Enter pressed to pick a candidate reaches the page as keyCode 229: it is the input method's, not a new paragraph.
    await cdp.send('Input.dispatchKeyEvent', { type: 'rawKeyDown', key: 'Enter', code: 'Enter', windowsVirtualKeyCode: 229, nativeVirtualKeyCode: 229 });
    await cdp.send('Input.dispatchKeyEvent', { type: 'keyUp', key: 'Enter', code: 'Enter', windowsVirtualKeyCode: 229, nativeVirtualKeyCode: 229 });
    expect(await page.getByTestId('word-save-state').textContent()).toBe('All changes saved');
    await cdp.send('Input.insertText', { text: '你好' });
    await saveState('Unsaved changes').waitFor();
    await expect.poll(() => paragraphText(0)).toBe('Dear Ada你好,');
    expect(await page.getByTestId('word-paragraph').allTextContents()).toEqual(['Dear Ada你好,', 'Thank you for your order.']);
    await screenshot(page, 'word-ime');
    expect(await seriousViolations(page)).toEqual([]);

    // One undo takes the whole composition back; redo puts it in again.
    await documentText().focus();
    await page.keyboard.press('Control+z');
    await expect.poll(() => paragraphText(0)).toBe('Dear Ada,');
    await page.getByTestId('word-announcement').getByText('Undone.').waitFor();
    await page.keyboard.press('Control+y');
    await expect.poll(() => paragraphText(0)).toBe('Dear Ada你好,');
    await cdp.detach();
  });

  it('puts text inserted without keys (dictation, on-screen keyboards) at the caret inside a paragraph', async () => {
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Home');
    for (let index = 0; index < 'Thank you'.length; index++) await page.keyboard.press('ArrowRight');
    await page.keyboard.insertText('你好世界');
    await expect.poll(() => paragraphText(1)).toBe('Thank you你好世界 for your order.');
    expect(await paragraphText(0)).toBe('Dear Ada你好,');
    // Keys type as before (they too come as input now), a space beside a space included.
    await page.keyboard.type(', all ');
    await expect.poll(() => paragraphText(1)).toBe('Thank you你好世界, all  for your order.');
  });

  it('places the caret with a click, and a composition replaces the selected text', async () => {
    // A click right of the greeting's end puts the caret there.
    const greeting = page.getByTestId('word-paragraph').nth(0);
    const box = (await greeting.boundingBox())!;
    await greeting.click({ position: { x: box.width - 4, y: box.height / 2 } });
    await page.keyboard.insertText('!');
    await expect.poll(() => paragraphText(0)).toBe('Dear Ada你好,!');
    // Shift selects "order." at the closing sentence's end; the committed composition takes its place.
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('End');
    for (let index = 0; index < 'order.'.length; index++) await page.keyboard.press('Shift+ArrowLeft');
    await expect.poll(() => page.locator('[data-selected]').allTextContents()).toEqual(['order.']);
    const cdp = await page.context().newCDPSession(page);
    for (const text of ['d', 'ding', 'dingdan', '订单']) await cdp.send('Input.imeSetComposition', { text, selectionStart: text.length, selectionEnd: text.length });
    await cdp.send('Input.insertText', { text: '订单。' });
    await expect.poll(() => paragraphText(1)).toBe('Thank you你好世界, all  for your 订单。');
    await page.locator('[data-selected]').first().waitFor({ state: 'detached' });
    await cdp.detach();
  });

  it('saves the DOCX with the composed and inserted text, the greeting\'s in its bold run', async () => {
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await saveState('All changes saved').waitFor();
    const id = /\/wizard\/([A-Za-z0-9]{20})/.exec(page.url())![1]!;
    // The page's session token (a string: this project compiles without the DOM's types).
    const token = (await page.evaluate("localStorage.getItem('sheaf.token')")) as string;
    const response = await fetch(`${app.url}/v1/templates/${id}/download`, { headers: { Authorization: `Bearer ${token}` } });
    expect(response.status).toBe(200);
    const xml = strFromU8(unzipSync(new Uint8Array(await response.arrayBuffer()))['word/document.xml']!);
    expect(xml.replace(/<[^>]+>/g, '').trim()).toBe('Dear Ada你好,!Thank you你好世界, all  for your 订单。');
    expect(xml).toMatch(/<w:r>(?:(?!<\/w:r>).)*<w:b\/>(?:(?!<\/w:r>).)*>Dear Ada你好,!</);
  });
});
