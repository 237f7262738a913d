/**
 * The message the spam rules judge, and what is read from it once for all rules (spam-rules.ts):
 * visible text, words, links with their hosts. Pure functions: no I/O.
 */
import { readHtml, type HtmlFacts } from './spam-html.ts';
import { TRIGGER_PHRASES } from './spam-lists.ts';

export interface SpamSender {
  /** null when the sender is unknown (deleted, or the senders module cannot tell). */
  method: 'spoof' | 'domain' | 'smtp' | null;
  /** The From address; null when unknown. */
  address: string | null;
  isVerified: boolean;
  isDkimVerified: boolean;
}

/** One message as it would be sent: tags filled from a row where a spreadsheet allows. */
export interface SpamMessage {
  subject: string;
  /** The content: the editor's HTML (plain text works too). */
  html: string;
  /** The display name recipients see; '' for none. */
  fromName: string;
  /** '' for none. */
  replyTo: string;
  attachmentNames: readonly string[];
  /** null while no sender is chosen. */
  sender: SpamSender | null;
  /**
   * The column tags were filled from a spreadsheet row, so a tag left over names no heading. False
   * without a spreadsheet: tags then stay as written and say nothing about the message.
   */
  tagsFilled: boolean;
}

export interface WebLink {
  href: string;
  text: string;
  /** Host without a leading "www.", lower case. */
  host: string;
}

export interface SpamView extends SpamMessage {
  content: HtmlFacts;
  /** Words of the visible text; a Chinese or Japanese character counts as one. */
  words: number;
  /** http(s) links only: mailto and tel links lead nowhere a filter worries about. */
  webLinks: WebLink[];
}

export function analyse(message: SpamMessage): SpamView {
  const content = readHtml(message.html);
  const webLinks = content.links.flatMap((link) => {
    const host = hostOf(link.href);
    return host ? [{ href: link.href, text: link.text, host }] : [];
  });
  return { ...message, content, words: countWords(content.text), webLinks };
}

export function countWords(text: string): number {
  return text.match(/[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]|[\p{L}\p{N}]+(?:['’-][\p{L}\p{N}]+)*/gu)?.length ?? 0;
}

/** Letters that have a case, and how many of them are capitals. */
export function capitals(text: string): { letters: number; upper: number } {
  let letters = 0;
  let upper = 0;
  for (const char of text) {
    const lower = char.toLowerCase();
    const capital = char.toUpperCase();
    if (lower === capital) continue;
    letters += 1;
    if (char === capital) upper += 1;
  }
  return { letters, upper };
}

/** The host of an http(s) URL without "www.", or null for anything else. */
export function hostOf(url: string): string | null {
  try {
    const parsed = new URL(url.trim());
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return null;
    return parsed.hostname.toLowerCase().replace(/^www\./, '') || null;
  } catch {
    return null;
  }
}

/** Same site: equal, or one a subdomain of the other (example.com and mail.example.com). */
export function sameSite(a: string, b: string): boolean {
  return a === b || a.endsWith(`.${b}`) || b.endsWith(`.${a}`);
}

/** Top-level domains a bare "name.tld" link text is read as a web address with ("invoice.pdf" is not one). */
const COMMON_TLDS = new Set(['com', 'net', 'org', 'info', 'biz', 'io', 'co', 'app', 'dev', 'eu', 'de', 'at', 'ch', 'fr', 'es', 'it', 'nl', 'be', 'uk', 'us', 'ca', 'au', 'cn', 'ru', 'pl', 'se', 'xyz', 'online', 'shop']);
const URL_IN_TEXT = /(?:https?:\/\/|www\.)[^\s<>"']+/i;

/** The host a link's text shows: the text is a web address, or holds one ("Visit www.example.com"). */
export function shownHost(text: string): string | null {
  const whole = text.trim();
  const bare = /^(?:[a-z0-9-]+\.)+([a-z]{2,63})(?:[/?#]\S*)?$/i.exec(whole);
  if (bare && COMMON_TLDS.has(bare[1]!.toLowerCase())) return hostOf(`http://${whole}`);
  const found = URL_IN_TEXT.exec(whole)?.[0];
  if (!found) return null;
  return hostOf(/^https?:/i.test(found) ? found : `http://${found}`);
}

/** The domain of an address ("Anna <anna@Example.com>" -> example.com); null when it has none. */
export function domainOf(address: string): string | null {
  const plain = /<([^>]*)>/.exec(address)?.[1] ?? address;
  const at = plain.lastIndexOf('@');
  const domain = at >= 0 ? plain.slice(at + 1).trim().toLowerCase().replace(/\.$/, '') : '';
  return /^[^\s@]+\.[^\s@]+$/.test(domain) ? domain : null;
}

const PHRASE_MATCHERS = Object.values(TRIGGER_PHRASES).flat().map((phrase) => {
  const escaped = phrase.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  // Whole words for scripts with spaces ("winner" is not in "winnerless"); Chinese has no spaces.
  const pattern = /\p{Script=Han}/u.test(phrase) ? new RegExp(escaped, 'u') : new RegExp(`(?<![\\p{L}\\p{N}])${escaped}(?![\\p{L}\\p{N}])`, 'u');
  return { phrase, pattern };
});

/** The trigger phrases of every language found in the text, each once. */
export function triggerPhrases(text: string): string[] {
  const normal = text.toLowerCase().replace(/[‘’]/g, "'").replace(/\s+/g, ' ');
  return [...new Set(PHRASE_MATCHERS.filter(({ pattern }) => pattern.test(normal)).map(({ phrase }) => phrase))];
}
