/**
 * Just enough XML for WordprocessingML parts: a flat token list (tags, text, the rest), entity
 * decoding of text and attributes, and escaping for what the filler writes. No DTD is ever read:
 * a part declaring one (DOCTYPE, ENTITY) is refused, so entity expansion cannot happen
 * (docs/word-templates.md#what-is-refused).
 */
import { SheafError } from '@sheaf/shared';

export type TokenKind = 'open' | 'close' | 'empty' | 'text' | 'other';

export interface Token {
  /** The token's bytes as written in the part. */
  raw: string;
  kind: TokenKind;
  /** Qualified element name for tags ("w:t"), "" otherwise. */
  name: string;
}

const TOKEN =
  /<!--[\s\S]*?-->|<!\[CDATA\[[\s\S]*?\]\]>|<\?[\s\S]*?\?>|<(\/?)([A-Za-z_][\w.:-]*)((?:[^>"']|"[^"]*"|'[^']*')*)>|[^<]+/y;
const DECLARATION = /<!DOCTYPE|<!ENTITY/i;

export function notDocx(detail: string): SheafError {
  return new SheafError('template/word-not-docx', { detail });
}

/** The part's tokens; refuses DTDs and anything that is not well-formed at the token level. */
export function tokenize(xml: string, partName: string): Token[] {
  if (DECLARATION.test(xml)) throw new SheafError('template/word-entities');
  const tokens: Token[] = [];
  TOKEN.lastIndex = 0;
  while (TOKEN.lastIndex < xml.length) {
    const at = TOKEN.lastIndex;
    const match = TOKEN.exec(xml);
    if (!match) throw notDocx(`${partName}: malformed XML at offset ${at}`);
    const raw = match[0];
    if (match[2] !== undefined) {
      const closing = match[1] === '/';
      const selfClosing = !closing && match[3]!.endsWith('/');
      tokens.push({ raw, kind: closing ? 'close' : selfClosing ? 'empty' : 'open', name: match[2] });
    } else {
      tokens.push({ raw, kind: raw.startsWith('<') ? 'other' : 'text', name: '' });
    }
  }
  return tokens;
}

const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** Text or an attribute value with its references resolved; only XML's five names exist without a DTD. */
export function decodeXml(text: string, partName: string): string {
  if (!text.includes('&')) return text;
  return text.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|[A-Za-z]+);|&/g, (reference, body: string | undefined) => {
    if (body === undefined) throw notDocx(`${partName}: a bare "&" in text`);
    if (body.startsWith('#')) {
      const code = body.startsWith('#x') ? Number.parseInt(body.slice(2), 16) : Number.parseInt(body.slice(1), 10);
      if (!(code <= 0x10ffff)) throw notDocx(`${partName}: character reference ${reference} out of range`);
      return String.fromCodePoint(code);
    }
    const named = NAMED[body];
    if (named === undefined) throw notDocx(`${partName}: unknown entity ${reference}`);
    return named;
  });
}

/** Characters XML 1.0 does not allow at all (controls other than tab and line breaks, lone surrogates, U+FFFE/F). */
// eslint-disable-next-line no-control-regex -- control characters are what this finds
const NOT_XML = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

export function escapeXml(text: string): string {
  return text.replace(NOT_XML, '').replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

export function escapeAttribute(text: string): string {
  return escapeXml(text).replace(/"/g, '&quot;');
}

/** The value of attribute `name` in a tag's raw text, decoded; undefined when absent. */
export function attribute(raw: string, name: string, partName: string): string | undefined {
  const escaped = name.replace(/[.:]/g, (char) => `\\${char}`);
  const match = new RegExp(`\\s${escaped}\\s*=\\s*(?:"([^"]*)"|'([^']*)')`).exec(raw);
  if (!match) return undefined;
  return decodeXml(match[1] ?? match[2]!, partName);
}

/**
 * A value as the body of a w:t element: escaped, line breaks as w:br and tabs as w:tab (each closes
 * the text element and opens a new one in the same run, so the run's formatting covers all of it).
 */
export function runText(value: string): string {
  // eslint-disable-next-line no-control-regex -- Word's vertical tab is its soft line break
  return escapeXml(value.replace(/\u000b/g, '\n'))
    .replace(/\r\n|\r|\n|\u2028|\u2029/g, '</w:t><w:br/><w:t xml:space="preserve">')
    .replace(/\t/g, '</w:t><w:tab/><w:t xml:space="preserve">');
}
