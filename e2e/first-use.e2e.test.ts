/**
 * What new users met in the built app (issue 9), each checked the way a person sees it: leaving the
 * editor with unsaved changes, the wizard step in the address, the chosen rows kept with the
 * template, the page field following the pages, opening a template by its name, focus after Delete,
 * and a Chinese UI that shows Chinese without a CJK system font.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { browserSession, TEST_TIMEOUT } from './support/session.ts';
import { tempFile, xlsx } from './support/flows.ts';
import { addTemplate, createAccount, fixture, logIn, rememberLanguage, text, type Account } from './support/screens.ts';

const session = browserSession();
const { freshPage } = session;
const pathname = (page: Page) => new URL(page.url()).pathname;

/** A new account with a two-page template, signed in on a fresh page. */
async function withTemplate(): Promise<{ page: Page; account: Account; templateId: string }> {
  const account = await createAccount(session.app, 'Mary');
  const templateId = await addTemplate(session.app, account, fixture('corpus/classic-xref.pdf'));
  const page = await freshPage();
  await logIn(page, session.app, account);
  return { page, account, templateId };
}

const bar = (page: Page) => page.getByRole('navigation', { name: 'Wizard navigation' });
const editorTools = (page: Page) => page.getByRole('toolbar', { name: 'Editor tools' });
const sidebar = (page: Page) => page.getByRole('complementary', { name: 'Headings and placeholders' });
const placedCount = (page: Page) => sidebar(page).getByRole('list', { name: 'Placeholders' }).getByRole('button').count();

/** Opens the template's wizard and goes on to the editor (step 2). */
async function openEditor(page: Page, templateId: string): Promise<void> {
  await page.goto(`${session.app.url}/wizard/${templateId}`);
  await bar(page).getByRole('button', { name: 'Next' }).click();
  await editorTools(page).waitFor();
}

async function addByName(page: Page, column: string): Promise<void> {
  await sidebar(page).getByLabel('Column name').fill(column);
  await sidebar(page).getByRole('button', { name: 'Add placeholder' }).click();
  await page.getByRole('button', { name: `Placeholder ${column} on page 1` }).waitFor();
}

/** The placeholders the server holds for the template. */
async function savedColumns(account: Account, templateId: string): Promise<string[]> {
  const response = await fetch(`${session.app.url}/v1/templates/${templateId}`, { headers: { authorization: `Bearer ${account.token}` } });
  return ((await response.json()) as { placeholders: { column: string }[] }).placeholders.map((item) => item.column).sort();
}

describe('leaving the editor with unsaved changes', { timeout: TEST_TIMEOUT }, () => {
  it('"Go home" and a link ask first: stay keeps the edits, save keeps them on the server, discard drops them', async () => {
    const { page, account, templateId } = await withTemplate();
    await openEditor(page, templateId);
    await addByName(page, 'Name');
    await editorTools(page).getByRole('status').filter({ hasText: 'Unsaved changes' }).waitFor();

    const question = page.getByRole('dialog', { name: 'Save your changes?' });
    await bar(page).getByRole('button', { name: 'Go home' }).click();
    await question.waitFor();
    expect(pathname(page)).toBe(`/wizard/${templateId}`);
    await question.getByRole('button', { name: 'Stay' }).click();
    await question.waitFor({ state: 'detached' });
    expect(await placedCount(page)).toBe(1);

    await bar(page).getByRole('button', { name: 'Go home' }).click();
    await question.getByRole('button', { name: 'Save and leave' }).click();
    await page.waitForURL(`${session.app.url}/`);
    expect(await savedColumns(account, templateId)).toEqual(['Name']);

    // A link (the navbar's Home crumb), then leaving without saving: the server keeps what was saved.
    await openEditor(page, templateId);
    await addByName(page, 'City');
    await page.getByRole('navigation', { name: 'Breadcrumb' }).getByRole('link').first().click();
    await question.getByRole('button', { name: 'Leave without saving' }).click();
    await page.waitForURL(`${session.app.url}/`);
    expect(await savedColumns(account, templateId)).toEqual(['Name']);
    // Coming back shows what is saved, not the dropped edit.
    await openEditor(page, templateId);
    await page.getByRole('button', { name: 'Placeholder Name on page 1' }).waitFor();
    expect(await placedCount(page)).toBe(1);

    // The browser's Back goes to step 1 and saves on the way, as the wizard's Back does.
    await addByName(page, 'Zip');
    await page.goBack();
    // Step 2 has a Next button too: wait for step 1 itself, which shows once the save went through.
    await expect.poll(() => activeStep(page)).toContain('Template');
    await expect.poll(() => savedColumns(account, templateId)).toEqual(['Name', 'Zip']);
    // Back again leaves the wizard: nothing unsaved, so nothing is asked.
    await page.goBack();
    await page.waitForURL(`${session.app.url}/`);
    expect(await question.count()).toBe(0);
  });

  it('closing the tab with unsaved changes gets the browser\'s question', async () => {
    const { page, templateId } = await withTemplate();
    await openEditor(page, templateId);
    await addByName(page, 'Name');
    await editorTools(page).getByRole('status').filter({ hasText: 'Unsaved changes' }).waitFor();
    const asked = page.waitForEvent('dialog');
    await page.close({ runBeforeUnload: true });
    const dialog = await asked;
    expect(dialog.type()).toBe('beforeunload');
    await dialog.dismiss();
    // Staying keeps the page and its edits; then it is closed without asking, before its context is.
    await editorTools(page).getByRole('status').filter({ hasText: 'Unsaved changes' }).waitFor();
    await page.close();
  });
});

