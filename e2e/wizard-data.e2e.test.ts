/**
 * The wizard's server state in the browser: the template lives in the query cache, so a change the
 * server answers (a new header row) shows in the editor and at step 3 without a reload, the editor's
 * preview renders the pages, and the counter chip follows a merge.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { browserSession, TEST_TIMEOUT } from './support/session.ts';
import { xlsx } from './support/flows.ts';
import { addTemplate, createAccount, fixture, logIn } from './support/screens.ts';

const session = browserSession();
const bar = (page: Page) => page.getByRole('navigation', { name: 'Wizard navigation' });
const SHEET = xlsx([['Name', 'City'], ['Ada', 'London'], ['Grace', 'Arlington'], ['Alan', 'Wilmslow']]);

describe('the wizard reads its template from the query cache', { timeout: TEST_TIMEOUT }, () => {
  it('a new header row shows in the editor and at step 3 at once; the preview renders; the counter follows the merge', async () => {
    const account = await createAccount(session.app, 'Edith');
    const templateId = await addTemplate(session.app, account, fixture('corpus/classic-xref.pdf'));
    const form = new FormData();
    form.append('file', new Blob([SHEET]), 'people.xlsx');
    const uploaded = await fetch(`${session.app.url}/v1/templates/${templateId}/excel`, { method: 'POST', headers: { authorization: `Bearer ${account.token}` }, body: form });
    expect(uploaded.ok, await uploaded.text()).toBe(true);
    const page = await session.freshPage();
    await logIn(page, session.app, account);

    await page.goto(`${session.app.url}/wizard/${templateId}?step=2`);
    const sidebar = page.getByRole('complementary', { name: 'Headings and placeholders' });
    await sidebar.getByRole('button', { name: 'Add placeholder for Name' }).waitFor();

    // Row 2 holds the headings now: the editor lists that row's values as its headings at once.
    const tools = page.getByRole('toolbar', { name: 'Editor tools' });
    await tools.getByRole('button', { name: 'Change header row' }).click();
    await page.getByRole('dialog').getByLabel('Header row').fill('2');
    await page.getByRole('dialog').getByRole('button', { name: 'Apply' }).click();
    await sidebar.getByRole('button', { name: 'Add placeholder for Ada' }).click();
    await page.getByRole('button', { name: 'Placeholder Ada on page 1' }).waitFor();
    await expect.poll(() => sidebar.getByRole('button', { name: 'Add placeholder for Name' }).count()).toBe(0);

    // The preview fills the placeholders with the first rows and shows the pages as pictures.
    await tools.getByRole('button', { name: 'Preview' }).click();
    await page.getByRole('dialog').getByRole('img', { name: 'Preview page 1' }).waitFor({ timeout: 60_000 });
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'detached' });

    // Step 3 counts the rows under the new heading row, without a reload.
    await bar(page).getByRole('button', { name: 'Next' }).click();
    await page.getByTestId('current-spreadsheet').getByText('2 data rows').waitFor();

    const counter = page.getByLabel('Documents generated this period');
    await counter.getByText('0 / 100').waitFor();
    await bar(page).getByRole('button', { name: 'Next' }).click();
    await page.getByRole('button', { name: 'Generate 2 documents' }).click();
    await page.getByTestId('merge-completed').waitFor({ timeout: 90_000 });
    await counter.getByText('2 / 100').waitFor();
  });

  it('the counter follows a merge that ends while the user is back home, without a reload', async () => {
    const account = await createAccount(session.app, 'Mary');
    const templateId = await addTemplate(session.app, account, fixture('corpus/classic-xref.pdf'));
    const form = new FormData();
    // The whole Free quota: long enough to be still running when home shows.
    form.append('file', new Blob([xlsx([['Name'], ...Array.from({ length: 100 }, (_, index) => [`Person ${index + 1}`])])]), 'many.xlsx');
    const uploaded = await fetch(`${session.app.url}/v1/templates/${templateId}/excel`, { method: 'POST', headers: { authorization: `Bearer ${account.token}` }, body: form });
    expect(uploaded.ok, await uploaded.text()).toBe(true);
    const page = await session.freshPage();
    await logIn(page, session.app, account);
    const counter = page.getByLabel('Documents generated this period');
    await counter.getByText('0 / 100').waitFor();

    await page.goto(`${session.app.url}/wizard/${templateId}?step=2`);
    await page.getByRole('complementary', { name: 'Headings and placeholders' }).getByRole('button', { name: 'Add placeholder for Name' }).click();
    await bar(page).getByRole('button', { name: 'Next' }).click();
    await page.getByTestId('current-spreadsheet').getByText('100 data rows').waitFor();
    await bar(page).getByRole('button', { name: 'Next' }).click();
    await page.getByRole('button', { name: 'Generate 100 documents' }).click();
    // The merge has started (it may even have ended on a fast machine).
    await page.getByTestId('merge-progress').or(page.getByTestId('merge-completed')).waitFor();
    // Home while the documents are made: the library follows the merge, and the counter its end.
    await page.getByRole('link', { name: 'Sheaf home' }).click();
    await page.getByRole('heading', { name: 'Templates' }).waitFor();
    await counter.getByText('100 / 100').waitFor({ timeout: 120_000 });
  });
});
