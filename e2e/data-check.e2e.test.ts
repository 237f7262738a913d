/**
 * The data check in the browser (docs/data-check.md#the-dialog): step 3's "Check data" on a sheet with
 * planted problems shows a skeleton until the first issue, then the issues; they filter by column and
 * kind, link to their row, download as CSV and XLSX (with the warning); the flagged rows are excluded
 * in one click and step 4 shows the selection and how many flagged rows it still makes. Axe on the dialog.
 */
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { read, utils } from '@e965/xlsx';
import { saveDownload, tempFile, xlsx, type Cell } from './support/flows.ts';
import { seriousViolations } from './support/axe.ts';
import { addTemplate, createAccount, fixture, logIn, type Account } from './support/screens.ts';
import { serialFlow } from './support/serial-flow.ts';
import { screenshot } from './support/app.ts';
import { TEST_TIMEOUT, UI_TIMEOUT } from './support/session.ts';

const flow = serialFlow({ failureScreenshot: 'data-check-failure', actionTimeoutMs: UI_TIMEOUT });

/** 30 people (columns of one type each: 28 numbers of 30 make the Amount a number column); rows 3, 5, 7, 9, 11 and 13 (as the spreadsheet numbers them) carry one planted problem each. */
function sheet(): Cell[][] {
  const rows: Cell[][] = [['Name', 'Email', 'Amount', 'City']];
  for (let index = 0; index < 30; index++) rows.push([`Person ${index + 1}`, `person${index + 1}@example.com`, 100 + index, 'London']);
  const at = (row: number) => rows[row - 1]!;
  at(3)[0] = ''; // the Name placeholder has no value
  at(5)[1] = 'person4(at)example.com'; // not an email address, in a column of them
  at(7)[2] = '12O'; // a number with a stray letter
  at(9)[0] = '  Person 8  '; // spaces at both ends
  at(11)[3] = 'Lon\u200Bdon'; // an invisible character
  at(13)[2] = 'unknown'; // text in a column of numbers
  return rows;
}
const FLAGGED = [3, 5, 7, 9, 11, 13];

let account: Account;
let templateId: string;

const dialog = () => flow.page.getByRole('dialog', { name: 'Data check' });
const bar = () => flow.page.getByRole('navigation', { name: 'Wizard navigation' });
/** The row numbers the grid shows, in order. */
const shownRows = async () => (await dialog().getByRole('button', { name: /^Show row \d+$/ }).allTextContents()).map(Number);

