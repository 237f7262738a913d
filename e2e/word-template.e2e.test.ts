/**
 * A Word template through the built app as a person uses it (docs/word-templates.md): upload a DOCX
 * at step 1, see its printed pages at step 2, attach a CSV at step 3, come back to step 2, find the
 * greeting with the search, insert two fields from the headings at the cursor, reword the closing
 * sentence with the keyboard (delete a word, type two, undo and redo), save (the pages are printed
 * again), preview real rows, then generate PDFs and DOCX files at step 4 and read each
 * document back. Axe checks the editor and step 4. Screenshots: e2e/screenshots/word-*.png.
 * The steps run in order on one page; once one fails, the later ones are skipped.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { strFromU8, strToU8, unzipSync } from 'fflate';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { screenshot, type RunningApp } from './support/app.ts';
import { serialFlow } from './support/serial-flow.ts';
import { seriousViolations } from './support/axe.ts';
import { pdfText, saveDownload, signUp, tempFile, unzip } from './support/flows.ts';
import { letterDocx } from './support/docx.ts';

const CSV = 'First,Last\nAda,Lovelace\nGrace,Hopper\n';
const ROWS = [{ first: 'Ada', last: 'Lovelace' }, { first: 'Grace', last: 'Hopper' }];

const flow = serialFlow({ failureScreenshot: 'word-failure', actionTimeoutMs: 60_000 });
let app: RunningApp;
let page: Page;

beforeAll(() => {
  ({ app, page } = flow);
});

async function shot(name: string): Promise<void> {
  await page.evaluate('window.scrollTo(0, 0)');
  await screenshot(page, name);
}

const bar = () => page.getByRole('navigation', { name: 'Wizard navigation' });
const paragraphText = (index: number) => page.getByTestId('word-paragraph').nth(index).textContent();
const documentText = () => page.getByRole('textbox', { name: 'Document text' });
const printedPage = () => page.getByRole('img', { name: 'Page 1 as printed' });

/** Generates with the current options and downloads the result from the completed view. */
async function generateAndDownload(): Promise<string> {
  await page.getByRole('button', { name: 'Generate 2 documents' }).click();
  const completed = page.getByTestId('merge-completed');
  await completed.getByText('2 documents were generated.').waitFor({ timeout: 150_000 });
  const [download] = await Promise.all([page.waitForEvent('download'), completed.getByRole('link', { name: 'Download' }).click()]);
  return saveDownload(download);
}

