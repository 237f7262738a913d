/**
 * The SSRF guard: every refused network in every spelling is its own case, with private hosts not
 * allowed (the web service's default). Names are resolved for real: through the system resolver
 * (localhost) or a DNS server on 127.0.0.1 that the test fills with A/AAAA records.
 */
import { Resolver } from 'node:dns/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDnsZone, type DnsZone } from '../../../test/senders-support.ts';
import { checkHost, parseHost, parseInetAton, type HostLookup } from './safe-host.ts';

const refused = async (host: string, allowPrivate = false) => {
  await expect(checkHost(host, { allowPrivate })).rejects.toMatchObject({ name: 'UnsafeHostError', problem: 'forbidden' });
};

describe('hosts refused when private hosts are not allowed', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback, end of 127/8'],
    ['localhost', 'loopback by name'],
    ['LOCALHOST.', 'loopback by name, upper case with the root dot'],
    ['mail.localhost', 'a .localhost name (RFC 6761)'],
    ['0x7f000001', 'hex integer'],
    ['0x7f.0.0.1', 'hex first part'],
    ['0x7f.1', 'hex, two parts'],
    ['0177.0.0.1', 'octal first part'],
    ['0177.0000.0000.0001', 'octal, every part'],
    ['017700000001', 'octal integer'],
    ['2130706433', 'decimal integer'],
    ['127.1', 'short form a.b'],
    ['127.0.1', 'short form a.b.c'],
    ['１２７.０.０.１', 'full-width digits'],
    ['127.0.0.1.', 'dotted quad with the root dot'],
    ['::1', 'IPv6 loopback'],
    ['[::1]', 'IPv6 loopback in brackets'],
    ['::ffff:127.0.0.1', 'IPv4-mapped IPv6, dotted'],
    ['::ffff:7f00:1', 'IPv4-mapped IPv6, hex'],
    ['[::ffff:7f00:1]', 'IPv4-mapped IPv6, hex, in brackets'],
    ['::127.0.0.1', 'IPv4-compatible IPv6, dotted'],
    ['::7f00:1', 'IPv4-compatible IPv6, hex'],
    ['::ffff:0:7f00:1', 'IPv4-translated (SIIT) loopback'],
    ['10.0.0.1', 'private 10/8'],
    ['10.255.255.255', 'private 10/8, end'],
    ['012.0.0.1', 'private 10/8 in octal'],
    ['0xa000001', 'private 10/8 as a hex integer'],
    ['172.16.0.1', 'private 172.16/12'],
    ['172.31.255.254', 'private 172.16/12, end'],
    ['192.168.1.1', 'private 192.168/16'],
    ['0xc0.0xa8.1.1', 'private 192.168/16 in hex parts'],
    ['3232235777', 'private 192.168.1.1 as a decimal integer'],
    ['::ffff:10.0.0.1', 'IPv4-mapped private'],
    ['::ffff:192.168.0.1', 'IPv4-mapped private 192.168'],
    ['fc00::1', 'unique local fc00::/7'],
    ['fd12:3456:789a::1', 'unique local fd00::/8'],
    ['169.254.0.1', 'link-local 169.254/16'],
    ['fe80::1', 'IPv6 link-local'],
    ['febf::1', 'IPv6 link-local, end of fe80::/10'],
    ['100.64.0.1', 'carrier-grade NAT 100.64/10'],
    ['100.127.255.254', 'carrier-grade NAT, end'],
    ['0.0.0.0', 'unspecified'],
    ['0', 'unspecified as one number'],
    ['0.1.2.3', 'this network 0/8'],
    ['::', 'IPv6 unspecified'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast (SSDP)'],
    ['ff02::1', 'IPv6 multicast'],
    ['255.255.255.255', 'broadcast'],
    ['4294967295', 'broadcast as a decimal integer'],
    ['240.0.0.1', 'reserved 240/4'],
    ['192.0.0.8', 'IETF protocol assignments 192.0.0/24'],
    ['198.18.0.1', 'benchmarking 198.18/15'],
    ['198.19.255.254', 'benchmarking, end'],
    ['2001:2::1', 'IPv6 benchmarking'],
    ['192.0.2.1', 'documentation TEST-NET-1'],
    ['198.51.100.1', 'documentation TEST-NET-2'],
    ['203.0.113.1', 'documentation TEST-NET-3'],
    ['2001:db8::1', 'IPv6 documentation'],
    ['64:ff9b::7f00:1', 'NAT64 of loopback'],
    ['64:ff9b::10.0.0.1', 'NAT64 of private 10/8'],
    ['64:ff9b::c0a8:101', 'NAT64 of private 192.168'],
    ['64:ff9b::a9fe:a9fe', 'NAT64 of the metadata address'],
    ['64:ff9b:1::a00:1', 'local-use NAT64 64:ff9b:1::/48'],
    ['2002:7f00:1::1', '6to4 of loopback'],
    ['2002:a00:1::1', '6to4 of private 10/8'],
    ['2002:c0a8:101::1', '6to4 of private 192.168'],
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'Teredo'],
  ])('%s (%s)', async (host) => {
    await refused(host);
  });
});

