/**
 * Steps and checks the browser tests share: signing up through the form, writing a small .xlsx, and
 * reading what a merge produced with the tools a person would use (unzip, pdftotext, qpdf).
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Download, Page } from 'playwright-core';
import { expect } from 'vitest';
import { buildXlsx, stylesWith } from '../../scripts/fixtures/sheets/xlsx-parts.ts';

const run = promisify(execFile);

export interface TestUser {
  firstName: string;
  lastName: string;
  email: string;
  password: string;
}

/** A user no other test (or earlier run on the same data folder) has taken. */
export function newUser(): TestUser {
  const tag = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 7)}`;
  return { firstName: 'Erika', lastName: 'Mustermann', email: `erika.${tag}@example.com`, password: 'correct-horse-42' };
}

/** Signs up through /register (every field, the terms box) and waits for the home page. */
export async function signUp(page: Page, baseUrl: string, user: TestUser = newUser()): Promise<TestUser> {
  await page.goto(`${baseUrl}/register`);
  await page.getByLabel('First name').fill(user.firstName);
  await page.getByLabel('Last name').fill(user.lastName);
  await page.getByLabel('Work email').fill(user.email);
  await page.getByLabel(/^Password/).fill(user.password);
  await page.getByLabel('Confirm password').fill(user.password);
  await page.getByRole('checkbox', { name: /I accept the/ }).check();
  await page.getByRole('button', { name: 'Register' }).click();
  await page.getByRole('heading', { name: 'Templates', level: 1 }).waitFor();
  expect(new URL(page.url()).pathname).toBe('/');
  return user;
}

export type Cell = string | number | Date;

const EXCEL_EPOCH = Date.UTC(1899, 11, 30);
const escapeXml = (text: string) => text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
const columnName = (index: number): string => (index < 26 ? String.fromCharCode(65 + index) : columnName(Math.floor(index / 26) - 1) + columnName(index % 26));

/**
 * An .xlsx of the given rows (the first holds the headings): strings inline, numbers as numbers, dates
 * as Excel serials with a date format, the way Excel stores them.
 */
export function xlsx(rows: readonly (readonly Cell[])[]): Uint8Array {
  const sheet = rows
    .map((cells, rowIndex) => {
      const r = rowIndex + 1;
      const xml = cells.map((cell, column) => {
        const ref = `${columnName(column)}${r}`;
        if (cell instanceof Date) return `<c r="${ref}" s="1"><v>${(cell.getTime() - EXCEL_EPOCH) / 86_400_000}</v></c>`;
        if (typeof cell === 'number') return `<c r="${ref}"><v>${cell}</v></c>`;
        return `<c r="${ref}" t="inlineStr"><is><t xml:space="preserve">${escapeXml(cell)}</t></is></c>`;
      });
      return `<row r="${r}">${xml.join('')}</row>`;
    })
    .join('');
  // Style 0: General; style 1: built-in format 14 (the locale's short date).
  return buildXlsx({ sheet, styles: stylesWith([0, 14]) });
}

/** Writes `bytes` as `name` in a fresh temporary folder and returns its path (for setInputFiles). */
export async function tempFile(name: string, bytes: Uint8Array): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'sheaf-e2e-file-'));
  const file = path.join(dir, name);
  await writeFile(file, bytes);
  return file;
}

/** Saves a download into a fresh temporary folder under its suggested name. */
export async function saveDownload(download: Download): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'sheaf-e2e-download-'));
  const file = path.join(dir, download.suggestedFilename());
  await download.saveAs(file);
  return file;
}

/** The text of a PDF as pdftotext reads it, pages separated by form feeds. */
export async function pdfText(file: string): Promise<string> {
  const { stdout } = await run('pdftotext', ['-layout', file, '-']);
  return stdout;
}

/** qpdf --check: throws (with qpdf's words) unless the file is structurally sound. */
export async function qpdfCheck(file: string): Promise<void> {
  try {
    await run('qpdf', ['--check', file]);
  } catch (error) {
    const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string };
    throw new Error(`qpdf --check ${path.basename(file)} failed:\n${stdout}${stderr}`);
  }
}

/** Unzips with Info-ZIP's unzip (testing the archive first) and returns the extracted paths, sorted. */
export async function unzip(file: string): Promise<string[]> {
  await run('unzip', ['-tq', file]);
  const dir = await mkdtemp(path.join(os.tmpdir(), 'sheaf-e2e-unzip-'));
  await run('unzip', ['-q', file, '-d', dir]);
  return (await readdir(dir)).sort().map((name) => path.join(dir, name));
}

export interface WordBox {
  text: string;
  /** Left and top edges in points from the page's top-left corner, as pdftotext -bbox gives them. */
  x: number;
  y: number;
}

/** The words of one page of a PDF with their positions. */
export async function wordBoxes(file: string, page = 1): Promise<WordBox[]> {
  const { stdout } = await run('pdftotext', ['-bbox', '-f', String(page), '-l', String(page), file, '-']);
  const decode = (text: string) => text.replaceAll('&lt;', '<').replaceAll('&gt;', '>').replaceAll('&quot;', '"').replaceAll('&amp;', '&');
  return [...stdout.matchAll(/<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="[\d.]+" yMax="[\d.]+">([^<]*)<\/word>/g)].map((match) => ({
    text: decode(match[3]),
    x: Number(match[1]),
    y: Number(match[2]),
  }));
}
