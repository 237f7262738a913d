/**
 * The spam review (docs/email.md#spam-score): transparent rules over one composed message. Each rule has
 * a catalogue code ('spam/...', its English text is the suggestion), a category and the points it takes
 * off a clean 10. Score = 10 minus the points, rounded, kept within 1..10 (0 means "not calculated").
 * Pure: message in, score and findings out.
 */
import { SPAM_CATEGORIES, columnTags, formatErrorMessage, type ErrorCode, type SpamScore } from '@sheaf/shared';
import { NO_REPLY, OPT_OUT, RISKY_EXTENSIONS, URL_SHORTENERS } from './spam-lists.ts';
import { analyse, capitals, countWords, domainOf, sameSite, shownHost, triggerPhrases, type SpamMessage, type SpamView } from './spam-message.ts';

type Category = (typeof SPAM_CATEGORIES)[number];
type Params = Record<string, string | number>;
type SpamCode = Extract<ErrorCode, `spam/${string}`>;

interface Hit {
  params?: Params;
  /** How many times the points apply (capped by the rule's maxUnits). */
  units?: number;
}

export interface SpamRule {
  code: SpamCode;
  category: Category;
  points: number;
  maxUnits?: number;
  check(view: SpamView): Hit | null;
}

export const SHORT_TEXT_WORDS = 10;
export const MANY_IMAGES = 6;
export const WORDS_PER_LINK = 15;
export const SHOUTING_SHARE = 0.35;
export const MAX_SUBJECT_LENGTH = 80;
/** Gmail clips messages above 102 KB; a little below that is the warning line. */
export const MAX_HTML_KB = 100;

const hit = (params?: Params): Hit => (params ? { params } : {});
const all = (view: SpamView) => `${view.subject} ${view.content.text}`;
const isAllCaps = (text: string, minLetters: number, share = 1) => {
  const { letters, upper } = capitals(text);
  return letters >= minLetters && upper / letters >= share;
};
const list = (items: readonly string[]) => items.slice(0, 5).join(', ');

