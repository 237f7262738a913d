/**
 * Domain senders: the user's own domain, proven by DNS records they create.
 *
 *   dkim   TXT   <selector>._domainkey.<domain>   v=DKIM1; k=rsa; p=<public key>   (signs From: <domain>)
 *   spf    TXT   <subdomain>.<domain>             v=spf1 include:spf.<MAIL_DOMAIN> ~all
 *   mxa    MX    <subdomain>.<domain>             10 <MX_HOSTS[0]>  } the MAIL FROM subdomain: bounces
 *   mxb    MX    <subdomain>.<domain>             20 <MX_HOSTS[1]>  } come back to Sheaf's listener
 *   cname  CNAME track.<domain>                   <TRACKING_HOST>   (links and the open pixel)
 *
 * Verified = DKIM, SPF and both MX found: then mail is signed for the domain and its bounces reach us.
 * The tracking CNAME is shown and checked but not required: tracking works through PUBLIC_URL without
 * it, and a missing CNAME must not stop a user's mail.
 */
import { generateKeyPair, randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import type { DnsRecord } from '@sheaf/shared';
import type { Config } from '../../config.ts';
import { sameHost, type DnsLookups } from '../../adapters/net/dns-records.ts';

const generateKeyPairAsync = promisify(generateKeyPair);

/** Records that must be found for the sender to be verified. */
export const REQUIRED_RECORDS: ReadonlyArray<DnsRecord['purpose']> = ['dkim', 'spf', 'mxa', 'mxb'];

export interface DkimKey {
  selector: string;
  /** base64 DER SubjectPublicKeyInfo: the p= of the DKIM record. */
  publicKey: string;
  /** PKCS#8 PEM (encrypt before storing). */
  privateKeyPem: string;
}

/** A fresh RSA-2048 key and a selector of its own, so keys can be rotated or several coexist. */
export async function newDkimKey(): Promise<DkimKey> {
  const { publicKey, privateKey } = await generateKeyPairAsync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'der' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
  return { selector: `sheaf-${randomBytes(4).toString('hex')}`, publicKey: publicKey.toString('base64'), privateKeyPem: privateKey };
}

export interface DomainSetup {
  domain: string;
  subdomain: string;
  selector: string;
  publicKey: string;
}

export const dkimRecordName = (setup: Pick<DomainSetup, 'selector' | 'domain'>) => `${setup.selector}._domainkey.${setup.domain}`;
export const mailFromDomain = (setup: Pick<DomainSetup, 'subdomain' | 'domain'>) => `${setup.subdomain}.${setup.domain}`;
export const trackingName = (setup: Pick<DomainSetup, 'domain'>) => `track.${setup.domain}`;

type RecordsConfig = Pick<Config, 'MAIL_DOMAIN' | 'MX_HOSTS' | 'TRACKING_HOST'>;

/** The records to create, all pending (their values follow the current configuration). */
export function domainRecords(setup: DomainSetup, config: RecordsConfig): DnsRecord[] {
  const mailFrom = mailFromDomain(setup);
  const record = (purpose: DnsRecord['purpose'], type: DnsRecord['type'], name: string, value: string): DnsRecord =>
    ({ purpose, type, name, value, status: 'pending', checkedAt: null });
  return [
    record('dkim', 'TXT', dkimRecordName(setup), `v=DKIM1; k=rsa; p=${setup.publicKey}`),
    record('spf', 'TXT', mailFrom, `v=spf1 include:spf.${config.MAIL_DOMAIN} ~all`),
    record('mxa', 'MX', mailFrom, `10 ${config.MX_HOSTS[0]}`),
    record('mxb', 'MX', mailFrom, `20 ${config.MX_HOSTS[1]}`),
    record('cname', 'CNAME', trackingName(setup), config.TRACKING_HOST),
  ];
}

/** Tags of a DKIM record ("v=DKIM1; k=rsa; p=..."), whitespace inside values removed as RFC 6376 allows. */
function dkimTags(text: string): Map<string, string> {
  const tags = new Map<string, string>();
  for (const part of text.split(';')) {
    const at = part.indexOf('=');
    if (at > 0) tags.set(part.slice(0, at).trim().toLowerCase(), part.slice(at + 1).replace(/\s+/g, ''));
  }
  return tags;
}

function dkimMatches(texts: string[], publicKey: string): boolean {
  return texts.some((text) => {
    const tags = dkimTags(text);
    return tags.get('p') === publicKey && (tags.get('k') ?? 'rsa').toLowerCase() === 'rsa' && (tags.get('v') ?? 'DKIM1') === 'DKIM1';
  });
}

function spfMatches(texts: string[], mailDomain: string): boolean {
  const include = `include:spf.${mailDomain}`.toLowerCase();
  return texts.some((text) => {
    const terms = text.trim().toLowerCase().split(/\s+/);
    return terms[0] === 'v=spf1' && terms.includes(include);
  });
}

/** Looks every record up (in parallel) and answers them with their new status. */
export async function checkDomainRecords(setup: DomainSetup, config: RecordsConfig, dns: DnsLookups): Promise<DnsRecord[]> {
  const mailFrom = mailFromDomain(setup);
  const [dkimTexts, spfTexts, mx, cnames] = await Promise.all([dns.txt(dkimRecordName(setup)), dns.txt(mailFrom), dns.mx(mailFrom), dns.cname(trackingName(setup))]);
  const found: Record<DnsRecord['purpose'], boolean> = {
    dkim: dkimMatches(dkimTexts, setup.publicKey),
    spf: spfMatches(spfTexts, config.MAIL_DOMAIN),
    mxa: mx.some((entry) => sameHost(entry.exchange, config.MX_HOSTS[0])),
    mxb: mx.some((entry) => sameHost(entry.exchange, config.MX_HOSTS[1])),
    cname: cnames.some((target) => sameHost(target, config.TRACKING_HOST)),
  };
  const checkedAt = new Date().toISOString();
  return domainRecords(setup, config).map((record) => ({ ...record, status: found[record.purpose] ? 'success' : 'pending', checkedAt }));
}

export const recordsVerified = (records: DnsRecord[]): boolean =>
  REQUIRED_RECORDS.every((purpose) => records.some((record) => record.purpose === purpose && record.status === 'success'));
