/**
 * The data check (docs/data-check.md): every selected row against the template it fills and the
 * email it goes with, and every value against its column, before anything is made or sent. The
 * engine's own formatters, image lookup, QR capacity, fonts and layout decide, so the check and the
 * documents agree. Pure: the caller hands in what the check must know of the whole sheet (its
 * headings and column types, rows.ts) and then the rows, in order, from memory or streamed (rows are
 * never read again: duplicates and column statistics are kept across rows), and streams what each
 * row answers.
 */
import {
  columnIndex, columnTags, formatErrorMessage, htmlColumnTags, replyToColumn,
  type DataIssue, type ErrorParams, type Placeholder,
} from '@sheaf/shared';
import { DEFAULT_DATE_FORMAT, DEFAULT_NUMBER_FORMAT } from '../merge/defaults.ts';
import { imageNameResolver } from '../merge/image-names.ts';
import { placementOf } from '../merge/placed.ts';
import { placeholderText } from '../merge/rowDrawing.ts';
import { docxColumnIndex } from '../docx/prepare.ts';
import { readDate, readNumber } from '../format/index.ts';
import { dateOrder, resolveLocale } from '../format/locale.ts';
import { fitsQrCode, QR_MAX_BYTES } from '../qr/index.ts';
import { FontRegistry, MIN_FONT_SIZE, overflowsBox, type Box, type TextStyle } from '../text/index.ts';
import type { SheetData } from '../sheet/types.ts';
import type { SheetRow, SheetRows } from './rows.ts';
import { wordFieldFormat, wordFormatFinding, type WordFieldFormat } from './word-formats.ts';
import { addressFindings, recipientKeys, type AddressRole } from './addresses.ts';
import { isOfType, OUTLIER_FLOOR, OUTLIER_SHARE, type ColumnType } from './column-types.ts';
import { KIND_OF_CODE, type CheckCode, type DataCheckInput } from './types.ts';
import { editDistance, impossibleDate, mayBeDate, mayHaveStrayCharacters, numberWithoutStrayLetters, strayCharacters } from './values.ts';

export type { CheckedEmail, DataCheckInput, PdfCheckTemplate, WordCheckTemplate } from './types.ts';
export { inferColumnTypes, TYPE_SAMPLE_ROWS, type ColumnType } from './column-types.ts';
export { profileOf, rowsOfSheet, type SheetProfile, type SheetRow, type SheetRows } from './rows.ts';

/** An issue's actual_value is cut to this many characters (a QR text may be thousands long). */
export const MAX_ACTUAL_LENGTH = 1_000;

export interface DataCheck {
  /** Problems of the template and its settings as a whole (a column they name that the sheet lacks), at the header row. */
  readonly headerIssues: DataIssue[];
  /** The issues of the next data row, in column order, one per column and code. Rows come in sheet order. */
  row(row: SheetRow): DataIssue[];
  /** The issues of each row of `rows` (none: an empty list), as the rows arrive. */
  rows(rows: SheetRows): AsyncGenerator<{ rowNumber: number; issues: DataIssue[] }>;
  /** The inferred type of each column (undefined: text or too few values), for the docs and tests. */
  readonly columnTypes: ReadonlyArray<ColumnType | undefined>;
}

/** What a placeholder of a PDF template checks in its column. */
interface PlaceholderCheck {
  placeholder: Placeholder;
  column: number;
  params: ErrorParams;
  /** Where and how its text is laid out; absent when the page is unknown or the fonts were not given. */
  layout?: { box: Box; style: TextStyle };
}

interface ColumnPlan {
  index: number;
  name: string;
  /** What an empty cell of this column leaves without a value, in the order reported. */
  required: Array<{ code: CheckCode; params: ErrorParams }>;
  placeholders: PlaceholderCheck[];
  pictures: Array<'image' | 'qr'>;
  /** Word MERGEFIELDs with a \# number or \@ date picture. */
  wordFormats: WordFieldFormat[];
  roles: AddressRole[];
  type: ColumnType | undefined;
  values: number;
  outliers: number;
  silenced: boolean;
}

const BLANK = /^[\s\u200b-\u200d\u2060\ufeff\u00ad]*$/;
const utf8 = new TextEncoder();

/** The column letters Excel shows (0 -> A, 26 -> AA), for a column without a heading. */
function columnLetters(index: number): string {
  let letters = '';
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26)) letters = String.fromCharCode(65 + ((n - 1) % 26)) + letters;
  return letters;
}

