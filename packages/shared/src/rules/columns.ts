/**
 * Which spreadsheet heading a placeholder or a {{Column}} tag names. One rule for the editor, the
 * email and output checks of the web app, the server's request checks and the engine's merge:
 * the exact heading first, else the heading equal once both are trimmed and compared without case
 * ("email" fills from "Email "). A name that matches this way is a match everywhere: the editor
 * does not flag it and the merge fills from it.
 */
import { columnTags } from '../rows.ts';

const loose = (name: string): string => name.trim().toLowerCase();

/** Heading -> column index, or undefined when no heading matches. */
export function columnIndex(headers: readonly string[], column: string): number | undefined {
  const exact = headers.indexOf(column);
  if (exact >= 0) return exact;
  const wanted = loose(column);
  const found = headers.findIndex((heading) => loose(heading) === wanted);
  return found >= 0 ? found : undefined;
}

export const hasColumn = (headers: readonly string[], column: string): boolean => columnIndex(headers, column) !== undefined;

/** The first {{Column}} tag of `text` that names no heading, or null. */
export function firstUnknownTag(text: string, headers: readonly string[]): string | null {
  return columnTags(text).find((column) => !hasColumn(headers, column)) ?? null;
}
