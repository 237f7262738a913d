/** The spec's address rule with its top-level-domain list, and what a mistyped address was meant to be (docs/data-check.md#addresses). */
import { describe, expect, it } from 'vitest';
import { hasKnownTopLevelDomain, isAllowedAddress, providerTypoOf, suggestedAddress, TOP_LEVEL_DOMAINS } from './index.ts';

describe('top-level domains', () => {
  it('holds IANA\'s delegated domains, generic, country and internationalised, and nothing made up', () => {
    expect(TOP_LEVEL_DOMAINS.size).toBeGreaterThan(1_400);
    for (const tld of ['com', 'org', 'net', 'de', 'fr', 'co', 'cm', 'museum', 'xn--p1ai']) expect(TOP_LEVEL_DOMAINS.has(tld), tld).toBe(true);
    for (const tld of ['con', 'cmo', 'comm', 'ocm', 'nte', 'local', 'example1']) expect(TOP_LEVEL_DOMAINS.has(tld), tld).toBe(false);
  });

  it('reads the last label of the domain, without case', () => {
    expect(hasKnownTopLevelDomain('a@b.COM')).toBe(true);
    expect(hasKnownTopLevelDomain('first.last@example')).toBe(false);
    expect(isAllowedAddress('jane@example.com')).toBe(true);
    expect(isAllowedAddress('jane@example.con')).toBe(false);
    expect(isAllowedAddress('jane@@example.com')).toBe(false);
  });
});

describe('suggested addresses', () => {
  it('fixes what can be told: a mistyped top-level domain or provider, stray spaces, a doubled @, a comma', () => {
    expect(suggestedAddress('jane@example.con')).toBe('jane@example.com');
    expect(suggestedAddress('jane@gmial.com')).toBe('jane@gmail.com');
    expect(suggestedAddress('jane@hotmial.co.uk')).toBe('jane@hotmail.co.uk');
    expect(suggestedAddress('jane@gmail.co')).toBe('jane@gmail.com');
    expect(suggestedAddress('jane @ example.com')).toBe('jane@example.com');
    expect(suggestedAddress('jane@@example.com')).toBe('jane@example.com');
    expect(suggestedAddress('jane@example,com')).toBe('jane@example.com');
  });

  it('leaves alone what is right or cannot be told', () => {
    expect(suggestedAddress('jane@gmail.com')).toBeUndefined();
    expect(suggestedAddress('jane@example.co')).toBeUndefined(); // a real domain, not a provider's typo
    expect(suggestedAddress('jane.example.com')).toBeUndefined();
    expect(suggestedAddress('a@b@c.com')).toBeUndefined();
    expect(providerTypoOf('gmx.de')).toBeUndefined();
    expect(providerTypoOf('gnail.com')).toBe('gmail.com');
  });
});
