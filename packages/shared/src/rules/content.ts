/**
 * Rules of the email message's HTML (docs/email.md#composing) that the composer in the
 * web app and the server's mailing checks both apply.
 */
import { columnTags } from '../rows.ts';

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'", apos: "'", nbsp: ' ' };

/** A tag name as written in HTML (entities decoded): "{{A &amp; B}}" names the column "A & B". */
export function decodeTagName(name: string): string {
  return name.replace(/&(amp|lt|gt|quot|#39|apos|nbsp);/g, (_entity, key: string) => ENTITIES[key]!).trim();
}

/**
 * Columns named by the tags of an HTML text, as the mailing fills them: a tag is filled where it
 * stands in the HTML, so markup inside the braces is part of the name (and names no column).
 */
export function htmlColumnTags(html: string): string[] {
  return columnTags(html).map(decodeTagName);
}

/**
 * True when the message shows nothing: no image, and every block blank once tags, line breaks and
 * non-breaking spaces are gone. An image-only message is content (it is what the recipient sees).
 */
export function isMessageEmpty(html: string): boolean {
  if (/<img\b/i.test(html)) return false;
  const text = html
    .replace(/<!--[\s\S]*?-->/g, '')
    .replace(/<(script|style|title|head)\b[\s\S]*?<\/\1\s*>/gi, '')
    .replace(/<[^>]*>/g, '')
    .replace(/&nbsp;|&#160;|&#xa0;/gi, ' ');
  return text.replace(/[\s\u00a0\u200b-\u200d\u2060\ufeff]/g, '') === '';
}
