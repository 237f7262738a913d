/** The client a sign-in limit counts: an IPv4 address, an IPv6 address's /64 (issue #11). */
import { describe, expect, it } from 'vitest';
import { clientOf } from './rate-limits.ts';

describe('clientOf', () => {
  it('counts an IPv4 address as itself, also when written as IPv4-mapped IPv6', () => {
    expect(clientOf('203.0.113.7')).toBe('203.0.113.7');
    expect(clientOf('::ffff:203.0.113.7')).toBe('203.0.113.7');
  });

  it('counts every address of one IPv6 /64 as one client, however it is written', () => {
    const network = '2001:db8:1:2::/64';
    for (const ip of ['2001:db8:1:2::1', '2001:db8:1:2:aaaa:bbbb:cccc:dddd', '2001:0DB8:0001:0002::ffff', '2001:db8:1:2:0:0:0:9']) {
      expect(clientOf(ip), ip).toBe(network);
    }
    expect(clientOf('2001:db8:1:3::1')).not.toBe(network);
    expect(clientOf('::1')).toBe('0:0:0:0::/64');
    expect(clientOf('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(clientOf('64:ff9b::198.51.100.1')).toBe('64:ff9b:0:0::/64');
  });
});
