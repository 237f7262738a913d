/**
 * The message text: the editor's HTML sanitised to a safe allow-list, column tags ({{Column}}) found
 * and filled per row (values HTML-escaped in HTML), and the plain-text alternative.
 */
import { createRequire } from 'node:module';
import type sanitizeHtml from 'sanitize-html';
import type { compile } from 'html-to-text';
import { decodeTagName, fillColumnTags, isMessageEmpty } from '@sheaf/shared';

// sanitize-html (with postcss and htmlparser2) and html-to-text are loaded with the first message handled,
// not at server start.
const requireHere = createRequire(import.meta.url);
let sanitizer: typeof sanitizeHtml | undefined;
const loadSanitizer = () => (sanitizer ??= requireHere('sanitize-html') as typeof sanitizeHtml);

// Tag names and the empty-message rule are the shared ones the composer applies (packages/shared/src/rules/content.ts).
export { decodeTagName, htmlColumnTags } from '@sheaf/shared';

const SAFE_STYLE = [/^[#(),.%\s\w-]{1,64}$/];

const SANITIZE_OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: [
    'p', 'br', 'div', 'span', 'b', 'strong', 'i', 'em', 'u', 's', 'strike', 'sub', 'sup', 'small', 'mark', 'code', 'pre',
    'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'ul', 'ol', 'li', 'blockquote', 'hr', 'a', 'img',
    'table', 'thead', 'tbody', 'tr', 'th', 'td',
  ],
  allowedAttributes: {
    a: ['href', 'title', 'target', 'rel'],
    img: ['src', 'alt', 'width', 'height', 'title'],
    td: ['colspan', 'rowspan'],
    th: ['colspan', 'rowspan'],
    '*': ['style'],
  },
  allowedStyles: {
    '*': {
      color: SAFE_STYLE, 'background-color': SAFE_STYLE, 'text-align': [/^(left|right|center|justify)$/],
      'font-size': SAFE_STYLE, 'font-weight': SAFE_STYLE, 'font-style': SAFE_STYLE, 'text-decoration': SAFE_STYLE,
    },
  },
  allowedSchemes: ['http', 'https', 'mailto'],
  allowedSchemesByTag: { img: ['http', 'https'] },
  allowProtocolRelative: false,
  disallowedTagsMode: 'discard',
};

/** The editor's HTML reduced to tags and attributes that are safe in every mail client. */
export function sanitizeContent(html: string): string {
  return loadSanitizer()(html, SANITIZE_OPTIONS);
}

/** True when the content shows nothing (an image is content): the composer's rule, on the sanitised HTML. */
export function isContentEmpty(html: string): boolean {
  return isMessageEmpty(sanitizeContent(html));
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

/** Fills the tags of an HTML text with the row's values, escaped. */
export function fillHtml(html: string, valueOf: (column: string) => string): string {
  return fillColumnTags(html, (name) => escapeHtml(valueOf(decodeTagName(name))));
}

/** Fills the tags of a plain text (subject, reply-to). */
export function fillText(text: string, valueOf: (column: string) => string): string {
  return fillColumnTags(text, (name) => valueOf(name.trim()));
}

let toText: ReturnType<typeof compile> | undefined;

/** The plain-text alternative of an HTML message. */
export function plainText(html: string): string {
  toText ??= (requireHere('html-to-text') as { compile: typeof compile }).compile({
    wordwrap: false,
    selectors: [{ selector: 'img', format: 'skip' }, { selector: 'a', options: { hideLinkHrefIfSameAsText: true } }],
  });
  return toText(html);
}
