/**
 * What the spam rules need to know about a message's HTML: the text a reader sees, the text styled
 * out of sight, the links and the images. A small tolerant scanner rather than a DOM: the content is
 * the rich-text editor's output, and the rules need only tags, a few attributes and the text between.
 */

export interface HtmlLink {
  href: string;
  /** The link's visible text, whitespace collapsed. */
  text: string;
}

export interface HtmlFacts {
  /** What a reader sees, whitespace collapsed: link texts included, image alt texts not. */
  text: string;
  /** Text nobody sees: display:none, visibility:hidden, opacity 0, a font size of 1px or less, white without a background. */
  hiddenText: string;
  links: HtmlLink[];
  images: number;
  /** The HTML's size in UTF-8 bytes. */
  bytes: number;
}

interface Open {
  name: string;
  hidden: boolean;
  /** The text colour in effect is white (or nearly). */
  white: boolean;
  /** This element or one around it paints a background, so white text may be readable. */
  onBackground: boolean;
}

const VOID = new Set(['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'source', 'track', 'wbr']);
const SELF_CLOSING = new Set(['p', 'li', 'td', 'th', 'tr', 'option']);
/** Elements that do not break a line: no space is added at their edges ("<b>Hel</b>lo" stays one word). */
const INLINE = new Set(['a', 'abbr', 'b', 'bdi', 'bdo', 'big', 'cite', 'code', 'em', 'font', 'i', 'kbd', 'mark', 'q', 's', 'small', 'span', 'strike', 'strong', 'sub', 'sup', 'u']);
/** Never shown: their content is not text of the message. */
const NOT_SHOWN = /<(script|style|head|title|template|noscript)\b[\s\S]*?<\/\1\s*>/gi;
const TAG = /<(\/?)([a-zA-Z][\w:-]*)((?:"[^"]*"|'[^']*'|[^'">])*)>|<!--[\s\S]*?(?:-->|$)|<![^>]*>/g;
const ATTRIBUTE = /([^\s"'=<>/]+)(?:\s*=\s*("[^"]*"|'[^']*'|[^\s>]+))?/g;
const NAMED_ENTITIES: Record<string, string> = {
  amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', copy: '©', reg: '®', trade: '™', euro: '€', pound: '£',
  yen: '¥', cent: '¢', hellip: '…', ndash: '–', mdash: '—', lsquo: '‘', rsquo: '’', ldquo: '“', rdquo: '”', laquo: '«', raquo: '»',
};

export function decodeEntities(text: string): string {
  return text.replace(/&(#\d{1,7}|#x[0-9a-f]{1,6}|[a-z]{2,8});/gi, (entity, name: string) => {
    if (name[0] === '#') {
      const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : entity;
    }
    return NAMED_ENTITIES[name.toLowerCase()] ?? entity;
  });
}

export function readHtml(html: string): HtmlFacts {
  const visible: string[] = [];
  const hidden: string[] = [];
  const links: HtmlLink[] = [];
  let images = 0;
  let link: { href: string; parts: string[] } | null = null;
  let lastInto = visible;
  const stack: Open[] = [{ name: '#root', hidden: false, white: false, onBackground: false }];
  const addText = (raw: string) => {
    const text = decodeEntities(raw);
    const top = stack[stack.length - 1]!;
    const invisible = top.hidden || (top.white && !top.onBackground);
    const into = invisible ? hidden : visible;
    // Text on either side of a stretch of the other kind is not one word ("a<span hidden>b</span>c").
    if (into !== lastInto) into.push(' ');
    lastInto = into;
    into.push(text);
    if (link && !invisible) link.parts.push(text);
  };
  const closeLink = () => {
    if (link) links.push({ href: link.href, text: collapse(link.parts.join('')) });
    link = null;
  };

  const source = html.replace(NOT_SHOWN, ' ');
  let last = 0;
  for (const match of source.matchAll(TAG)) {
    addText(source.slice(last, match.index));
    last = match.index + match[0].length;
    const name = match[2]?.toLowerCase();
    if (!name) continue; // a comment or a doctype
    if (!INLINE.has(name)) addText(' ');
    if (match[1]) {
      // A closing tag closes everything opened inside it that was left open (tolerant, like browsers).
      const at = stack.findLastIndex((open) => open.name === name);
      if (at > 0) stack.length = at;
      if (name === 'a') closeLink();
      continue;
    }
    const attributes = readAttributes(match[3] ?? '');
    if (name === 'img') images += 1;
    if (name === 'a' && attributes.href !== undefined) {
      closeLink();
      link = { href: attributes.href.trim(), parts: [] };
    }
    // A new paragraph, list item or cell ends an open one of its kind, as in browsers.
    if (SELF_CLOSING.has(name) && stack[stack.length - 1]!.name === name) stack.pop();
    if (!VOID.has(name) && !/\/\s*$/.test(match[3] ?? '')) stack.push(openElement(name, attributes, stack[stack.length - 1]!));
  }
  addText(source.slice(last));
  closeLink();
  return { text: collapse(visible.join('')), hiddenText: collapse(hidden.join('')), links, images, bytes: Buffer.byteLength(html, 'utf8') };
}

function readAttributes(text: string): Record<string, string> {
  const attributes: Record<string, string> = {};
  for (const [, name, rawValue] of text.matchAll(ATTRIBUTE)) {
    const value = rawValue?.replace(/^["']|["']$/g, '') ?? '';
    attributes[name!.toLowerCase()] ??= decodeEntities(value);
  }
  return attributes;
}

function openElement(name: string, attributes: Record<string, string>, parent: Open): Open {
  const style = readStyle(attributes.style ?? '');
  const color = style.color ?? (name === 'font' ? attributes.color : undefined);
  const background = style['background-color'] ?? style.background ?? attributes.bgcolor;
  const hidden = parent.hidden
    || attributes.hidden !== undefined
    || style.display === 'none'
    || style.visibility === 'hidden'
    || (style.opacity !== undefined && parseFloat(style.opacity) === 0)
    || (style['font-size'] !== undefined && isTinyFontSize(style['font-size']));
  return {
    name,
    hidden,
    white: color !== undefined ? isWhite(color) : parent.white,
    onBackground: parent.onBackground || (background !== undefined && !isWhite(background) && !/^(transparent|none|inherit|initial|unset)$/i.test(background.trim())),
  };
}

function readStyle(style: string): Record<string, string> {
  const declarations: Record<string, string> = {};
  for (const declaration of style.split(';')) {
    const colon = declaration.indexOf(':');
    if (colon > 0) declarations[declaration.slice(0, colon).trim().toLowerCase()] = declaration.slice(colon + 1).replace(/!important/i, '').trim().toLowerCase();
  }
  return declarations;
}

/** 0, 1px, 1pt, 0.1em, 10% or smaller: nobody reads that. */
function isTinyFontSize(value: string): boolean {
  const match = /^(-?[\d.]+)\s*(px|pt|em|rem|%)?$/.exec(value);
  if (!match) return false;
  const size = parseFloat(match[1]!);
  const unit = match[2] ?? 'px';
  const limit = unit === 'px' || unit === 'pt' ? 1 : unit === '%' ? 10 : 0.1;
  return size <= limit;
}

/** White, or so close to it (every channel 250 or more) that on white paper it cannot be seen. */
export function isWhite(color: string): boolean {
  const value = color.trim().toLowerCase();
  if (value === 'white') return true;
  let channels: number[] | undefined;
  const hex = /^#([0-9a-f]{3,4}|[0-9a-f]{6}|[0-9a-f]{8})$/.exec(value);
  if (hex) {
    const digits = hex[1]!.length <= 4 ? [...hex[1]!].map((digit) => digit + digit) : hex[1]!.match(/../g)!;
    channels = digits.slice(0, 3).map((pair) => parseInt(pair, 16));
  }
  const rgb = /^rgba?\(\s*(\d+)[\s,]+(\d+)[\s,]+(\d+)/.exec(value);
  if (rgb) channels = rgb.slice(1, 4).map(Number);
  return channels !== undefined && channels.every((channel) => channel >= 250);
}

const collapse = (text: string) => text.replace(/\s+/g, ' ').trim();
