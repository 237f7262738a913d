// @vitest-environment node
/** Where a signed-in visitor of a public page goes: the remembered page, ?next=, /billing with ?plan=, else home. */
import { describe, expect, it } from 'vitest';
import { afterSignIn, isSitePath } from './afterSignIn.ts';

const search = (text: string) => new URLSearchParams(text);

describe('after signing in or up', () => {
  it('goes where the user was going first', () => {
    expect(afterSignIn('/senders', search('next=/billing&plan=Pro'))).toBe('/senders');
  });

  it('follows a same-site ?next= (the offline page\'s billing-portal link)', () => {
    expect(afterSignIn(undefined, search('next=/billing'))).toBe('/billing');
    for (const bad of ['//evil.example', 'https://evil.example', '/\\evil.example', '/\t/evil.example', 'billing']) {
      expect(isSitePath(bad), bad).toBe(false);
      expect(afterSignIn(undefined, search(`next=${encodeURIComponent(bad)}`)), bad).toBe('/');
    }
  });

  it('lands on /billing after signing up with a plan, keeping the plan', () => {
    expect(afterSignIn(undefined, search('plan=Pro'))).toBe('/billing?plan=Pro');
    expect(afterSignIn(undefined, search(''))).toBe('/');
  });
});
