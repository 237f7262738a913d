/**
 * SSRF guard for hosts users give us (their SMTP server): parse the host the way a resolver would
 * (including the inet_aton spellings 0x7f.1, 0177.0.0.1, 2130706433, 127.1), resolve names to ALL
 * their addresses, and refuse the host if any address is on a network the service must not reach:
 * loopback, private, unique-local, link-local, CGNAT, unspecified, multicast, broadcast, reserved,
 * benchmarking and documentation ranges, cloud metadata endpoints, and IPv6 forms that carry such an
 * IPv4 address (mapped, compatible, NAT64, 6to4, Teredo). The caller then connects to the returned
 * address, never to the name again, so a second DNS answer (rebinding) cannot move the connection.
 *
 * `allowPrivate` (SMTP_ALLOW_PRIVATE_HOSTS: desktop edition, tests) lets loopback, RFC 1918 and
 * unique-local addresses through; metadata endpoints and everything else stay refused.
 */
import { lookup as dnsLookup } from 'node:dns/promises';
import { domainToASCII } from 'node:url';
import ipaddr from 'ipaddr.js';

export type HostProblem = 'invalid' | 'forbidden' | 'unresolvable';

export class UnsafeHostError extends Error {
  constructor(
    readonly problem: HostProblem,
    message: string,
  ) {
    super(message);
    this.name = 'UnsafeHostError';
  }
}

/** A host as typed: an IP address (any spelling, normalised) or a DNS name (ASCII, lower case). */
export type ParsedHost = { kind: 'ip'; address: string } | { kind: 'name'; name: string };

/** All addresses of a name (A and AAAA); the default is the system resolver (getaddrinfo). */
export type HostLookup = (name: string) => Promise<string[]>;

export const systemLookup: HostLookup = async (name) => (await dnsLookup(name, { all: true, verbatim: true })).map((entry) => entry.address);

/** The address to connect to and the name for TLS (SNI and the certificate check); null for an IP. */
export interface CheckedHost {
  address: string;
  servername: string | null;
}

const LOOKUP_TIMEOUT_MS = 10_000;

/**
 * Cloud metadata and platform endpoints. Most sit in ranges refused anyway, but Azure's wire server
 * (168.63.129.16) is public unicast, and these stay refused even when private hosts are allowed.
 */
const METADATA_ADDRESSES = new Set([
  '169.254.169.254', // AWS, GCP, Azure, OpenStack, DigitalOcean, Oracle, ...
  '169.254.170.2', // AWS ECS task credentials
  '169.254.169.123', // AWS time sync
  '169.254.169.253', // AWS DNS
  '168.63.129.16', // Azure wire server
  '100.100.100.200', // Alibaba Cloud
  '192.0.0.192', // Oracle Cloud
  'fd00:ec2::254', // AWS IMDS over IPv6
  'fd00:ec2::23', // AWS DNS over IPv6
  'fd00:ec2::123', // AWS time sync over IPv6
]);

// One part of an inet_aton address: hex (0x..., "0x" alone is 0), octal (leading 0) or decimal.
const NUMERIC_PART = /^(0x[0-9a-f]*|0[0-7]*|[1-9][0-9]*)$/i;
const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

function partValue(part: string): number {
  if (/^0x/i.test(part)) return part.length === 2 ? 0 : Number.parseInt(part.slice(2), 16);
  if (part.length > 1 && part.startsWith('0')) return Number.parseInt(part.slice(1), 8);
  return Number(part);
}

/**
 * The four bytes of an inet_aton spelling ("a", "a.b", "a.b.c" or "a.b.c.d", each part decimal,
 * octal or hex; the last part fills the remaining bytes), or null when it is not one.
 */
export function parseInetAton(text: string): [number, number, number, number] | null {
  const parts = text.split('.');
  if (parts.length > 4 || parts.some((part) => !NUMERIC_PART.test(part))) return null;
  const values = parts.map(partValue);
  const last = values.pop()!;
  if (values.some((value) => value > 255)) return null;
  const lastBytes = 4 - values.length;
  if (!Number.isSafeInteger(last) || last >= 256 ** lastBytes) return null;
  const bytes = [...values];
  for (let index = lastBytes - 1; index >= 0; index--) bytes.push(Math.floor(last / 256 ** index) % 256);
  return bytes as [number, number, number, number];
}

/** Parses what a user typed as a host; null when it is neither an IP address nor a valid DNS name. */
export function parseHost(input: string): ParsedHost | null {
  let text = input.trim();
  if (!text || text.length > 253 + 2 || text.includes('%')) return null;
  if (text.startsWith('[') && text.endsWith(']')) text = text.slice(1, -1);
  if (text.includes(':')) {
    if (!ipaddr.IPv6.isValid(text)) return null;
    return { kind: 'ip', address: ipaddr.IPv6.parse(text).toString() };
  }
  const raw = text.toLowerCase().replace(/\.$/, '');
  if (endsInNumber(raw)) return ipv4Host(raw);
  // IDNA (münchen.de -> xn--mnchen-3ya.de); full-width digits may turn into an IPv4 spelling here.
  const host = domainToASCII(raw).replace(/\.$/, '');
  if (!host) return null;
  if (endsInNumber(host)) return ipv4Host(host);
  if (host.length > 253 || !host.split('.').every((label) => LABEL.test(label))) return null;
  return { kind: 'name', name: host };
}

