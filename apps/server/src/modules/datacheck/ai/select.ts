/**
 * What the AI review asks about (docs/data-check.md#ai-review): which columns, which of their values,
 * and in which batches. Pure functions; nothing here talks to the provider.
 *
 * - Columns: only those whose heading suggests people, street addresses, places or companies, or,
 *   with a heading that says nothing, whose values do (addresses with house numbers, companies with a
 *   legal form, two or three capitalised words as people's names). A heading that sounds like a
 *   secret, an identifier, a number or contact details (password, token, key, id, code, IBAN, account,
 *   phone, email, user name, ...) keeps its column out whatever its values, and so do values that
 *   mostly look like identifiers.
 * - Values: distinct values only, each sent once however many rows hold it; never a whole row. A value
 *   without letters, an email address, a link, anything that looks like a token or identifier, and
 *   anything over MAX_CELL_CHARS stays home even in a chosen column.
 * - The cap (LLM_MAX_CELLS_PER_CHECK) is shared fairly among the chosen columns; a column's values
 *   are kept in order of first appearance, and each column keeps at most `cap` of them while the rows
 *   are read, so memory stays bounded by the cap.
 */

/** What a column is meant to hold, as the review tells the model. */
export const COLUMN_KINDS = ['person', 'address', 'place', 'company'] as const;
export type ColumnKind = (typeof COLUMN_KINDS)[number];

/** Rows read before the columns are chosen (their values decide columns whose heading says nothing). */
export const SAMPLE_ROWS = 200;
/** A longer value is not sent (free text is not what the review is for, and it would cost most). */
export const MAX_CELL_CHARS = 120;