describe('a Word template in the browser', { timeout: 180_000 }, () => {
  it('uploads a DOCX at step 1 and shows its printed pages and text at step 2', async () => {
    await signUp(page, app.url);
    await page.getByRole('link', { name: 'Create mail merge' }).click();
    await page.getByLabel('Drop your PDF or Word template here').setInputFiles(await tempFile('Letter.docx', letterDocx('Dear  ,')));
    await page.getByRole('heading', { name: 'Edit the Word document' }).waitFor();
    expect(page.url()).toMatch(/\/wizard\/[A-Za-z0-9]{20}\?step=2$/);
    await printedPage().waitFor();
    expect(await paragraphText(0)).toBe('Dear  ,');
    // No sheet yet: a field can be typed by name; the cursor must be placed first.
    await page.getByTestId('word-no-caret').waitFor();
    await shot('word-1-editor-empty');
  });

  it('takes a CSV at step 3, whose headings step 2 then lists', async () => {
    await bar().getByRole('button', { name: 'Next' }).click();
    await page.getByRole('heading', { name: 'Spreadsheet', level: 1 }).waitFor();
    await page.getByLabel('Drop your spreadsheet here').setInputFiles(await tempFile('people.csv', strToU8(CSV)));
    await page.getByTestId('current-spreadsheet').getByText('2 data rows').waitFor();
    await bar().getByRole('button', { name: 'Back' }).click();
    await page.getByRole('heading', { name: 'Edit the Word document' }).waitFor();
    await page.getByRole('button', { name: 'Insert {{First}} at the cursor' }).waitFor();
  });

  it('finds the greeting and inserts {{First}} and {{Last}} at the cursor', async () => {
    const search = page.getByLabel('Search the text');
    await search.fill('dear ');
    await page.getByTestId('word-search-count').getByText('1 match').waitFor();
    // Enter goes to the match: the cursor stands after "Dear ".
    await search.press('Enter');
    await page.getByTestId('word-caret').waitFor();
    await page.getByRole('button', { name: 'Insert {{First}} at the cursor' }).click();
    await expect.poll(() => paragraphText(0)).toBe('Dear {{First}} ,');
    // The arrow key moves the cursor past the second space.
    await documentText().focus();
    await page.keyboard.press('ArrowRight');
    await page.getByRole('button', { name: 'Insert {{Last}} at the cursor' }).click();
    await expect.poll(() => paragraphText(0)).toBe('Dear {{First}} {{Last}},');
    await page.getByTestId('word-save-state').getByText('Unsaved changes').waitFor();
    await page.getByTestId('word-pages-stale').waitFor();
    await search.fill('');
    await shot('word-2-editor-fields');
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('rewords the closing sentence with the keyboard alone (deletes a word, types two, undoes and redoes) and saves; the pages are printed again', async () => {
    // From the greeting, Down goes to the closing sentence and End to its end.
    await documentText().focus();
    await page.keyboard.press('ArrowDown');
    // A screen reader hears the paragraph the cursor went to.
    await page.getByTestId('word-reading').getByText('Thank you for your order.').waitFor();
    await page.keyboard.press('End');
    for (let index = 0; index < 'order.'.length; index++) await page.keyboard.press('Backspace');
    await expect.poll(() => paragraphText(1)).toBe('Thank you for your ');
    await page.keyboard.type('prompt payment.');
    await expect.poll(() => paragraphText(1)).toBe('Thank you for your prompt payment.');
    // Undo takes back the last word typed; redo types it again.
    await page.keyboard.press('Control+z');
    await expect.poll(() => paragraphText(1)).toBe('Thank you for your prompt');
    await page.getByTestId('word-announcement').getByText('Undone.').waitFor();
    await page.keyboard.press('Control+y');
    await expect.poll(() => paragraphText(1)).toBe('Thank you for your prompt payment.');
    // Backspace at the greeting's end takes {{Last}} as a whole; undo brings it back.
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('End');
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('Backspace');
    await expect.poll(() => paragraphText(0)).toBe('Dear {{First}} ,');
    await page.keyboard.press('Control+z');
    await expect.poll(() => paragraphText(0)).toBe('Dear {{First}} {{Last}},');
    // Shift with End selects to the paragraph's end; Escape lets the selection go.
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Home');
    await page.keyboard.press('Shift+End');
    await expect.poll(() => page.locator('[data-selected]').allTextContents()).toEqual(['Thank you for your prompt payment.']);
    await shot('word-2b-editor-typing');
    await page.keyboard.press('Escape');
    await page.locator('[data-selected]').first().waitFor({ state: 'detached' });
    expect(await seriousViolations(page)).toEqual([]);

    const reprinted = page.waitForResponse((response) => response.url().includes('/printed') && response.status() === 200);
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('The document was saved.').waitFor();
    await page.getByTestId('word-save-state').getByText('All changes saved').waitFor();
    await reprinted;
    await printedPage().waitFor();
    await page.getByTestId('word-pages-stale').waitFor({ state: 'detached' });
  });

  it('previews the first rows filled into the document', async () => {
    await page.getByRole('button', { name: 'Preview' }).click();
    const dialog = page.getByRole('dialog', { name: 'Preview' });
    await dialog.getByRole('img', { name: 'Preview page 2' }).waitFor({ timeout: 120_000 });
    await screenshot(page, 'word-3-preview');
    await dialog.getByRole('button', { name: 'Close' }).click();
    await dialog.waitFor({ state: 'detached' });
  });

  it('offers PDF or Word documents at step 4, without the PDF-template options, and makes one PDF per row', async () => {
    await bar().getByRole('button', { name: 'Next' }).click();
    await page.getByRole('heading', { name: 'Spreadsheet', level: 1 }).waitFor();
    await bar().getByRole('button', { name: 'Next' }).click();
    await page.getByRole('heading', { name: 'Generate documents' }).waitFor();
    expect(await page.getByRole('radio', { name: 'PDF', exact: true }).isChecked()).toBe(true);
    expect(await page.getByText('Repair PDF').count()).toBe(0);
    await page.getByTestId('password-note').getByText('Passwords protect PDF documents only.').waitFor();
    await shot('word-4-options');
    expect(await seriousViolations(page)).toEqual([]);

    const zip = await generateAndDownload();
    const files = await unzip(zip);
    expect(files.map((file) => path.basename(file)).sort()).toEqual(['document-2.pdf', 'document-3.pdf']);
    for (const [index, row] of ROWS.entries()) {
      const text = (await pdfText(files.find((file) => path.basename(file) === `document-${index + 2}.pdf`)!)).replace(/\s+/g, ' ');
      expect(text).toContain(`Dear ${row.first} ${row.last},`);
      expect(text).toContain('Thank you for your prompt payment.');
      expect(text).not.toContain('order');
      for (const other of ROWS.filter((candidate) => candidate !== row)) expect(text).not.toContain(other.first);
    }
  });

  it('makes Word documents (DOCX) when asked, passwords then not offered', async () => {
    await page.getByTestId('merge-completed').getByRole('button', { name: 'Generate again' }).click();
    await page.getByRole('radio', { name: 'Word documents (DOCX)' }).check();
    await page.getByTestId('password-note').getByText(/cannot be password protected/).waitFor();
    expect(await page.getByLabel('Password to open').isDisabled()).toBe(true);
    const zip = await generateAndDownload();
    const files = await unzip(zip);
    expect(files.map((file) => path.basename(file)).sort()).toEqual(['document-2.docx', 'document-3.docx']);
    for (const [index, row] of ROWS.entries()) {
      const parts = unzipSync(await readFile(files.find((file) => path.basename(file) === `document-${index + 2}.docx`)!));
      const xml = strFromU8(parts['word/document.xml']!);
      expect(xml.replace(/<[^>]+>/g, '')).toContain(`Dear ${row.first} ${row.last},`);
      expect(xml.replace(/<[^>]+>/g, '')).toContain('Thank you for your prompt payment.');
      // The fields took the greeting's bold Georgia.
      expect(xml).toMatch(new RegExp(`<w:r>(?:(?!</w:r>).)*<w:b/>(?:(?!</w:r>).)*>${row.first}<`));
    }
  });
});