describe('cloud metadata endpoints, refused even when private hosts are allowed', () => {
  it.each([
    ['169.254.169.254', 'AWS, GCP, Azure, ...'],
    ['0xa9fea9fe', 'hex integer'],
    ['0xa9.0xfe.0xa9.0xfe', 'hex parts'],
    ['0251.0376.0251.0376', 'octal parts'],
    ['2852039166', 'decimal integer'],
    ['169.254.43518', 'short form a.b.c'],
    ['::ffff:169.254.169.254', 'IPv4-mapped'],
    ['::ffff:a9fe:a9fe', 'IPv4-mapped, hex'],
    ['169.254.170.2', 'AWS ECS credentials'],
    ['fd00:ec2::254', 'AWS over IPv6'],
    ['100.100.100.200', 'Alibaba Cloud'],
    ['168.63.129.16', 'Azure wire server (a public address)'],
    ['192.0.0.192', 'Oracle Cloud'],
  ])('%s (%s)', async (host) => {
    await refused(host, true);
  });
});

describe('hosts allowed', () => {
  it.each([
    ['8.8.8.8', '8.8.8.8'],
    ['134744072', '8.8.8.8'],
    ['0x8.0x8.0x8.0x8', '8.8.8.8'],
    ['::ffff:8.8.8.8', '8.8.8.8'],
    ['2606:4700:4700::1111', '2606:4700:4700::1111'],
    ['64:ff9b::808:808', '64:ff9b::808:808'],
    ['2002:808:808::1', '2002:808:808::1'],
  ])('%s connects to %s', async (host, address) => {
    expect(await checkHost(host, { allowPrivate: false })).toEqual({ address, servername: null });
  });

  it.each([['127.0.0.1'], ['0x7f.1'], ['::ffff:7f00:1'], ['10.1.2.3'], ['192.168.0.10'], ['fd00::25'], ['localhost']])(
    '%s with private hosts allowed (desktop edition, tests)',
    async (host) => {
      await expect(checkHost(host, { allowPrivate: true })).resolves.toBeTruthy();
    },
  );

  it('connects to the IPv4 address a mapped IPv6 spelling carries', async () => {
    expect(await checkHost('[::ffff:7f00:1]', { allowPrivate: true })).toEqual({ address: '127.0.0.1', servername: null });
  });

  it.each([['8.8.8.8.8'], ['256.1.1.1'], ['1.2.3.0x100'], ['08.1.1.1'], ['mail.0x1'], ['under_score.example.com'], ['-lead.example.com'], ['a..b'], ['fe80::1%eth0'], [''], ['smtp example.com']])(
    '%s is not a host (the server field\'s error)',
    async (host) => {
      expect(parseHost(host)).toBeNull();
      await expect(checkHost(host, { allowPrivate: true })).rejects.toMatchObject({ problem: 'invalid' });
    },
  );

  it('reads inet_aton spellings byte by byte', () => {
    expect(parseInetAton('1.2.3.4')).toEqual([1, 2, 3, 4]);
    expect(parseInetAton('1.2.772')).toEqual([1, 2, 3, 4]);
    expect(parseInetAton('1.131844')).toEqual([1, 2, 3, 4]);
    expect(parseInetAton('16909060')).toEqual([1, 2, 3, 4]);
    expect(parseInetAton('0x1.02.0x3.4')).toEqual([1, 2, 3, 4]);
    expect(parseInetAton('1.2.65536')).toBeNull();
  });
});

describe('names resolved through DNS', () => {
  let zone: DnsZone;
  let lookup: HostLookup;
  beforeAll(async () => {
    zone = await startDnsZone();
    const resolver = new Resolver({ timeout: 2_000, tries: 1 });
    resolver.setServers([zone.server]);
    // Both families, as getaddrinfo would answer.
    lookup = async (name) => {
      const settle = async (work: Promise<string[]>) => work.catch(() => [] as string[]);
      return [...(await settle(resolver.resolve4(name))), ...(await settle(resolver.resolve6(name)))];
    };
    zone.set('public.example.test', 'A', ['93.184.215.14']);
    zone.set('inside.example.test', 'A', ['10.0.0.5']);
    zone.set('metadata.example.test', 'A', ['169.254.169.254']);
    zone.set('mixed.example.test', 'A', ['93.184.215.14', '127.0.0.1']);
    zone.set('v6loop.example.test', 'AAAA', ['::1']);
    zone.set('v6mapped.example.test', 'AAAA', ['::ffff:192.168.0.1']);
  });
  afterAll(() => zone?.close());

  it('connects to the address a public name resolves to, with the name for TLS', async () => {
    expect(await checkHost('Public.Example.Test', { allowPrivate: false, lookup })).toEqual({ address: '93.184.215.14', servername: 'public.example.test' });
    expect(zone.questions).toContain('A public.example.test');
  });

  it.each([['inside.example.test'], ['metadata.example.test'], ['v6loop.example.test'], ['v6mapped.example.test']])('refuses %s', async (name) => {
    await expect(checkHost(name, { allowPrivate: false, lookup })).rejects.toMatchObject({ problem: 'forbidden' });
  });

  it('refuses a name when any one of its addresses is forbidden (a later answer could pick it)', async () => {
    await expect(checkHost('mixed.example.test', { allowPrivate: false, lookup })).rejects.toMatchObject({ problem: 'forbidden' });
  });

  it('refuses the metadata address behind a name even when private hosts are allowed', async () => {
    await expect(checkHost('metadata.example.test', { allowPrivate: true, lookup })).rejects.toMatchObject({ problem: 'forbidden' });
  });

  it('says a name without addresses is unresolvable', async () => {
    await expect(checkHost('nothing.example.test', { allowPrivate: false, lookup })).rejects.toMatchObject({ problem: 'unresolvable' });
  });
});
