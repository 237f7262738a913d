/**
 * Row lists of docs/spreadsheets.md#row-selection: comma-separated numbers or ranges a-b, numbered as in
 * Excel ("1, 3, 5-12"). Malformed items (empty, more than one dash, a missing side, a non-numeric side)
 * are dropped, not errors. Returns the row numbers ascending, without duplicates.
 */
export function parseRowList(text: string, maxRow = Number.MAX_SAFE_INTEGER): number[] {
  const rows = new Set<number>();
  for (const rawItem of text.split(',')) {
    const item = rawItem.trim();
    if (item === '') continue;
    const sides = item.split('-');
    if (sides.length > 2) continue;
    const numbers = sides.map((side) => side.trim());
    if (numbers.some((side) => !/^\d+$/.test(side))) continue;
    const [from, to = from] = numbers.map(Number) as [number, number?];
    const low = Math.max(1, Math.min(from, to!));
    const high = Math.min(maxRow, Math.max(from, to!));
    for (let row = low; row <= high; row++) rows.add(row);
  }
  return [...rows].sort((a, b) => a - b);
}

/** The {{Column}} tags of a pattern, in order of appearance. */
export function columnTags(pattern: string): string[] {
  return columnTagSpans(pattern).map((tag) => tag.column);
}

/** Where each {{Column}} tag of a text stands ([start, end) in UTF-16 units) and the column it names. */
export function columnTagSpans(text: string): { start: number; end: number; column: string }[] {
  return [...text.matchAll(/\{\{\s*([^{}]+?)\s*\}\}/g)].map((match) => ({ start: match.index, end: match.index + match[0].length, column: match[1]! }));
}

export function hasColumnTags(pattern: string): boolean {
  return columnTags(pattern).length > 0;
}

/** Replaces each {{Column}} tag with the row's value for it. */
export function fillColumnTags(pattern: string, valueOf: (column: string) => string): string {
  return pattern.replace(/\{\{\s*([^{}]+?)\s*\}\}/g, (_tag, column: string) => valueOf(column));
}

/** Password rule of docs/merging.md#password-protection: Latin letters, digits and !@#$%^&*() only, no spaces. */
export const PASSWORD_CHARACTERS = /^[A-Za-z0-9!@#$%^&*()]*$/;

/** Checks a password that may hold column tags: the literal parts must follow the rule. */
export function isValidPasswordPattern(pattern: string): boolean {
  return PASSWORD_CHARACTERS.test(pattern.replace(/\{\{\s*([^{}]+?)\s*\}\}/g, ''));
}