export const SPAM_RULES: readonly SpamRule[] = [
  // clarity: can the recipient tell what this is?
  // An empty subject looks careless and is a classic bulk-mail trait.
  { code: 'spam/subject-missing', category: 'clarity', points: 2, check: (v) => (v.subject.trim() === '' ? hit() : null) },
  // Long subjects are cut off in inboxes and read as marketing copy.
  { code: 'spam/subject-long', category: 'clarity', points: 0.5, check: (v) => ([...v.subject].length >= MAX_SUBJECT_LENGTH ? hit({ length: [...v.subject].length, max: MAX_SUBJECT_LENGTH }) : null) },
  // No words at all: filters have nothing to judge but the attachment (images are judged by image-only).
  { code: 'spam/text-missing', category: 'clarity', points: 2.5, check: (v) => (v.words === 0 && v.content.images === 0 ? hit() : null) },
  // "See attached." and nothing else is how malware mail looks.
  { code: 'spam/text-short', category: 'clarity', points: 1, check: (v) => (v.words > 0 && v.words < SHORT_TEXT_WORDS && v.content.images === 0 ? hit({ words: v.words }) : null) },
  // Recipients would read "{{First}}": the tag names no heading of the spreadsheet.
  { code: 'spam/unfilled-tags', category: 'clarity', points: 2, check: (v) => {
    if (!v.tagsFilled) return null;
    const tags = [...new Set(columnTags([v.subject, v.content.text, v.replyTo, ...v.content.links.map((link) => link.href)].join(' ')))];
    return tags.length ? hit({ tags: list(tags.map((tag) => `{{${tag}}}`)) }) : null;
  } },
  // Gmail clips larger messages ("[Message clipped]"), hiding the rest and any opt-out line.
  { code: 'spam/html-large', category: 'clarity', points: 1, check: (v) => (v.content.bytes > MAX_HTML_KB * 1024 ? hit({ sizeKb: Math.ceil(v.content.bytes / 1024), maxKb: MAX_HTML_KB }) : null) },

  // engagement: does it read like a message to a person rather than an advert?
  // Many links in little text is the shape of link spam.
  { code: 'spam/link-ratio', category: 'engagement', points: 1.5, check: (v) => (v.webLinks.length >= 2 && v.words / v.webLinks.length < WORDS_PER_LINK ? hit({ links: v.webLinks.length, words: v.words }) : null) },
  // Text hidden in an image cannot be read by filters, which is why spammers do it.
  { code: 'spam/image-only', category: 'engagement', points: 3, check: (v) => (v.content.images > 0 && v.words < SHORT_TEXT_WORDS ? hit({ images: v.content.images }) : null) },
  // Image-heavy mail is newsletter-like; many clients also block images by default.
  { code: 'spam/many-images', category: 'engagement', points: 1, check: (v) => (v.content.images >= MANY_IMAGES ? hit({ images: v.content.images }) : null) },
  // Bulk mail without a way out is what laws (CAN-SPAM, GDPR) and filters punish.
  { code: 'spam/no-unsubscribe', category: 'engagement', points: 1, check: (v) => (OPT_OUT.test(v.content.text) || v.content.links.some((link) => OPT_OUT.test(link.href)) ? null : hit()) },

  // indicators: the classic signals content filters score.
  // SHOUTING is one of the oldest spam scores (SpamAssassin's UPPERCASE_* rules). Words of five letters
  // or more only: acronyms (VAT, IBAN, PDF) are short and not shouting.
  { code: 'spam/shouting', category: 'indicators', points: 2, check: (v) => {
    const { letters, upper } = capitals(v.content.text.match(/\p{L}{5,}/gu)?.join(' ') ?? '');
    return letters >= 15 && upper / letters >= SHOUTING_SHARE ? hit({ percent: Math.round((upper / letters) * 100) }) : null;
  } },
  // Each trigger phrase adds a little, as in content filters; three or more count as three.
  { code: 'spam/trigger-phrases', category: 'indicators', points: 1, maxUnits: 3, check: (v) => {
    const found = triggerPhrases(all(v));
    return found.length ? { params: { phrases: list(found.map((phrase) => `"${phrase}"`)) }, units: found.length } : null;
  } },
  // "!!!" and "$$$" are what excited sales copy looks like.
  { code: 'spam/punctuation', category: 'indicators', points: 1.5, check: (v) => {
    const run = /[!?¡¿]{3,}|[$€£¥]{3,}/.exec(all(v));
    return run ? hit({ example: run[0] }) : null;
  } },
  { code: 'spam/subject-caps', category: 'indicators', points: 1.5, check: (v) => (isAllCaps(v.subject, 5, 0.8) ? hit() : null) },
  // A shortener hides the destination, so filters distrust it (and many shortener domains are blocklisted).
  { code: 'spam/link-shortener', category: 'indicators', points: 2, check: (v) => {
    const hosts = [...new Set(v.webLinks.map((link) => link.host).filter((host) => URL_SHORTENERS.has(host)))];
    return hosts.length ? hit({ hosts: list(hosts) }) : null;
  } },
  // Text showing one site while the link goes to another is what phishing does.
  { code: 'spam/link-mismatch', category: 'indicators', points: 3, check: (v) => {
    for (const link of v.webLinks) {
      const shown = shownHost(link.text);
      if (shown && !sameSite(shown, link.host)) return hit({ shown, target: link.host });
    }
    return null;
  } },
  // Programs, scripts and macro documents are quarantined or stripped by most mail filters.
  { code: 'spam/risky-attachment', category: 'indicators', points: 3, check: (v) => {
    const risky = v.attachmentNames.filter((name) => RISKY_EXTENSIONS.has(name.split('.').pop()!.toLowerCase()) && name.includes('.'));
    return risky.length ? hit({ names: list(risky) }) : null;
  } },
  // Text the reader cannot see is there for the filter: keyword stuffing.
  { code: 'spam/hidden-text', category: 'indicators', points: 3, check: (v) => (countWords(v.content.hiddenText) > 0 ? hit() : null) },

  // legitimacy: is the sender who they say they are?
  { code: 'spam/from-name-missing', category: 'legitimacy', points: 1, check: (v) => (v.fromName.trim() === '' ? hit() : null) },
  { code: 'spam/from-name-caps', category: 'legitimacy', points: 1, check: (v) => (isAllCaps(v.fromName, 4) ? hit() : null) },
  // Nobody can answer a no-reply sender; mailbox providers count replies as a sign of wanted mail.
  { code: 'spam/from-name-noreply', category: 'legitimacy', points: 1.5, check: (v) => (NO_REPLY.test(v.fromName) || NO_REPLY.test(v.sender?.address?.split('@')[0] ?? '') ? hit() : null) },
  // Replies diverted to another domain is a phishing pattern. Spoof senders are exempt: they always
  // send from the product's domain with the user's own address to reply to.
  { code: 'spam/reply-to-mismatch', category: 'legitimacy', points: 1, check: (v) => {
    const replyDomain = domainOf(v.replyTo);
    const fromDomain = v.sender?.address ? domainOf(v.sender.address) : null;
    if (!replyDomain || !fromDomain || v.sender?.method === 'spoof' || sameSite(replyDomain, fromDomain)) return null;
    return hit({ replyDomain, fromDomain });
  } },
  { code: 'spam/sender-missing', category: 'legitimacy', points: 1.5, check: (v) => (v.sender === null ? hit() : null) },
  // Unverified senders cannot send at all; an unproven From is what spoofing looks like.
  { code: 'spam/sender-unverified', category: 'legitimacy', points: 3, check: (v) => (v.sender !== null && !v.sender.isVerified ? hit() : null) },
  // Without a DKIM signature, DMARC cannot pass for the user's own domain.
  { code: 'spam/dkim-missing', category: 'legitimacy', points: 2, check: (v) => (v.sender?.method === 'domain' && v.sender.isVerified && !v.sender.isDkimVerified ? hit() : null) },
];

export type SpamFinding = SpamScore['findings'][number];

/** Runs every rule on the message: the score, the findings (largest first) and their English texts per category. */
export function scoreMessage(message: SpamMessage, rules: readonly SpamRule[] = SPAM_RULES): SpamScore {
  const view = analyse(message);
  const findings: SpamFinding[] = [];
  for (const rule of rules) {
    const found = rule.check(view);
    if (!found) continue;
    const points = rule.points * Math.min(found.units ?? 1, rule.maxUnits ?? 1);
    findings.push({ code: rule.code, category: rule.category, points, ...(found.params ? { params: found.params } : {}) });
  }
  findings.sort((a, b) => b.points - a.points);
  const total = findings.reduce((sum, finding) => sum + finding.points, 0);
  const spamScore = Math.min(10, Math.max(1, Math.round(10 - total)));
  const suggestions = Object.fromEntries(SPAM_CATEGORIES.map((category) => [
    category,
    findings.filter((finding) => finding.category === category).map((finding) => formatErrorMessage(finding.code as SpamCode, finding.params)),
  ])) as Record<Category, string[]>;
  return { spamScore, suggestions, findings };
}