function cut(text: string): string {
  return text.length <= MAX_ACTUAL_LENGTH ? text : `${text.slice(0, MAX_ACTUAL_LENGTH - 1)}…`;
}

export function issueOf(rowNumber: number, column: string, code: CheckCode, params: ErrorParams, actual: string, expected: string): DataIssue {
  return {
    row_number: rowNumber,
    column_name: column,
    description: formatErrorMessage(code, params),
    actual_value: cut(actual),
    expected_value: expected,
    kind: KIND_OF_CODE[code] ?? 'format',
    code,
    params,
  };
}

export function createDataCheck(input: DataCheckInput): DataCheck {
  const { sheet, template } = input;
  const { columnTypes } = sheet;
  const plans: ColumnPlan[] = sheet.headers.map((heading, index) => ({
    index, name: heading === '' ? columnLetters(index) : heading, required: [], placeholders: [], pictures: [], wordFormats: [], roles: [],
    type: columnTypes[index], values: 0, outliers: 0, silenced: false,
  }));
  const headerIssues: DataIssue[] = [];
  const missingColumns = new Set<string>();
  /** The plan of a column the template names; an unknown one is reported once, at the header row. */
  const planOf = (column: string, found = columnIndex(sheet.headers, column)): ColumnPlan | undefined => {
    if (found !== undefined) return plans[found];
    if (!missingColumns.has(column)) {
      missingColumns.add(column);
      headerIssues.push(issueOf(sheet.headerRowNumber, column, 'check/column-missing', { column }, '', ''));
    }
    return undefined;
  };
  const require = (column: string, code: CheckCode) => planOf(column)?.required.push({ code, params: { column } });

  let fonts: FontRegistry | undefined;
  let groupColumn: number | undefined;
  if (template.kind === 'pdf') {
    fonts = input.fonts ? new FontRegistry({ customFonts: input.fonts.custom, fallbackFonts: input.fonts.fallback }) : undefined;
    for (const placeholder of template.placeholders) {
      const plan = planOf(placeholder.column);
      if (!plan) continue;
      if (placeholder.type === 'eSignature') continue; // a field to sign: it takes no value
      const params = { page: placeholder.pageNumber };
      plan.required.push({ code: 'check/missing-placeholder', params });
      const page = template.pages[placeholder.pageNumber - 1];
      plan.placeholders.push({ placeholder, column: plan.index, params, layout: page && fonts ? placementOf(placeholder, page) : undefined });
      if (placeholder.type === 'multiple') groupColumn = plan.index;
    }
  } else {
    for (const field of template.fields) {
      if (field.kind === 'if') continue; // a section shown or not: an empty value is what it tests
      const plan = planOf(field.column, docxColumnIndex(field, sheet.headers));
      if (!plan) continue;
      plan.required.push({ code: 'check/missing-word-field', params: { column: field.column } });
      if (field.kind === 'image' || field.kind === 'qr') plan.pictures.push(field.kind);
      const format = field.kind === 'mergefield' ? wordFieldFormat(field, template.locale) : undefined;
      if (format) plan.wordFormats.push(format);
    }
  }
  if (input.fileNamePattern) for (const column of columnTags(input.fileNamePattern)) require(column, 'check/missing-file-name');
  for (const password of input.passwords ?? []) for (const column of columnTags(password)) require(column, 'check/missing-password');
  const email = input.email;
  if (email) {
    for (const column of columnTags(email.subject)) require(column, 'check/missing-subject');
    for (const column of htmlColumnTags(email.content)) require(column, 'check/missing-content');
    const roles: Array<[string | null, AddressRole]> = [
      [email.recipientsColumn, 'to'], [email.ccColumn, 'cc'], [email.bccColumn, 'bcc'], [replyToColumn(email.replyTo), 'replyTo'],
    ];
    for (const [column, role] of roles) {
      if (!column) continue;
      const plan = planOf(column);
      if (!plan) continue;
      if (!plan.roles.includes(role)) plan.roles.push(role);
      if (role === 'to') plan.required.push({ code: 'check/missing-recipient', params: {} });
    }
  }
  for (const plan of plans) {
    // One requirement per code: two placeholders of a column on one page say the same thing.
    const seen = new Set<string>();
    plan.required = plan.required.filter(({ code }) => !seen.has(code) && seen.add(code));
  }

  const resolveImage = imageNameResolver(new Map((input.imageNames ?? []).map((name) => [name, true])));
  const nearestImage = (cell: string): string => {
    let best = '';
    let bestDistance = 3;
    const wanted = cell.trim().toLowerCase().replace(/\.(png|jpe?g)$/, '');
    for (const name of input.imageNames ?? []) {
      const distance = editDistance(wanted, name.toLowerCase().replace(/\.(png|jpe?g)$/, ''), bestDistance - 1);
      if (distance < bestDistance) [best, bestDistance] = [name, distance];
    }
    return best;
  };
  /**
   * The recipients seen, by a 52-bit hash of the address: the first row with it and a hash of its
   * document group. Numbers, not the addresses: what the check keeps for a whole sheet stays a few
   * bytes a row, and the rows are never read again (they may be streamed). Two addresses of one hash
   * (about one chance in 10^6 for 100,000 distinct addresses) would be taken as one.
   */
  const recipients = new Map<number, { rowNumber: number; group: number }>();
  const recipientColumn = plans.find((candidate) => candidate.roles.includes('to'))?.index;

  /** The row being checked, as the merge's own helpers read a sheet (its only row, index 0); its issues, one per column and code. */
  let current: SheetRow = { rowNumber: 0, text: () => '', value: () => null };
  const currentSheet: SheetData = {
    headers: sheet.headers, headerRowNumber: sheet.headerRowNumber, rowCount: 1,
    rowNumber: () => current.rowNumber, text: (_row, column) => current.text(column), value: (_row, column) => current.value(column),
  };
  let rowNumber = 0;
  let issues: DataIssue[] = [];
  let plan: ColumnPlan = plans[0]!;
  const push = (code: CheckCode, params: ErrorParams, actual: string, expected: string): void => {
    for (let i = issues.length - 1; i >= 0 && issues[i]!.column_name === plan.name; i--) if (issues[i]!.code === code) return;
    issues.push(issueOf(rowNumber, plan.name, code, params, actual, expected));
  };
  const has = (code: CheckCode): boolean => {
    for (let i = issues.length - 1; i >= 0 && issues[i]!.column_name === plan.name; i--) if (issues[i]!.code === code) return true;
    return false;
  };

  const checkRow = (row: SheetRow): DataIssue[] => {
    current = row;
    rowNumber = row.rowNumber;
    issues = [];
    for (plan of plans) {
      checkCell();
      if (plan.roles.includes('to') && !has('check/email-invalid')) checkDuplicates();
    }
    return issues;
  };
  return {
    headerIssues,
    columnTypes,
    row: checkRow,
    async *rows(rows: SheetRows): AsyncGenerator<{ rowNumber: number; issues: DataIssue[] }> {
      for await (const row of rows) yield { rowNumber: row.rowNumber, issues: checkRow(row) };
    },
  };

  function checkCell(): void {
    const text = current.text(plan.index);
    if (text === '' || BLANK.test(text)) {
      for (const { code, params } of plan.required) push(code, params, text, '');
      if (plan.required.length === 0 && text !== '') push('check/spaces', {}, text, '');
      return;
    }
    plan.values++;
    let explained = false; // a finding that says more than "unlike its column"
    if (mayHaveStrayCharacters(text)) {
      const stray = strayCharacters(text);
      if (stray.invisible.length > 0) push('check/invisible-characters', { chars: stray.invisible.join(', ') }, text, stray.cleaned);
      else if (text !== text.trim()) push('check/spaces', {}, text, text.trim());
    }
    for (const check of plan.placeholders) explained = checkPlaceholder(check, text) || explained;
    for (const format of plan.wordFormats) {
      const finding = wordFormatFinding(format, current.value(plan.index), text);
      if (finding) {
        push(finding.code, finding.params, text, finding.expected);
        explained = true;
      }
    }
    for (const kind of plan.pictures) {
      if (kind === 'image' && resolveImage(text) === undefined) push('check/image-missing', { image: text }, text, nearestImage(text));
      if (kind === 'qr' && !fitsQrCode(text, 'M')) push('check/qr-too-long', { length: utf8.encode(text).length, max: QR_MAX_BYTES.M }, text, '');
    }
    for (const role of plan.roles) {
      for (const finding of addressFindings(text, role)) {
        explained = true;
        if (finding.code === 'check/email-typo') push(finding.code, { domain: finding.domain, suggestion: finding.suggestion }, text, finding.expected);
        else push(finding.code, {}, text, finding.expected);
      }
    }
    const value = current.value(plan.index);
    if (!explained && typeof value === 'string' && plan.type !== 'number' && mayBeDate(text)) {
      const impossible = impossibleDate(text);
      if (impossible) {
        push('check/date-impossible', {}, text, impossible.nearest);
        explained = true;
      }
    }
    if (explained || !plan.type || plan.silenced || isOfType(plan.type, value, text)) return;
    const fixed = plan.type === 'number' ? numberWithoutStrayLetters(text, 'en-US') : undefined;
    if (fixed !== undefined) push('check/number-with-letters', {}, text, fixed);
    else push(`check/outlier-${plan.type}`, {}, text, '');
    plan.outliers++;
    if (plan.outliers > OUTLIER_FLOOR && plan.outliers > OUTLIER_SHARE * plan.values) plan.silenced = true;
  }

  /** A placeholder's rules on a non-empty cell; true when it found the value unreadable for its type. */
  function checkPlaceholder(check: PlaceholderCheck, text: string): boolean {
    const { placeholder, params } = check;
    let unreadable = false;
    switch (placeholder.type) {
      case 'number': {
        const format = placeholder.typeSettings.numberFormat ?? DEFAULT_NUMBER_FORMAT;
        if (readNumber(current.value(check.column) ?? text, format) === undefined) {
          const fixed = numberWithoutStrayLetters(text, format.locale);
          if (fixed !== undefined) push('check/number-with-letters', {}, text, fixed);
          else push('check/number-unreadable', params, text, '');
          unreadable = true;
        }
        break;
      }
      case 'date': {
        const format = placeholder.typeSettings.dateFormat ?? DEFAULT_DATE_FORMAT;
        if (readDate(current.value(check.column) ?? text, format) === undefined) {
          const impossible = impossibleDate(text, dateOrder(resolveLocale(format.locale)) === 'dmy' ? 'dmy' : 'mdy');
          if (impossible) push('check/date-impossible', {}, text, impossible.nearest);
          else push('check/date-unreadable', params, text, '');
          unreadable = true;
        }
        break;
      }
      case 'image':
        if (resolveImage(text) === undefined) push('check/image-missing', { image: text }, text, nearestImage(text));
        return false;
      case 'qrcode': {
        const level = placeholder.typeSettings.errorCorrection ?? 'M';
        if (!fitsQrCode(text, level)) push('check/qr-too-long', { length: utf8.encode(text).length, max: QR_MAX_BYTES[level] }, text, '');
        return false;
      }
      case 'eSignature':
        return false;
    }
    // Text, numbers and dates as printed: the engine's own fonts and layout decide.
    if (!check.layout || !fonts) return unreadable;
    const printed = placeholderText(check, currentSheet, 0);
    const { box, style } = check.layout;
    const missing = fonts.missingCharacters(printed, style);
    if (missing.length > 0) {
      const cleaned = [...text].filter((char) => !missing.includes(char)).join('').trim();
      push('check/glyph-missing', { ...params, chars: missing.join(' ') }, text, cleaned);
    }
    if (overflowsBox(fonts.layout(printed, style, box), box)) {
      if (style.shrinkToFit) push('check/text-overflow-shrunk', { ...params, minSize: MIN_FONT_SIZE }, text, '');
      else push('check/text-overflow', params, text, '');
    }
    return unreadable;
  }

  function checkDuplicates(): void {
    const text = current.text(plan.index);
    if (text === '' || recipientColumn === undefined) return;
    // Rows of one document group (a "multiple" placeholder) are one message: the same address there is expected.
    const group = groupColumn === undefined ? -rowNumber : hashOf(current.text(groupColumn).trim());
    for (const key of recipientKeys(text)) {
      const hash = hashOf(key);
      const first = recipients.get(hash);
      if (first === undefined) recipients.set(hash, { rowNumber, group });
      else if (first.group !== group) {
        push('check/duplicate-recipient', { firstRow: first.rowNumber }, text, '');
        return;
      }
    }
  }
}

/** A 52-bit hash of the text (two FNV-1a hashes of different offsets), exact as a JS number. */
function hashOf(text: string): number {
  let high = 0x811c9dc5;
  let low = 0x050c5d1f;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    high = Math.imul(high ^ code, 0x01000193);
    low = Math.imul(low ^ code, 0x01000193);
  }
  return (high >>> 12) * 2 ** 32 + (low >>> 0);
}

export type { SheetData };