describe('the data check in the browser', { timeout: TEST_TIMEOUT }, () => {
  it('checks the uploaded sheet: a skeleton until the first issue, then every planted problem at its row', async () => {
    const { app, page } = flow;
    account = await createAccount(app, 'Grace');
    templateId = await addTemplate(app, account, fixture('corpus/classic-xref.pdf'));
    const placeholders = [{
      id: 'name', type: 'text', column: 'Name', pageNumber: 1, relativeX: 0.1, relativeY: 0.1, relativeWidth: 0.5, relativeHeight: 0.05,
      relativeFontSize: 0.02, fontFamily: 'Helvetica', fontStyle: 'normal', align: 'left', textDecoration: 'none', fill: '#000000', typeSettings: {},
    }];
    const saved = await fetch(`${app.url}/v1/templates/${templateId}/placeholders`, {
      method: 'PATCH', headers: { authorization: `Bearer ${account.token}`, 'content-type': 'application/json' }, body: JSON.stringify({ placeholders }),
    });
    expect(saved.status, await saved.clone().text()).toBe(200);
    await logIn(page, app, account);
    await page.goto(`${app.url}/wizard/${templateId}?step=3`);
    await page.getByLabel('Drop your spreadsheet here').setInputFiles(await tempFile('people.xlsx', xlsx(sheet())));
    await page.getByTestId('current-spreadsheet').getByText('30 data rows').waitFor();

    // The answer is held until the skeleton has been seen (the check itself takes milliseconds).
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/verifyExcelData/stream', async (route) => {
      await held;
      await route.continue();
    });
    await page.getByRole('button', { name: 'Check data' }).click();
    await dialog().locator('.MuiDataGrid-rowSkeleton').first().waitFor();
    expect(await dialog().locator('[aria-busy="true"]').count()).toBe(1);
    await dialog().getByText('Checking 30 rows…').waitFor();
    release();

    await dialog().getByTestId('data-check-summary').getByText(/ issues? in 6 rows$/).waitFor();
    expect(await dialog().locator('.MuiDataGrid-rowSkeleton').count()).toBe(0);
    await page.unroute('**/verifyExcelData/stream');
    expect([...new Set(await shownRows())]).toEqual(FLAGGED);
    // The problem reads in words, with the placeholder it concerns.
    await dialog().getByText('needs a value, but this row has none.').first().waitFor();
    await screenshot(page, 'data-check-1-dialog');
  });

  it('passes axe with the issues shown', async () => {
    expect(await seriousViolations(flow.page)).toEqual([]);
  });

  it('filters by column and by kind', async () => {
    const { page } = flow;
    await dialog().getByRole('combobox', { name: 'Column' }).click();
    await page.getByRole('option', { name: /^Email \(\d+\)$/ }).click();
    await expect.poll(shownRows).toEqual([5]);
    await dialog().getByRole('combobox', { name: 'Column' }).click();
    await page.getByRole('option', { name: 'All columns' }).click();
    await expect.poll(async () => new Set(await shownRows()).size).toBe(6);

    await dialog().getByRole('combobox', { name: 'Kind of problem' }).click();
    await page.getByRole('option', { name: /^Stray characters \(\d+\)$/ }).click();
    await expect.poll(async () => [...new Set(await shownRows())]).toEqual(expect.arrayContaining([9, 11]));
    expect((await shownRows()).every((row) => FLAGGED.includes(row))).toBe(true);
    await dialog().getByRole('combobox', { name: 'Kind of problem' }).click();
    await page.getByRole('option', { name: 'All kinds' }).click();
    await expect.poll(async () => new Set(await shownRows()).size).toBe(6);
  });

  it('links an issue to its row: the row\'s values with the flagged cell marked', async () => {
    const { page } = flow;
    await dialog().getByRole('button', { name: 'Show row 11' }).first().click();
    const row = page.getByRole('dialog', { name: 'Row 11' });
    const table = row.getByRole('table', { name: 'Values of row 11' });
    await table.waitFor();
    const city = table.getByRole('row', { name: /^City/ });
    await city.getByText('Lon⟨U+200B⟩don').waitFor();
    await city.getByText('Flagged').waitFor();
    expect(await table.getByRole('row', { name: /^Email/ }).getByText('Flagged').count()).toBe(0);
    expect(await seriousViolations(page)).toEqual([]);
    await row.getByRole('button', { name: 'Close' }).click();
    await row.waitFor({ state: 'detached' });
  });

  it('downloads the results as CSV and XLSX, with the warning that they hold the sheet\'s data', async () => {
    const { page } = flow;
    await dialog().getByTestId('data-check-download-warning').getByText('contains values from your spreadsheet people.xlsx').waitFor();
    const [csvDownload] = await Promise.all([page.waitForEvent('download'), dialog().getByRole('button', { name: 'Download CSV' }).click()]);
    expect(csvDownload.suggestedFilename()).toMatch(/^data-check-people-\d{4}-\d{2}-\d{2}\.csv$/);
    const csv = await readFile(await saveDownload(csvDownload), 'utf8');
    const lines = csv.replace(/^\uFEFF/, '').trim().split('\r\n');
    expect(lines[0]).toBe('Row,Column,Kind,Problem,Value,Suggestion');
    const csvRows = lines.slice(1).map((line) => Number(line.split(',')[0]));
    expect([...new Set(csvRows)]).toEqual(FLAGGED);
    expect(lines.find((line) => line.startsWith('5,Email,'))).toContain('person4(at)example.com');

    const [xlsxDownload] = await Promise.all([page.waitForEvent('download'), dialog().getByRole('button', { name: 'Download XLSX' }).click()]);
    expect(xlsxDownload.suggestedFilename()).toMatch(/\.xlsx$/);
    const workbook = read(await readFile(await saveDownload(xlsxDownload)), { type: 'buffer' });
    const table = utils.sheet_to_json<(string | number)[]>(workbook.Sheets[workbook.SheetNames[0]!]!, { header: 1 });
    expect(table[0]).toEqual(['Row', 'Column', 'Kind', 'Problem', 'Value', 'Suggestion']);
    expect(table.length).toBe(lines.length);
    expect(table.find((cells) => cells[0] === 11)?.[4]).toBe('Lon\u200Bdon');
  });

  it('excludes the flagged rows in one click; step 4 shows the selection and the flagged count', async () => {
    const { page } = flow;
    await dialog().getByRole('button', { name: 'Exclude 6 flagged rows' }).click();
    await dialog().waitFor({ state: 'detached' });
    await page.getByText('6 flagged rows excluded. Rows left to generate: 24.').waitFor();

    await bar().getByRole('button', { name: 'Next' }).click();
    await page.getByRole('radio', { name: 'Specific rows' }).and(page.locator(':checked')).waitFor();
    expect(await page.getByLabel('Rows', { exact: true }).inputValue()).toBe('2, 4, 6, 8, 10, 12, 14-31');
    await page.getByTestId('rows-to-generate').getByText('24 documents will be generated').waitFor();
    await page.getByTestId('flagged-rows').getByText('None of the 6 flagged rows is among the rows to generate.').waitFor();
    await page.getByRole('button', { name: 'Generate 24 documents' }).waitFor();

    // Back to every row: step 4 says how many of them were flagged, before Generate.
    await page.getByRole('radio', { name: /^All rows/ }).check();
    await page.getByTestId('flagged-rows').getByText('6 of the rows to generate were flagged by the data check.').waitFor();
    await screenshot(page, 'data-check-2-step4');
    expect(await seriousViolations(page)).toEqual([]);

    // The check opens again from step 4.
    await page.getByTestId('flagged-rows').getByRole('button', { name: 'Open the data check' }).click();
    await dialog().getByTestId('data-check-summary').getByText(/ in 6 rows$/).waitFor();
    await dialog().getByRole('button', { name: 'Go on anyway' }).click();
    await dialog().waitFor({ state: 'detached' });
  });
});
