/**
 * Accessibility: no serious or critical axe-core violation of WCAG 2.1 A and AA on any screen,
 * signed out (login, register, reset password, not found) and signed in (home as grid and list,
 * each wizard step and its dialogs, account, senders and the add-sender dialog, email report, help).
 * The mailing's report and the email report page with messages are checked in email.e2e.test.ts.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { browserSession, TEST_TIMEOUT } from './support/session.ts';
import { tempFile, xlsx } from './support/flows.ts';
import { seriousViolations } from './support/axe.ts';
import { addTemplate, createAccount, fixture, logIn } from './support/screens.ts';

const session = browserSession();
const { freshPage } = session;

/** Checks the screen and records what it found under its name (all screens are checked, then compared). */
async function check(found: Record<string, string[]>, name: string, page: Page): Promise<void> {
  const list = await seriousViolations(page);
  if (list.length > 0) found[name] = list;
}

const bar = (page: Page) => page.getByRole('navigation', { name: 'Wizard navigation' });
const SHEET = xlsx([['Name', 'City'], ['Ada', 'London'], ['Grace', 'Arlington'], ['Alan', 'Wilmslow']]);

describe('accessibility', { timeout: TEST_TIMEOUT * 2 }, () => {
  it('signed out: login, register, reset password and not found', async () => {
    const page = await freshPage();
    const found: Record<string, string[]> = {};
    await page.goto(`${session.app.url}/login`);
    await page.getByRole('heading', { level: 1 }).waitFor();
    await check(found, 'login', page);
    await page.goto(`${session.app.url}/register`);
    await page.getByRole('button', { name: 'Register' }).waitFor();
    await check(found, 'register', page);
    await page.goto(`${session.app.url}/resetPassword`);
    await page.getByRole('heading', { level: 1 }).waitFor();
    await check(found, 'reset password', page);
    await page.goto(`${session.app.url}/no/such/page`);
    await page.getByRole('heading', { level: 1 }).waitFor();
    await check(found, 'not found', page);
    expect(found).toEqual({});
  });

  it('signed in: home, account, senders, email report, help', async () => {
    const account = await createAccount(session.app, 'Alice');
    await addTemplate(session.app, account, fixture('corpus/classic-xref.pdf'));
    const page = await freshPage();
    await logIn(page, session.app, account);
    const found: Record<string, string[]> = {};
    await page.getByRole('article', { name: 'classic-xref.pdf' }).waitFor();
    await check(found, 'home grid', page);
    await page.getByRole('button', { name: 'List' }).click();
    await page.getByRole('button', { name: 'List', pressed: true }).waitFor();
    await check(found, 'home list', page);

    // The template's menu and the dialogs it opens.
    const menuOf = () => page.getByRole('button', { name: 'Actions for classic-xref.pdf' });
    const closeDialog = async () => {
      await page.keyboard.press('Escape');
      await page.getByRole('dialog').waitFor({ state: 'detached' });
    };
    await menuOf().click();
    await page.getByRole('menu').waitFor();
    // The browser asks for reduced motion (support/app.ts): the menu stands in place at once, no growing.
    expect(await page.evaluate(`getComputedStyle(document.querySelector('[role=menu]').closest('.MuiPopover-paper')).transitionDuration`)).toBe('0s');
    await check(found, 'template menu', page);
    await page.keyboard.press('Escape');
    for (const [item, name] of [['Rename', 'rename dialog'], ['Share to another user', 'share dialog'], ['Delete', 'delete question']] as const) {
      await page.getByRole('menu').waitFor({ state: 'detached' });
      await menuOf().click();
      await page.getByRole('menuitem', { name: item, exact: true }).click();
      await page.getByRole('dialog').waitFor();
      await check(found, name, page);
      await closeDialog();
    }
    await menuOf().click();
    await page.getByRole('menuitem', { name: 'Show history' }).click();
    await page.getByRole('menu').waitFor({ state: 'detached' });
    await check(found, 'history panel', page);

    await page.getByRole('button', { name: 'Open the user menu' }).click();
    await page.getByRole('menu').waitFor();
    await check(found, 'user menu', page);
    await page.getByRole('menuitem', { name: 'Suggest improvement' }).click();
    await page.getByRole('dialog').waitFor();
    await check(found, 'suggest improvement', page);
    await closeDialog();

    for (const [path, name] of [['/account', 'account'], ['/senders', 'senders'], ['/email-report', 'email report'], ['/help', 'help'], ['/no/such/page', 'not found signed in']] as const) {
      await page.goto(`${session.app.url}${path}`);
      await page.getByRole('heading', { level: 1 }).first().waitFor();
      await check(found, name, page);
    }
    await page.goto(`${session.app.url}/senders`);
    await page.getByRole('button', { name: 'Add sender' }).first().click();
    await page.getByRole('dialog').waitFor();
    await check(found, 'add sender', page);
    expect(found).toEqual({});
  });

  it('signed in: each wizard step and its dialogs', async () => {
    const account = await createAccount(session.app, 'Barbara');
    const other = await addTemplate(session.app, account, fixture('corpus/classic-xref.pdf'));
    const templateId = await addTemplate(session.app, account, fixture('corpus/contents-array.pdf'));
    // Another template with a spreadsheet, for "choose from another template".
    const form = new FormData();
    form.append('file', new Blob([SHEET]), 'people.xlsx');
    const uploaded = await fetch(`${session.app.url}/v1/templates/${other}/excel`, { method: 'POST', headers: { authorization: `Bearer ${account.token}` }, body: form });
    expect(uploaded.ok, await uploaded.text()).toBe(true);
    const page = await freshPage();
    await logIn(page, session.app, account);
    const found: Record<string, string[]> = {};

    await page.goto(`${session.app.url}/wizard/new`);
    await page.getByLabel('Drop your PDF or Word template here').waitFor({ state: 'attached' });
    await check(found, 'step 1 (new)', page);
    await page.goto(`${session.app.url}/wizard/${templateId}`);
    await bar(page).getByRole('button', { name: 'Next' }).waitFor();
    await check(found, 'step 1', page);

    await bar(page).getByRole('button', { name: 'Next' }).click();
    const sidebar = page.getByRole('complementary', { name: 'Headings and placeholders' });
    await sidebar.getByLabel('Column name').fill('Name');
    await sidebar.getByRole('button', { name: 'Add placeholder' }).click();
    await page.getByRole('button', { name: 'Placeholder Name on page 1' }).click();
    await check(found, 'step 2 (editor, a placeholder selected)', page);

    await bar(page).getByRole('button', { name: 'Next' }).click();
    await page.getByRole('heading', { name: 'Spreadsheet', level: 1 }).waitFor();
    await check(found, 'step 3', page);
    await page.getByRole('button', { name: 'Choose from another template' }).click();
    await page.getByRole('dialog').waitFor();
    await check(found, 'choose spreadsheet', page);
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    await page.getByLabel('Drop your spreadsheet here').setInputFiles(await tempFile('people.xlsx', SHEET));
    await page.getByTestId('current-spreadsheet').getByText('3 data rows').waitFor();
    await check(found, 'step 3 (a spreadsheet)', page);

    // Back in the editor with the spreadsheet: its headings, the preview and the header row dialogs.
    await bar(page).getByRole('button', { name: 'Back' }).click();
    const tools = page.getByRole('toolbar', { name: 'Editor tools' });
    await tools.waitFor();
    await sidebar.getByRole('button', { name: 'Add placeholder for City' }).waitFor();
    await check(found, 'step 2 (headings)', page);
    await tools.getByRole('button', { name: 'Preview' }).click();
    // The preview as the user waits for it: its first page, or an error (named, so a failure says which).
    const preview = page.getByRole('dialog');
    await preview.getByRole('img', { name: 'Preview page 1' }).or(preview.getByRole('alert')).first().waitFor();
    expect(await preview.getByRole('alert').allInnerTexts()).toEqual([]);
    await check(found, 'preview', page);
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    await tools.getByRole('button', { name: 'Change header row' }).click();
    await page.getByRole('dialog').waitFor();
    await check(found, 'header row', page);
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'detached' });

    await page.goto(`${session.app.url}/wizard/${templateId}?step=4`);
    await page.getByRole('heading', { name: 'Generate documents' }).waitFor();
    await check(found, 'step 4', page);
    await page.getByRole('button', { name: 'Generate 3 documents' }).click();
    await page.getByTestId('merge-completed').waitFor({ timeout: 90_000 });
    await check(found, 'step 4 (completed)', page);
    expect(found).toEqual({});
  });
});