describe('the editor', { timeout: TEST_TIMEOUT }, () => {
  it('after Delete, keyboard focus stays in the editor and the next shortcut works', async () => {
    const { page, templateId } = await withTemplate();
    await openEditor(page, templateId);
    await addByName(page, 'Name');
    await page.getByRole('button', { name: 'Placeholder Name on page 1' }).click();
    await page.keyboard.press('Delete');
    await expect.poll(() => placedCount(page)).toBe(0);
    expect(await page.evaluate('document.activeElement?.id')).toBe('editor-pages');
    await page.keyboard.press('Control+z');
    await page.getByRole('button', { name: 'Placeholder Name on page 1' }).waitFor();
  });

  it('the page field follows the page shown while scrolling', async () => {
    const { page, templateId } = await withTemplate();
    await openEditor(page, templateId);
    const field = editorTools(page).getByLabel('Page', { exact: true });
    expect(await field.inputValue()).toBe('1');
    const pages = page.getByRole('region', { name: 'Template pages' });
    const scrollTop = () => page.evaluate(`document.getElementById('editor-pages').scrollTop`) as Promise<number>;
    await page.evaluate(`(() => { const pages = document.getElementById('editor-pages'); pages.scrollTop = pages.scrollHeight; })()`);
    await expect.poll(() => field.inputValue()).toBe('2');
    await page.evaluate(`document.getElementById('editor-pages').scrollTop = 0`);
    await expect.poll(() => field.inputValue()).toBe('1');

    // Jumping by the field, then scrolling back with the wheel (the field still has focus): it follows.
    await field.fill('2');
    await expect.poll(scrollTop).toBeGreaterThan(100);
    const box = (await pages.boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.wheel(0, -20_000);
    await expect.poll(scrollTop).toBe(0);
    await expect.poll(() => field.inputValue()).toBe('1');
  });
});

const stepOf = (page: Page) => new URL(page.url()).searchParams.get('step');
const activeStep = (page: Page) => page.getByRole('navigation', { name: 'Wizard navigation' }).page().locator('[aria-current="step"]').innerText();
const scrollY = (page: Page) => page.evaluate('window.scrollY') as Promise<number>;
/** A sheet long enough that step 3 scrolls. */
const LONG_SHEET = xlsx([['Name', 'City'], ...Array.from({ length: 40 }, (_, index) => [`Person ${index + 1}`, `City ${index + 1}`])]);

describe('the wizard step in the address', { timeout: TEST_TIMEOUT }, () => {
  it('a reload and Back/Forward keep the step; every step opens at its top', async () => {
    const { page, templateId } = await withTemplate();
    await openEditor(page, templateId);
    expect(stepOf(page)).toBe('2');
    await addByName(page, 'Name');
    await bar(page).getByRole('button', { name: 'Next' }).click();
    await page.getByRole('heading', { name: 'Spreadsheet', level: 1 }).waitFor();
    expect(stepOf(page)).toBe('3');

    await page.reload();
    await page.getByRole('heading', { name: 'Spreadsheet', level: 1 }).waitFor();
    expect(await activeStep(page)).toContain('Spreadsheet');
    expect(stepOf(page)).toBe('3');

    await page.goBack();
    await editorTools(page).waitFor();
    expect(stepOf(page)).toBe('2');
    // The editor saved on the way to step 3: the placeholder is still there.
    await page.getByRole('button', { name: 'Placeholder Name on page 1' }).waitFor();
    await page.goForward();
    await page.getByRole('heading', { name: 'Spreadsheet', level: 1 }).waitFor();
    expect(stepOf(page)).toBe('3');

    // A long step 3, scrolled to its bottom: step 4 still opens at the top.
    await page.getByLabel('Drop your spreadsheet here').setInputFiles(await tempFile('people.xlsx', LONG_SHEET));
    await page.getByTestId('current-spreadsheet').getByText('40 data rows').waitFor();
    await page.evaluate('window.scrollTo(0, document.body.scrollHeight)');
    await expect.poll(() => scrollY(page)).toBeGreaterThan(0);
    await bar(page).getByRole('button', { name: 'Next' }).click();
    await page.getByRole('heading', { name: 'Generate documents' }).waitFor();
    expect(stepOf(page)).toBe('4');
    await page.getByTestId('rows-to-generate').getByText('40 documents will be generated').waitFor();
    expect(await scrollY(page)).toBe(0);
  });
});

/** Waits for the template's output settings to be saved (the PATCH step 4 sends). */
const outputSaved = (page: Page, templateId: string) =>
  page.waitForResponse((response) => response.request().method() === 'PATCH' && response.url().endsWith(`/v1/templates/${templateId}`) && response.ok());

describe('the chosen rows', { timeout: TEST_TIMEOUT }, () => {
  it('a range or specific rows stay with the template: a reload and reopening it show them', async () => {
    const { page, templateId } = await withTemplate();
    await openEditor(page, templateId);
    await addByName(page, 'Name');
    await bar(page).getByRole('button', { name: 'Next' }).click();
    await page.getByLabel('Drop your spreadsheet here').setInputFiles(await tempFile('people.xlsx', LONG_SHEET));
    await page.getByTestId('current-spreadsheet').getByText('40 data rows').waitFor();
    await bar(page).getByRole('button', { name: 'Next' }).click();
    await page.getByRole('heading', { name: 'Generate documents' }).waitFor();
    const counted = (text: string) => page.getByTestId('rows-to-generate').getByText(text).waitFor();
    await counted('40 documents will be generated');

    let saved = outputSaved(page, templateId);
    await page.getByRole('radio', { name: 'A range of rows' }).check();
    await page.getByLabel('From row').fill('3');
    await page.getByLabel('To row').fill('5');
    await counted('3 documents will be generated');
    await saved;
    await page.reload();
    await page.getByRole('heading', { name: 'Generate documents' }).waitFor();
    await counted('3 documents will be generated');
    expect(await page.getByRole('radio', { name: 'A range of rows' }).isChecked()).toBe(true);
    expect(await page.getByLabel('From row').inputValue()).toBe('3');
    expect(await page.getByLabel('To row').inputValue()).toBe('5');

    saved = outputSaved(page, templateId);
    await page.getByRole('radio', { name: 'Specific rows' }).check();
    await page.getByLabel('Rows', { exact: true }).fill('2, 4, 6-8');
    await counted('5 documents will be generated');
    await saved;
    // Reopened from home: the template remembers the list.
    await page.goto(`${session.app.url}/`);
    await page.goto(`${session.app.url}/wizard/${templateId}?step=4`);
    await page.getByRole('heading', { name: 'Generate documents' }).waitFor();
    await counted('5 documents will be generated');
    expect(await page.getByLabel('Rows', { exact: true }).inputValue()).toBe('2, 4, 6-8');
  });
});

describe('home', { timeout: TEST_TIMEOUT }, () => {
  it('clicking a template\'s name opens it', async () => {
    const { page, templateId } = await withTemplate();
    await page.getByRole('article', { name: 'classic-xref.pdf' }).getByText('classic-xref.pdf', { exact: true }).click();
    // The wizard then writes its step into the address (?step=N): match the path, whatever the query.
    await page.waitForURL((url) => url.pathname === `/wizard/${templateId}`);
  });
});

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
