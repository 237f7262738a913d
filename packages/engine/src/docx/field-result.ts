/**
 * What Word prints for a `=` or `IF` field whose nested fields were written in as text
 * (batch-numbering.ts: `{ = { NUMPAGES } - 1 }` reads `= 2 - 1`), which LibreOffice 7.4 does not
 * compute: it prints a `=` field's saved result and nothing for an `IF`. Only plain arithmetic and
 * comparisons are computed; anything else (bookmarks, functions, wildcards) is left to LibreOffice.
 */
import { fieldNumberText } from './number-format.ts';

/** The field's printed text, or undefined when it is neither a `=` nor an `IF` field this computes. */
export function computedFieldText(instruction: string): string | undefined {
  const formula = /^\s*=\s*([^\\]*)/.exec(instruction);
  if (formula) {
    const value = arithmetic(formula[1]!);
    return value === undefined ? undefined : fieldNumberText(value, instruction);
  }
  const condition = /^\s*IF\s+([^\\]*)/i.exec(instruction);
  return condition ? ifText(condition[1]!) : undefined;
}

/** `left op right "true text" "false text"`, quotes optional: the text Word's IF chooses. */
function ifText(argumentsText: string): string | undefined {
  const parts = [...argumentsText.matchAll(/"([^"]*)"|(\S+)/g)].map((match) => ({ text: match[1] ?? match[2]!, quoted: match[1] !== undefined }));
  if (parts.length < 3 || parts.length > 5) return undefined;
  const [left, operator, right, whenTrue, whenFalse] = parts;
  const result = compare(left!, operator!.text, right!);
  if (result === undefined) return undefined;
  return (result ? whenTrue?.text : whenFalse?.text) ?? '';
}

/** Numbers compare as numbers, other text as text for = and <> (Word's ? and * wildcards are not read). */
function compare(left: { text: string; quoted: boolean }, operator: string, right: { text: string; quoted: boolean }): boolean | undefined {
  const [a, b] = [left, right].map((side) => arithmetic(side.text));
  if (a !== undefined && b !== undefined) {
    const comparisons: Record<string, boolean> = { '=': a === b, '<>': a !== b, '<': a < b, '<=': a <= b, '>': a > b, '>=': a >= b };
    return comparisons[operator];
  }
  if (/[?*]/.test(left.text + right.text) || (operator !== '=' && operator !== '<>')) return undefined;
  return (left.text === right.text) === (operator === '=');
}

/** The value of plain arithmetic (numbers, + - * / ^ %, parentheses), or undefined for anything else. */
function arithmetic(expression: string): number | undefined {
  const tokens = expression.match(/\d+(?:\.\d+)?|\.\d+|[-+*/^%()]|\S+/g) ?? [];
  let at = 0;
  const peek = () => tokens[at];
  // Word's precedence: ^ over * and /, over + and -; % after a number is a percentage.
  const primary = (): number | undefined => {
    const token = tokens[at++];
    if (token === '-') {
      const value = primary();
      return value === undefined ? undefined : -value;
    }
    if (token === '+') return primary();
    if (token === '(') {
      const value = sum();
      return tokens[at++] === ')' ? value : undefined;
    }
    if (token === undefined || !/^(?:\d|\.\d)/.test(token)) return undefined;
    let value = Number(token);
    if (peek() === '%') {
      at++;
      value /= 100;
    }
    return value;
  };
  const power = (): number | undefined => {
    const base = primary();
    if (base === undefined || peek() !== '^') return base;
    at++;
    const exponent = power();
    return exponent === undefined ? undefined : base ** exponent;
  };
  const product = (): number | undefined => {
    let value = power();
    while (value !== undefined && (peek() === '*' || peek() === '/')) {
      const operator = tokens[at++];
      const next = power();
      value = next === undefined ? undefined : operator === '*' ? value * next : value / next;
    }
    return value;
  };
  const sum = (): number | undefined => {
    let value = product();
    while (value !== undefined && (peek() === '+' || peek() === '-')) {
      const operator = tokens[at++];
      const next = product();
      value = next === undefined ? undefined : operator === '+' ? value + next : value - next;
    }
    return value;
  };
  const value = sum();
  return value !== undefined && at === tokens.length && Number.isFinite(value) ? value : undefined;
}
