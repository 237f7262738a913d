/**
 * The main merge flow as a person goes through it in the built app: sign up, create a mail merge,
 * upload a PDF, place three placeholders of different types, drag one, undo and redo, attach an
 * .xlsx, generate one PDF per row (a ZIP) and a combined PDF, download both and read them back.
 * Screenshots of every screen land in e2e/screenshots/merge-*.png for a person to look at.
 * The steps run in order on one page; once one fails, the later ones are skipped.
 */
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { ROOT, screenshot, type RunningApp } from './support/app.ts';
import { serialFlow } from './support/serial-flow.ts';
import { pdfText, qpdfCheck, saveDownload, signUp, tempFile, unzip, wordBoxes, xlsx } from './support/flows.ts';

const TEMPLATE = path.join(ROOT, 'fixtures/generated/corpus/classic-xref.pdf');
const TEMPLATE_NAME = 'classic-xref.pdf';

/** The sheet, and each row's values as the placeholders print them (EUR in de-DE, "D MMMM YYYY"). */
const ROWS = [
  { name: 'Ada Lovelace', amount: 1234.5, due: new Date(Date.UTC(2024, 2, 15)), amountText: '1.234,50 €', dueText: '15 March 2024' },
  { name: 'Grace Hopper', amount: 99, due: new Date(Date.UTC(2025, 11, 1)), amountText: '99,00 €', dueText: '1 December 2025' },
  { name: 'Alan Turing', amount: 1000000, due: new Date(Date.UTC(2026, 6, 4)), amountText: '1.000.000,00 €', dueText: '4 July 2026' },
];
const SHEET = xlsx([['Name', 'Amount', 'Due'], ...ROWS.map((row) => [row.name, row.amount, row.due])]);
/** Where the mouse moves the Name placeholder, in screen pixels: left and down, onto blank paper. */
const DRAG = { x: -200, y: 150 };

/** pdftotext keeps no-break spaces and spreads columns with runs of spaces: compare words only. */
const words = (text: string) => text.replace(/[\s\u00a0\u202f]+/g, ' ').trim();

const flow = serialFlow({ failureScreenshot: 'merge-failure', actionTimeoutMs: 30_000 });
let app: RunningApp;
let page: Page;
/** Positions in points the editor showed (properties panel), to find again in the PDFs. */
const shown: Record<string, Point> = {};
const downloads: { zip?: string; combined?: string } = {};

beforeAll(() => {
  ({ app, page } = flow);
});

/** Full-page screenshots from the top: a scrolled page would show the sticky navbar mid-picture. */
async function shot(name: string): Promise<void> {
  await page.evaluate('window.scrollTo(0, 0)');
  await screenshot(page, name);
}