/** A host whose last label is a number is an IPv4 address or nothing (as in the WHATWG URL parser). */
function endsInNumber(host: string): boolean {
  const last = host.split('.').at(-1)!;
  return NUMERIC_PART.test(last) || /^[0-9]+$/.test(last);
}

function ipv4Host(text: string): ParsedHost | null {
  const bytes = parseInetAton(text);
  return bytes ? { kind: 'ip', address: bytes.join('.') } : null;
}

type Verdict = 'public' | 'private' | 'forbidden';

function classifyV4(address: ipaddr.IPv4): Verdict {
  if (METADATA_ADDRESSES.has(address.toString())) return 'forbidden';
  const range = address.range();
  if (range === 'unicast') return 'public';
  if (range === 'loopback' || range === 'private') return 'private';
  return 'forbidden';
}

const v4At = (parts: number[], index: number) =>
  new ipaddr.IPv4([parts[index]! >> 8, parts[index]! & 0xff, parts[index + 1]! >> 8, parts[index + 1]! & 0xff]);

function classifyV6(address: ipaddr.IPv6): Verdict {
  if (METADATA_ADDRESSES.has(address.toString())) return 'forbidden';
  const parts = address.parts;
  const range = address.range();
  // ::ffff:a.b.c.d reaches the IPv4 address itself.
  if (range === 'ipv4Mapped') return classifyV4(v4At(parts, 6));
  // ::a.b.c.d (deprecated "IPv4-compatible") and anything else in ::/96 but :: and ::1.
  if (parts.slice(0, 6).every((part) => part === 0) && range !== 'loopback') return 'forbidden';
  // Translators (::ffff:0:a.b.c.d, NAT64 64:ff9b::/96) and 6to4 (2002:AABB:CCDD::/48) relay to the
  // IPv4 address they carry: only a public one may be reached through them.
  if (range === 'rfc6145') return classifyV4(v4At(parts, 6)) === 'public' ? 'public' : 'forbidden';
  if (range === 'rfc6052') return parts[2] === 0 && classifyV4(v4At(parts, 6)) === 'public' ? 'public' : 'forbidden';
  if (range === '6to4') return classifyV4(v4At(parts, 1)) === 'public' ? 'public' : 'forbidden';
  if (range === 'unicast') return 'public';
  if (range === 'loopback' || range === 'uniqueLocal') return 'private';
  // Teredo, link-local, multicast, documentation, benchmarking, discard, ORCHID, ...
  return 'forbidden';
}

/** The address in the form to connect to: IPv4-mapped IPv6 addresses become IPv4. */
function normalise(address: string): ipaddr.IPv4 | ipaddr.IPv6 {
  return ipaddr.process(address);
}

/** Whether a connection to `address` may be made (see the module comment). */
export function addressAllowed(address: string, allowPrivate: boolean): boolean {
  if (!ipaddr.isValid(address)) return false;
  const parsed = ipaddr.parse(address);
  const verdict = parsed.kind() === 'ipv4' ? classifyV4(parsed as ipaddr.IPv4) : classifyV6(parsed as ipaddr.IPv6);
  return verdict === 'public' || (verdict === 'private' && allowPrivate);
}

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('DNS look-up timed out')), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/**
 * Checks a user's host and answers the address to connect to. Throws UnsafeHostError: 'invalid'
 * (not a host), 'unresolvable' (no address), 'forbidden' (an address is on a refused network).
 */
export async function checkHost(host: string, options: { allowPrivate: boolean; lookup?: HostLookup }): Promise<CheckedHost> {
  const parsed = parseHost(host);
  if (!parsed) throw new UnsafeHostError('invalid', 'not a host name or IP address');
  let addresses: string[];
  if (parsed.kind === 'ip') {
    addresses = [parsed.address];
  } else if (parsed.name === 'localhost' || parsed.name.endsWith('.localhost')) {
    // RFC 6761: always loopback, whatever a resolver says.
    addresses = ['127.0.0.1'];
  } else {
    try {
      addresses = await withTimeout((options.lookup ?? systemLookup)(parsed.name), LOOKUP_TIMEOUT_MS);
    } catch {
      throw new UnsafeHostError('unresolvable', 'the name has no address');
    }
    if (addresses.length === 0) throw new UnsafeHostError('unresolvable', 'the name has no address');
  }
  // Every address must pass: a resolver may hand out any of them later.
  if (!addresses.every((address) => addressAllowed(address, options.allowPrivate))) {
    throw new UnsafeHostError('forbidden', 'the host is on a private, local or reserved network');
  }
  const normalised = addresses.map(normalise);
  const chosen = normalised.find((address) => address.kind() === 'ipv4') ?? normalised[0]!;
  return { address: chosen.toString(), servername: parsed.kind === 'name' ? parsed.name : null };
}