/** "FirstName", "first_name", "First-Name" -> "first name". */
export function headingWords(heading: string): string {
  return heading
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .replace(/[_\-.:/#()[\]]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .toLowerCase();
}

/**
 * A pattern matching any of `latin` as whole words (letters of any script count as word characters, so
 * "société" and "país" match), or any of `cjk` anywhere (those scripts write words without spaces).
 */
function words(latin: string, cjk = ''): RegExp {
  return new RegExp(`(?<![\\p{L}\\p{N}])(?:${latin})(?![\\p{L}\\p{N}])${cjk ? `|${cjk}` : ''}`, 'iu');
}

/** Headings whose column is never sent: secrets, identifiers, numbers, contact details, money, dates. */
const PRIVATE_HEADING = words(
  'pass|passwd|password|passwort|passcode|pwd|pin|secret|token|key|api|otp|totp|hash|salt|cred|credentials?|auth|' +
    'id|ids|uid|userid|uuid|guid|ident|identifier|number|no|nr|num|code|ref|reference|iban|bic|swift|sort|routing|account|acct|' +
    'card|cvv|cvc|ccv|ssn|sin|nino|passport|licen[cs]e|serial|tax|vat|nif|siret|siren|ein|tin|dob|birth|birthday|born|age|' +
    'phone|telephone|tel|mobile|cell|fax|e ?mail|mail|url|uri|link|web|website|ip|user ?name|login|handle|salary|amount|price|total|balance|date|time',
  '密码|编号|号码|电话|手机|邮箱|账号|账户',
);

/** Heading words that name what a column holds; the first kind that matches wins (company before person: "Company name"). */
const KIND_HEADINGS: ReadonlyArray<readonly [ColumnKind, RegExp]> = [
  ['company', words('company|companies|organi[sz]ations?|org|employer|business|firm|agency|institution|school|university|entreprise|soci[eé]t[eé]|firma|unternehmen|arbeitgeber|empresa|compa[nñ][ií]a', '公司|单位')],
  ['address', words('address|addr|street|road|adresse|anschrift|stra(?:ss|ß)e|rue|direcci[oó]n|calle|domicilio', '地址')],
  ['place', words('city|town|village|country|state|province|region|county|district|place|locality|location|ville|pays|commune|stadt|ort|land|bundesland|ciudad|pa[ií]s|provincia|localidad', '城市|国家|省')],
];
/** Headings naming some other thing ("Product name", "File name"): not people, whatever their values look like. */
const THING_HEADING = words(
  'product|item|article|file|document|event|course|project|title|description|subject|category|type|status|plan|service|model|brand|' +
    'tag|label|notes?|comments?|message|text|team|group|department|role|position|job|domain|host|server|app|device|colou?r|size',
);
const PERSON_HEADING = words(
  'names?|first|last|surname|given|family|forename|fullname|contact|person|recipient|customer|client|attendee|participant|guest|' +
    'member|employee|manager|owner|student|teacher|patient|author|nom|pr[eé]nom|vorname|nachname|ansprechpartner|nombre|apellidos?',
  '姓名|名字|联系人|客户',
);

/**
 * What a heading says about its column: a kind, 'private' (never sent), 'other' (some other thing, not
 * reviewed), or null (it says nothing; the values decide).
 */
export function headingVerdict(heading: string): ColumnKind | 'private' | 'other' | null {
  const words = headingWords(heading);
  if (words === '') return null;
  if (PRIVATE_HEADING.test(words)) return 'private';
  for (const [kind, pattern] of KIND_HEADINGS) if (pattern.test(words)) return kind;
  if (THING_HEADING.test(words)) return 'other';
  if (PERSON_HEADING.test(words)) return 'person';
  return null;
}

const EMAIL_LIKE = /\S+@\S+\.\S+/;
const LINK_LIKE = /^(https?:\/\/|www\.)|:\/\//i;
const LETTER = /\p{L}/u;
/** One word of letters and digits mixed (AB12CD34, cust-000123, 4f9a...), or a long run without spaces. */
const TOKEN_LIKE = /^(?=[^\s]*\d)(?=[^\s]*\p{L})[^\s]{6,}$|^[^\s]{25,}$/u;

/** Whether a value may be sent at all: words with letters, not contact details, links, tokens or long text. */
export function isSendableValue(value: string): boolean {
  const text = value.trim();
  return text.length > 0 && text.length <= MAX_CELL_CHARS && LETTER.test(text) && !EMAIL_LIKE.test(text) && !LINK_LIKE.test(text) && !TOKEN_LIKE.test(text);
}

const HOUSE_NUMBER_ADDRESS = /^\d+[a-z]?(?:[-/]\d+)?,?\s+\p{L}|\p{L}{3,}\.?\s+\d+[a-z]?(?:[-/]\d+)?(?:,|$)/iu;
const LEGAL_FORM = /\b(inc|ltd|llc|llp|gmbh|ag|kg|ohg|ug|sa|sas|sarl|s\.?a\.?r\.?l|sasu|eurl|bv|nv|plc|corp|corporation|co|company|limited|srl|s\.?r\.?l|spa|s\.?p\.?a|oy|ab|as|a\/s|pty|pte|k\.?k)\.?$/i;
const PERSON_LIKE = /^\p{Lu}[\p{L}'’.-]*(?:\s+\p{Lu}[\p{L}'’.-]*){1,2}$/u;

/** The kind the values of a column suggest (a sample), null when they suggest none. */
export function kindOfValues(values: readonly string[]): ColumnKind | null {
  const texts = values.map((value) => value.trim()).filter((value) => value !== '');
  if (texts.length < 3) return null;
  const share = (test: (text: string) => boolean) => texts.filter(test).length / texts.length;
  if (share((text) => TOKEN_LIKE.test(text) || !LETTER.test(text)) >= 0.5) return null;
  if (share((text) => HOUSE_NUMBER_ADDRESS.test(text)) >= 0.6) return 'address';
  if (share((text) => LEGAL_FORM.test(text)) >= 0.4) return 'company';
  if (share((text) => PERSON_LIKE.test(text) && !LEGAL_FORM.test(text)) >= 0.7) return 'person';
  return null;
}

/** A column chosen for the review. */
export interface ChosenColumn {
  name: string;
  kind: ColumnKind;
}

/**
 * The columns to review: a private heading or one naming another thing never; a heading naming a kind,
 * unless its values mostly look like identifiers; a heading that says nothing, when its sampled values
 * suggest a kind.
 */
export function chooseColumns(columns: readonly string[], sample: ReadonlyArray<Record<string, string>>): ChosenColumn[] {
  const chosen: ChosenColumn[] = [];
  const seen = new Set<string>();
  for (const name of columns) {
    if (seen.has(name)) continue;
    seen.add(name);
    const verdict = headingVerdict(name);
    if (verdict === 'private' || verdict === 'other') continue;
    const values = sample.map((cells) => cells[name] ?? '').filter((value) => value.trim() !== '');
    const mostlyTokens = values.length > 0 && values.filter((value) => TOKEN_LIKE.test(value.trim())).length / values.length >= 0.5;
    if (mostlyTokens) continue;
    const kind = verdict ?? kindOfValues(values);
    if (kind) chosen.push({ name, kind });
  }
  return chosen;
}

/** The distinct sendable values of one chosen column, each with the rows that hold it. */
export interface ColumnValues {
  column: ChosenColumn;
  /** Value -> row numbers, in order of first appearance; at most `cap` values. */
  values: Map<string, number[]>;
  /** Cells whose value was not kept (the column has more than `cap` distinct values). */
  untracked: number;
}

/** Collects the distinct values of the chosen columns, row by row. */
export class ValueCollector {
  readonly columns: ColumnValues[];

  constructor(chosen: readonly ChosenColumn[], private readonly cap: number) {
    this.columns = chosen.map((column) => ({ column, values: new Map(), untracked: 0 }));
  }

  add(rowNumber: number, cells: Record<string, string>): void {
    for (const entry of this.columns) {
      const value = cells[entry.column.name];
      if (value === undefined) continue;
      const rows = entry.values.get(value);
      if (rows) rows.push(rowNumber);
      else if (!isSendableValue(value)) continue;
      else if (entry.values.size < this.cap) entry.values.set(value, [rowNumber]);
      else entry.untracked += 1;
    }
  }
}

/**
 * How many values each column may send within `cap`: an equal share each, what a small column leaves
 * going to the larger ones.
 */
export function shareCap(sizes: readonly number[], cap: number): number[] {
  const shares = sizes.map(() => 0);
  let left = cap;
  let open = sizes.map((_size, index) => index).filter((index) => sizes[index] > 0);
  while (left > 0 && open.length > 0) {
    const each = Math.max(1, Math.floor(left / open.length));
    for (const index of open) {
      const add = Math.min(each, sizes[index] - shares[index], left);
      shares[index] += add;
      left -= add;
      if (left === 0) break;
    }
    open = open.filter((index) => shares[index] < sizes[index]);
  }
  return shares;
}

/** One value the review asks about. */
export interface Cell {
  /** The value's number in its batch (what the model answers with). */
  id: number;
  column: ChosenColumn;
  value: string;
  /** Every row holding this value. */
  rows: number[];
}

export interface Plan {
  batches: Cell[][];
  /** Values sent in all. */
  cells: number;
  /** Cells (row by row) of the chosen columns whose value the cap left out. */
  leftOut: number;
  /** The cap left values out. */
  capped: boolean;
}

/** "Zürich", " zurich " -> "zurich": near spellings sort next to each other. */
function sortKey(value: string): string {
  return value.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim();
}

/**
 * The batches: each column's share of values, sorted so near spellings sit together; a column that
 * fits in one batch is never split over two (spellings are compared within a batch).
 */
export function planBatches(collected: readonly ColumnValues[], cap: number, batchCells: number): Plan {
  const shares = shareCap(collected.map((entry) => entry.values.size), cap);
  const batches: Cell[][] = [];
  let current: Array<Omit<Cell, 'id'>> = [];
  let cells = 0;
  let leftOut = 0;
  const flush = () => {
    if (current.length > 0) batches.push(current.map((cell, id) => ({ ...cell, id })));
    current = [];
  };
  collected.forEach((entry, index) => {
    const share = shares[index];
    const values = [...entry.values];
    leftOut += entry.untracked + values.slice(share).reduce((sum, [, rows]) => sum + rows.length, 0);
    if (share === 0) return;
    const kept = values.slice(0, share).map(([value, rows]) => ({ column: entry.column, value, rows }));
    kept.sort((a, b) => sortKey(a.value).localeCompare(sortKey(b.value)) || a.rows[0] - b.rows[0]);
    if (current.length + kept.length > batchCells && kept.length <= batchCells) flush();
    for (const cell of kept) {
      current.push(cell);
      if (current.length === batchCells) flush();
    }
    cells += share;
  });
  flush();
  return { batches, cells, leftOut, capped: leftOut > 0 };
}
