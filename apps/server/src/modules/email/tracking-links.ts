/**
 * Tracking URLs in each HTML message: a 1x1 image whose URL names the message (opens) and links
 * rewritten to a redirect that names the message and the target (clicks). Each URL carries an HMAC
 * of what it names, so nobody can forge an open, a click, or use the redirect for another target
 * (no open redirect).
 */
import { SheafError } from '@sheaf/shared';
import { hmacSign, hmacVerify } from '../../crypto/secrets.ts';

/** Public paths, outside the /v1 API (see http/web.ts: not pages). */
export const TRACKING_PREFIX = '/t/';

const openData = (messageId: string) => `sheaf-open:${messageId}`;
const clickData = (messageId: string, target: string) => `sheaf-click:${messageId}:${target}`;

export function openPixelUrl(baseUrl: string, key: Uint8Array, messageId: string): string {
  return `${baseUrl}${TRACKING_PREFIX}o/${messageId}/${hmacSign(key, openData(messageId))}.gif`;
}

/**
 * What a click redirect may lead to: an http(s) URL without control characters (a CR or LF would
 * split the Location header; Node refuses to send it).
 */
export function isRedirectTarget(target: string): boolean {
  // eslint-disable-next-line no-control-regex
  return /^https?:\/\//i.test(target) && !/[\u0000-\u001f\u007f]/.test(target) && URL.canParse(target);
}

/** The Location header of a redirect to `target` (an isRedirectTarget): ASCII only, as URL writes it. */
export const redirectLocation = (target: string): string => new URL(target).href;

/** The signed redirect to `target`; a target no redirect may lead to is refused (400), never signed. */
export function clickUrl(baseUrl: string, key: Uint8Array, messageId: string, target: string): string {
  if (!isRedirectTarget(target)) throw new SheafError('generic/invalid-input', { detail: 'a link must be an http(s) address without control characters' });
  return `${baseUrl}${TRACKING_PREFIX}c/${messageId}/${hmacSign(key, clickData(messageId, target))}?u=${encodeURIComponent(target)}`;
}

export function isGenuineOpen(key: Uint8Array, messageId: string, signature: string): boolean {
  return hmacVerify(key, openData(messageId), signature);
}

export function isGenuineClick(key: Uint8Array, messageId: string, target: string, signature: string): boolean {
  return hmacVerify(key, clickData(messageId, target), signature);
}

const decodeAttribute = (value: string) =>
  value.replace(/&amp;/g, '&').replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&#(\d+);/g, (_m, code: string) => String.fromCharCode(Number(code)));
const encodeAttribute = (value: string) => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;');

/**
 * Rewrites the http(s) links of sanitised HTML (sanitize-html writes attributes in double quotes) to
 * click redirects, and adds the open pixel at the end. Tabs and line breaks in a link (a column value
 * with a line break, say) are dropped as every browser drops them; a link still not fit for a
 * redirect is left as it is, untracked.
 */
export function addTracking(html: string, baseUrl: string, key: Uint8Array, messageId: string): string {
  const linked = html.replace(/(<a\b[^>]*?\shref=")([^"]*)(")/gi, (whole, before: string, href: string, after: string) => {
    const target = decodeAttribute(href).replace(/[\t\r\n]/g, '');
    if (!isRedirectTarget(target)) return whole;
    return `${before}${encodeAttribute(clickUrl(baseUrl, key, messageId, target))}${after}`;
  });
  return `${linked}<img src="${encodeAttribute(openPixelUrl(baseUrl, key, messageId))}" width="1" height="1" alt="" style="border:0">`;
}

/** The 1x1 transparent GIF the open pixel answers with. */
export const PIXEL_GIF = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');
