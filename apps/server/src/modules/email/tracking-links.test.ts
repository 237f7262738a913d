/**
 * Signing click links (issue #11): a target no redirect may lead to is refused when signing (400),
 * and a link with a line break (a column value filled into it) is tracked as a browser reads it.
 */
import { describe, expect, it } from 'vitest';
import { httpStatusOf, isSheafError } from '@sheaf/shared';
import { addTracking, clickUrl, isGenuineClick, isRedirectTarget, redirectLocation } from './tracking-links.ts';

const key = new Uint8Array(32).fill(3);
const base = 'https://sheaf.test';
const messageId = 'b'.repeat(24);

describe('click links', () => {
  it('refuses to sign a target with CR, LF or another control character, with a 400 code', () => {
    for (const target of ['https://example.com/a\r\nSet-Cookie: x=1', 'https://example.com/\u0000', 'javascript:alert(1)', 'https://']) {
      let refused: unknown;
      try {
        clickUrl(base, key, messageId, target);
      } catch (error) {
        refused = error;
      }
      expect(isSheafError(refused), JSON.stringify(target)).toBe(true);
      if (isSheafError(refused)) {
        expect(refused.code).toBe('generic/invalid-input');
        expect(httpStatusOf(refused.code)).toBe(400);
      }
    }
    expect(clickUrl(base, key, messageId, 'https://example.com/info?a=1&b=2')).toMatch(/^https:\/\/sheaf\.test\/t\/c\//);
  });

  it('tracks a link holding a line break as the browser would follow it, signed', () => {
    const html = addTracking('<p><a href="https://example.com/page?id=12&#10;34">Link</a></p>', base, key, messageId);
    const link = new URL(/<a href="([^"]+)"/.exec(html)![1]!.replace(/&amp;/g, '&'));
    const target = link.searchParams.get('u')!;
    expect(target).toBe('https://example.com/page?id=1234');
    expect(isGenuineClick(key, messageId, target, link.pathname.split('/').at(-1)!)).toBe(true);
  });

  it('leaves a link no redirect may lead to untracked', () => {
    const html = addTracking('<a href="https://example.com/&#1;x">Link</a>', base, key, messageId);
    expect(html).toContain('<a href="https://example.com/&#1;x">');
  });

  it('writes the Location of a redirect in ASCII, whatever the target holds', () => {
    expect(isRedirectTarget('https://bücher.example/straße?q=ü')).toBe(true);
    expect(redirectLocation('https://bücher.example/straße?q=ü')).toBe('https://xn--bcher-kva.example/stra%C3%9Fe?q=%C3%BC');
  });
});
