import type { CellValue } from '../sheet/types.ts';

const pad2 = (value: number) => String(value).padStart(2, '0');

/**
 * A value a formatter could not read, as plain text: strings as they are, booleans as Excel shows
 * them, dates as ISO calendar dates (UTC fields, the engine's convention), nothing for empty cells
 * and non-finite numbers (never "NaN").
 */
export function cellText(value: CellValue): string {
  if (value === null) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  const time = value.getTime();
  if (Number.isNaN(time)) return '';
  const date = `${String(value.getUTCFullYear()).padStart(4, '0')}-${pad2(value.getUTCMonth() + 1)}-${pad2(value.getUTCDate())}`;
  const seconds = Math.floor(time / 1000) % 86_400;
  if (seconds === 0) return date;
  return `${date} ${pad2(value.getUTCHours())}:${pad2(value.getUTCMinutes())}:${pad2(value.getUTCSeconds())}`;
}