/** A Material select: opens it by its label, picks the option and sees the select show `shows`. */
async function choose(scope: Locator, label: string, option: string, shows = option): Promise<void> {
  await scope.getByRole('combobox', { name: label }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
  // The list leaves the accessibility tree at once but fades out over the page: wait until it is gone.
  await page.locator('[role="listbox"]').waitFor({ state: 'detached' });
  await expect.poll(() => scope.getByRole('combobox', { name: label }).textContent()).toBe(shows);
}

interface Point {
  x: number;
  y: number;
}

async function topLeft(locator: Locator): Promise<Point> {
  const box = await locator.boundingBox();
  if (!box) throw new Error('not on screen');
  return { x: box.x, y: box.y };
}

/** How far (in screen pixels) a placeholder's corner is from where it should be. */
const offBy = async (locator: Locator, target: Point) => {
  const at = await topLeft(locator);
  return Math.max(Math.abs(at.x - target.x), Math.abs(at.y - target.y));
};

const editor = () => page.getByRole('toolbar', { name: 'Editor tools' });
const sidebar = () => page.getByRole('complementary', { name: 'Headings and placeholders' });
const properties = () => page.getByRole('region', { name: 'Properties' });
const placeholder = (column: string) => page.getByRole('button', { name: `Placeholder ${column} on page 1` });
const placedCount = () => sidebar().getByRole('list', { name: 'Placeholders' }).getByRole('button').count();
const bar = () => page.getByRole('navigation', { name: 'Wizard navigation' });

async function addByName(column: string): Promise<void> {
  await sidebar().getByLabel('Column name').fill(column);
  await sidebar().getByRole('button', { name: 'Add placeholder' }).click();
  await placeholder(column).waitFor();
}

/** Clicks a placeholder and reads its position in points from the properties panel. */
async function positionOf(column: string): Promise<Point> {
  await placeholder(column).click();
  await expect.poll(() => properties().getByLabel('Column').inputValue()).toBe(column);
  return { x: Number(await properties().getByLabel('X', { exact: true }).inputValue()), y: Number(await properties().getByLabel('Y', { exact: true }).inputValue()) };
}

/** Generates with the current options and downloads the result from the completed view. */
async function generateAndDownload(): Promise<string> {
  await page.getByRole('button', { name: 'Generate 3 documents' }).click();
  const completed = page.getByTestId('merge-completed');
  await completed.getByText('3 documents were generated.').waitFor({ timeout: 90_000 });
  const [download] = await Promise.all([page.waitForEvent('download'), completed.getByRole('link', { name: 'Download' }).click()]);
  return saveDownload(download);
}

describe('the merge flow in the browser', { timeout: 120_000 }, () => {
  it('signs a new user up through the register form', async () => {
    await signUp(page, app.url);
    await page.getByRole('heading', { name: 'No templates yet' }).waitFor();
  });

  it('creates a mail merge from a PDF uploaded through the dropzone', async () => {
    await page.getByRole('link', { name: 'Create mail merge' }).click();
    await page.getByRole('heading', { name: 'Upload your template' }).waitFor();
    await page.getByLabel('Drop your PDF or Word template here').setInputFiles(TEMPLATE);
    await editor().waitFor({ timeout: 60_000 });
    // The address names the template and the wizard's step (issue 9: the step is in the URL).
    expect(page.url()).toMatch(/\/wizard\/[A-Za-z0-9]{20}\?step=2$/);
    await page.getByRole('region', { name: 'Page 2' }).waitFor({ state: 'attached' });
  });

  it('places text, number and date placeholders named before any sheet exists', async () => {
    for (const column of ['Name', 'Amount', 'Due']) await addByName(column);
    await expect.poll(placedCount).toBe(3);
    // Amount: a number in euros the German way.
    await placeholder('Amount').click();
    await choose(properties(), 'Type', 'Number The number in a chosen format', 'Number');
    await choose(properties(), 'Style', 'Currency');
    await choose(properties(), 'Format of', 'de-DE');
    await choose(properties(), 'Currency', 'EUR');
    await choose(properties(), 'Decimals', '2');
    // Due: a date with the month written out.
    await placeholder('Due').click();
    await choose(properties(), 'Type', 'Date The date in a chosen format', 'Date');
    await choose(properties(), 'Date format', 'D MMMM YYYY');
    await expect.poll(() => editor().getByRole('status').textContent()).toBe('Unsaved changes');
  });

  it('drags a placeholder with the mouse; undo and redo take the move back and redo it', async () => {
    const name = placeholder('Name');
    const before = await topLeft(name);
    // hover() also checks that the box itself gets the pointer.
    await name.hover();
    const start = await name.boundingBox();
    await page.mouse.down();
    await page.mouse.move(start!.x + start!.width / 2 + DRAG.x, start!.y + start!.height / 2 + DRAG.y, { steps: 8 });
    await page.mouse.up();
    const moved = { x: before.x + DRAG.x, y: before.y + DRAG.y };
    await expect.poll(() => offBy(name, moved)).toBeLessThan(1);

    await page.keyboard.press('Control+z');
    await expect.poll(() => offBy(name, before)).toBeLessThan(1);
    await page.keyboard.press('Control+Shift+z');
    await expect.poll(() => offBy(name, moved)).toBeLessThan(1);
    await editor().getByRole('button', { name: 'Undo' }).click();
    await expect.poll(() => offBy(name, before)).toBeLessThan(1);
    await editor().getByRole('button', { name: 'Redo' }).click();
    await expect.poll(() => offBy(name, moved)).toBeLessThan(1);
    expect(await editor().getByRole('button', { name: 'Redo' }).isDisabled()).toBe(true);

    // Undo of an added placeholder removes it again; redo brings it back.
    await addByName('Extra');
    await expect.poll(placedCount).toBe(4);
    await editor().getByRole('button', { name: 'Undo' }).click();
    await expect.poll(placedCount).toBe(3);
    await page.keyboard.press('Control+Shift+z');
    await expect.poll(placedCount).toBe(4);
    await page.keyboard.press('Control+z');
    await expect.poll(placedCount).toBe(3);
    await placeholder('Extra').waitFor({ state: 'detached' });

    for (const column of ['Name', 'Amount', 'Due']) shown[column] = await positionOf(column);
    expect(shown.Name.x).toBeLessThan(shown.Amount.x - 100);
    expect(shown.Name.y).toBeGreaterThan(shown.Due.y);
    await shot('merge-1-editor');
  });

  it('saves the placeholders and takes an .xlsx whose headings match at step 3', async () => {
    await bar().getByRole('button', { name: 'Next' }).click();
    await page.getByRole('heading', { name: 'Spreadsheet', level: 1 }).waitFor();
    await page.getByLabel('Drop your spreadsheet here').setInputFiles(await tempFile('people.xlsx', SHEET));
    const summary = page.getByTestId('current-spreadsheet');
    await summary.getByText('3 data rows').waitFor();
    const preview = summary.getByRole('table', { name: 'First rows of the spreadsheet' });
    await preview.getByRole('cell', { name: 'Alan Turing' }).waitFor();
    await shot('merge-2-spreadsheet');
  });

  it('generates one PDF per row as a ZIP at step 4 and downloads it', async () => {
    await bar().getByRole('button', { name: 'Next' }).click();
    await page.getByRole('heading', { name: 'Generate documents' }).waitFor();
    // A Free user is told the plan adds its watermark.
    await page.getByTestId('plan-watermark').getByText('Your plan adds the watermark “Made with Sheaf - free plan”', { exact: false }).waitFor();
    expect(await page.getByRole('radio', { name: 'One document per row (ZIP file)' }).isChecked()).toBe(true);
    await page.getByTestId('rows-to-generate').getByText('3 documents will be generated').waitFor();
    // Each file named after its row's Name.
    await page.getByRole('button', { name: 'Insert Name' }).click();
    await expect.poll(() => page.getByLabel('File name of each document').inputValue()).toBe('{{Name}}');
    await page.getByText('The file name was saved.').waitFor();
    await shot('merge-3-options');

    downloads.zip = await generateAndDownload();
    expect(path.basename(downloads.zip)).toBe('classic-xref.zip');
    // The navbar's counter follows: 3 of the Free plan's 100 documents used.
    await page.getByLabel('Documents generated this period').getByText('3 / 100').waitFor();
    await shot('merge-4-completed');
  });

  it('generates the same rows as one combined PDF and downloads it', async () => {
    await page.getByTestId('merge-completed').getByRole('button', { name: 'Generate again' }).click();
    await page.getByRole('table', { name: 'Credits' }).getByRole('row', { name: 'Available 97' }).waitFor();
    await page.getByRole('radio', { name: 'One combined document' }).check();
    await expect.poll(() => page.getByLabel('File name of each document').isDisabled()).toBe(true);
    downloads.combined = await generateAndDownload();
    expect(path.basename(downloads.combined)).toBe('classic-xref.pdf');
    await page.getByLabel('Documents generated this period').getByText('6 / 100').waitFor();
  });

  it("made one sound PDF per row holding that row's values, formatted, where the editor showed them", async () => {
    const files = await unzip(downloads.zip!);
    expect(files.map((file) => path.basename(file))).toEqual(ROWS.map((row) => `${row.name}.pdf`).sort());
    for (const row of ROWS) {
      const file = files.find((candidate) => path.basename(candidate) === `${row.name}.pdf`)!;
      await qpdfCheck(file);
      const text = words(await pdfText(file));
      expect(text).toContain(row.name);
      expect(text).toContain(words(row.amountText));
      expect(text).toContain(row.dueText);
      for (const other of ROWS.filter((candidate) => candidate !== row)) {
        expect(text).not.toContain(other.name);
        expect(text).not.toContain(words(other.amountText));
        expect(text).not.toContain(other.dueText);
      }
      // The values keep the offsets between the placeholders that the editor showed (in points).
      const boxes = await wordBoxes(file);
      const at = (first: string) => boxes.find((word) => word.text === first)!;
      const [name, amount, due] = [at(row.name.split(' ')[0]), at(row.amountText.split(/\s/)[0]), at(row.dueText.split(' ')[1])];
      expect(Math.abs(amount.x - name.x - (shown.Amount.x - shown.Name.x))).toBeLessThan(1.5);
      expect(Math.abs(name.y - amount.y - (shown.Name.y - shown.Amount.y))).toBeLessThan(1.5);
      expect(Math.abs(due.y - amount.y - (shown.Due.y - shown.Amount.y))).toBeLessThan(1.5);
    }
  });

  it('made one sound combined PDF with every row in order', async () => {
    await qpdfCheck(downloads.combined!);
    const pages = (await pdfText(downloads.combined!)).split('\f').filter((text) => text.trim() !== '').map(words);
    // The template has two pages; the placeholders are on the first page of each row's copy.
    expect(pages).toHaveLength(ROWS.length * 2);
    ROWS.forEach((row, index) => {
      expect(pages[index * 2]).toContain(row.name);
      expect(pages[index * 2]).toContain(words(row.amountText));
      expect(pages[index * 2]).toContain(row.dueText);
      expect(pages[index * 2 + 1]).toContain('Page 2 of 2');
      expect(pages[index * 2 + 1]).not.toContain(row.name);
    });
  });

  it('shows the template at home in grid and list view, its menu and its history with downloads', async () => {
    await bar().getByRole('button', { name: 'Go home' }).click();
    const card = page.getByRole('article', { name: TEMPLATE_NAME });
    await card.getByText('Spreadsheet: people.xlsx').waitFor();
    await card.getByText('2 pages').waitFor();
    // The first page's picture, or the icon when the server made none: no longer loading.
    await card.getByLabel('Loading the preview').waitFor({ state: 'detached' });
    await shot('merge-5-home-grid');

    const list = page.getByRole('button', { name: 'List view' });
    await list.click();
    await expect.poll(() => list.getAttribute('aria-pressed')).toBe('true');
    await card.getByRole('link', { name: TEMPLATE_NAME }).waitFor();
    await shot('merge-6-home-list');

    await card.getByRole('button', { name: `Actions for ${TEMPLATE_NAME}` }).click();
    const menu = page.getByRole('menu');
    await menu.getByRole('menuitem', { name: 'Show history' }).waitFor();
    await shot('merge-7-menu');
    await menu.getByRole('menuitem', { name: 'Show history' }).click();
    // The closing menu leaves the accessibility tree at once but fades out: wait until it is gone.
    await page.locator('[role="menu"]').waitFor({ state: 'detached' });

    const history = page.getByRole('region', { name: `History of “${TEMPLATE_NAME}”` });
    const entries = history.getByRole('listitem');
    await expect.poll(() => entries.count()).toBe(2);
    // Newest first: the combined PDF, then the ZIP.
    await entries.nth(0).getByText('3 documents · classic-xref.pdf').waitFor();
    await entries.nth(1).getByText('3 documents · classic-xref.zip').waitFor();
    await shot('merge-8-history');
    const [download] = await Promise.all([page.waitForEvent('download'), entries.nth(0).getByRole('link', { name: 'Download' }).click()]);
    const again = await saveDownload(download);
    expect(path.basename(again)).toBe('classic-xref.pdf');
    expect(words(await pdfText(again))).toBe(words(await pdfText(downloads.combined!)));
  });
});
