/**
 * Excel's "General" display of a number: at most 11 characters (12 with a minus sign), switching to
 * scientific notation (1.23457E+11) when the digits do not fit. Same results as SSF's General (a test
 * holds them equal) without its regular expressions; integers, the common case, take one String().
 */

const MAX_INTEGER = 1e11; // 11 digits

export function formatGeneral(value: number): string {
  if (Number.isInteger(value) && value < MAX_INTEGER && value > -MAX_INTEGER) return String(value);
  if (!Number.isFinite(value)) return Number.isNaN(value) ? '#NUM!' : '#DIV/0!';
  const exponent = Math.floor(Math.log(Math.abs(value)) * Math.LOG10E);
  let text: string;
  if (exponent >= -4 && exponent <= -1) text = value.toPrecision(10 + exponent);
  else if (Math.abs(exponent) <= 9) text = smallExponent(value);
  else if (exponent === 10) text = value.toFixed(10).slice(0, 12);
  else text = largeExponent(value);
  const upper = text.toUpperCase();
  return upper.includes('E') ? normalizeExponent(upper) : stripDecimals(upper);
}

function smallExponent(value: number): string {
  const width = value < 0 ? 12 : 11;
  let text = stripDecimals(value.toFixed(12));
  if (text.length <= width) return text;
  text = value.toPrecision(10);
  if (text.length <= width) return text;
  return value.toExponential(5);
}

function largeExponent(value: number): string {
  const text = stripDecimals(value.toFixed(11));
  return text.length > (value < 0 ? 12 : 11) || text === '0' || text === '-0' ? value.toPrecision(6) : text;
}

/** "1.2300" -> "1.23", "5.000" -> "5"; text without a point is returned as is. */
function stripDecimals(text: string): string {
  const point = text.indexOf('.');
  if (point < 0) return text;
  let end = text.length;
  while (end > point + 1 && text.charCodeAt(end - 1) === 48) end--;
  if (end === point + 1) end = point;
  return end === text.length ? text : text.slice(0, end);
}

/** "1.50000E+7" -> "1.5E+07": mantissa without trailing zeros, at least two exponent digits. */
function normalizeExponent(text: string): string {
  const e = text.indexOf('E');
  const mantissa = stripDecimals(text.slice(0, e));
  const sign = text[e + 1]!;
  const digits = text.slice(e + 2);
  return `${mantissa}E${sign}${digits.length < 2 ? `0${digits}` : digits}`;
}
