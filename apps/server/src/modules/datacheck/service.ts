/**
 * The data check (docs/data-check.md): POST /templates/:id/verifyExcelData/stream checks the rows a
 * merge request selects against the template, its output settings and its email, and every value
 * against its column. Everything that can refuse the check (another account's template, no sheet,
 * a selection of no rows, a dataset too large) is decided here, before the first byte of the answer;
 * the rows are then checked and streamed by stream.ts.
 */
import {
  DATA_CHECK_MAX_CELLS, STANDARD_FONTS, SheafError, type DataCheckRequestSchema, type DataIssue, type PasswordProtection,
} from '@sheaf/shared';
import type { z } from 'zod';
import type { DataCheck, DataCheckInput, SheetRows } from '@sheaf/engine';
import type { AppContext } from '../../context.ts';
import { accountFor, type Principal } from '../../access/index.ts';
import { loadCheckRows } from '../spreadsheets/index.ts';
import { fallbackFonts, loadTemplateForCheck } from '../templates/index.ts';
import { loadUserFonts } from '../fonts/index.ts';
import { rowSelectionOf, selectedRows } from '../merges/index.ts';

/** The request as the route has read it (defaults applied). */
export type DataCheckRequest = z.infer<typeof DataCheckRequestSchema>;

/** A check ready to run: the sheet's headings, its selected rows (read when asked: streamed or from memory), the rules. */
export interface PreparedDataCheck {
  headers: readonly string[];
  /** The selected rows in sheet order; each call reads them again (the AI review reads them beside the rules). */
  rows: () => SheetRows;
  check: DataCheck;
}

/** The request's own setting when it has one, else the template's saved one (step 3 runs before step 4 is filled in). */
function settingsOf(request: DataCheckRequest, saved: Awaited<ReturnType<typeof loadTemplateForCheck>>) {
  const isCombined = request.isCombinedOutput ?? saved.output.isCombinedOutput;
  const fileNamePattern = isCombined ? undefined : (request.fileNamePattern ?? saved.output.fileNamePattern).trim() || undefined;
  const protection: Partial<PasswordProtection> | null | undefined = request.passwordProtection !== undefined ? request.passwordProtection : saved.output.passwordProtection;
  const passwords = protection ? [protection.readPassword ?? '', protection.modifyPassword ?? ''].filter(Boolean) : [];
  // Emailed documents are one per row: a combined output is not sent (merge/email-combined), so its email is not checked.
  const emailed = (request.email?.isActive ?? saved.email.isActive) && !isCombined;
  return { fileNamePattern, passwords, email: emailed ? saved.email : null };
}

/** Custom fonts the placeholders name (the standard ones need no file), by family. */
async function placeholderFonts(ctx: AppContext, ownerId: string, families: Set<string>): Promise<Map<string, Uint8Array>> {
  const standard = new Set<string>([...STANDARD_FONTS, 'Arial', 'Courier New', 'Times'].map((name) => name.toLowerCase()));
  const wanted = new Set([...families].map((family) => family.trim().toLowerCase()).filter((family) => !standard.has(family)));
  if (wanted.size === 0) return new Map();
  const fonts = await loadUserFonts(ctx, ownerId);
  return new Map([...fonts].filter(([name]) => wanted.has(name.trim().toLowerCase())));
}

export async function prepareDataCheck(ctx: AppContext, principal: Principal, templateId: string, request: DataCheckRequest): Promise<PreparedDataCheck> {
  const ownerId = accountFor(principal, 'templates:read');
  const template = await loadTemplateForCheck(ctx, ownerId, templateId); // template/not-found
  // The parsed sheet when it is in memory, else its rows file, streamed (docs/data-check.md#speed).
  const source = await loadCheckRows(ctx, ownerId, templateId); // sheet/missing
  const { headers } = source.profile;
  const rows = selectedRows(source.index, rowSelectionOf(request.rowsData)); // the merge's rows: merge/no-rows, merge/bad-row-range
  const cells = rows.length * Math.max(1, headers.length);
  if (cells > DATA_CHECK_MAX_CELLS) throw new SheafError('check/too-large', { rows: rows.length, columns: headers.length, max: DATA_CHECK_MAX_CELLS });

  const settings = settingsOf(request, template);
  const input: DataCheckInput = {
    sheet: source.profile,
    template: template.templateType === 'sfdt'
      ? { kind: 'word', fields: await template.wordFields() }
      : { kind: 'pdf', placeholders: template.placeholders, pages: template.pages },
    imageNames: template.imageNames,
    fileNamePattern: settings.fileNamePattern,
    passwords: settings.passwords,
    email: settings.email,
  };
  if (template.templateType === 'pdf' && template.placeholders.length > 0) {
    const families = new Set(template.placeholders.map((placeholder) => placeholder.fontFamily));
    const [custom, fallback] = await Promise.all([placeholderFonts(ctx, ownerId, families), fallbackFonts()]);
    input.fonts = { custom, fallback };
  }
  const { createDataCheck } = await import('@sheaf/engine'); // the engine loads with the first check or merge, not at start
  return { headers, rows: () => source.read(rows), check: createDataCheck(input) };
}

/** One line of the answer: the issue as JSON and a line break. */
export function ndjsonLine(issue: DataIssue): string {
  return `${JSON.stringify(issue)}\n`;
}
