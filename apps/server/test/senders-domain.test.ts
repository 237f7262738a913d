/**
 * Domain senders over the real API, verified by real DNS look-ups (UDP) against a DNS server on
 * 127.0.0.1 that the test fills: no record -> pending, some -> those succeed, DKIM + SPF + both MX ->
 * verified (the tracking CNAME is checked and shown but not required).
 */
import { createPublicKey } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import type { DnsRecord, Sender } from '@sheaf/shared';
import { decryptSecret } from '../src/crypto/secrets.ts';
import { senderDelivery } from '../src/modules/senders/index.ts';
import { forEachDatabase, startTestServer, type TestServer } from './harness.ts';
import { accountOn, startDnsZone, type DnsZone } from './senders-support.ts';

const MAIL_DOMAIN = 'mail.sheaf.test';
const TRACKING_HOST = 'track.sheaf.test';

/** A TXT value as DNS carries it: strings of at most 255 bytes. */
const txtStrings = (value: string) => value.match(/.{1,255}/g)!;

forEachDatabase((database) => {
  let server: TestServer;
  let zone: DnsZone;
  let token: string;
  let uid: string;

  beforeAll(async () => {
    zone = await startDnsZone();
    server = await startTestServer({ database, config: { MAIL_DOMAIN, TRACKING_HOST, DNS_SERVERS: [zone.server] } });
    ({ token, uid } = await accountOn(server, 'Enterprise'));
  });
  afterAll(async () => {
    await server?.close();
    await zone?.close();
  });
  beforeEach(() => zone.clear());

  const add = (body: Record<string, unknown>, as = token) => server.inject('POST', '/senders', { token: as, body: { method: 'domain', ...body } });
  const record = (sender: Sender, purpose: DnsRecord['purpose']) => sender.dnsRecords.find((entry) => entry.purpose === purpose)!;
  /** Publishes the sender's records in the zone (all, or the purposes named). */
  const publish = (sender: Sender, purposes: Array<DnsRecord['purpose']> = ['dkim', 'spf', 'mxa', 'mxb', 'cname']) => {
    const mx: Array<{ exchange: string; priority: number }> = [];
    for (const purpose of purposes) {
      const { name, value } = record(sender, purpose);
      if (purpose === 'dkim' || purpose === 'spf') zone.set(name, 'TXT', [txtStrings(value)]);
      if (purpose === 'mxa' || purpose === 'mxb') mx.push({ priority: Number(value.split(' ')[0]), exchange: value.split(' ')[1]! });
      if (purpose === 'cname') zone.set(name, 'CNAME', [value]);
    }
    if (mx.length) zone.set(record(sender, 'mxa').name, 'MX', mx);
  };

  it('lists the five records to create, with a fresh 2048-bit DKIM key, all pending', async () => {
    const response = await add({ email: 'News@Example.org' });
    expect(response.status).toBe(201);
    const sender = response.json.sender as Sender;
    expect(sender).toMatchObject({ method: 'domain', email: 'news@example.org', subdomain: 'sheaf', isVerified: false, isDkimVerified: false, hasPassword: false });
    const dkim = record(sender, 'dkim');
    expect(dkim.name).toMatch(/^sheaf-[0-9a-f]{8}\._domainkey\.example\.org$/);
    const publicKey = /^v=DKIM1; k=rsa; p=([A-Za-z0-9+/=]+)$/.exec(dkim.value)![1]!;
    expect(createPublicKey({ key: Buffer.from(publicKey, 'base64'), format: 'der', type: 'spki' }).asymmetricKeyDetails?.modulusLength).toBe(2048);
    expect(sender.dnsRecords.map(({ purpose, type, name, value, status }) => ({ purpose, type, name, value: purpose === 'dkim' ? '(key)' : value, status }))).toEqual([
      { purpose: 'dkim', type: 'TXT', name: dkim.name, value: '(key)', status: 'pending' },
      { purpose: 'spf', type: 'TXT', name: 'sheaf.example.org', value: `v=spf1 include:spf.${MAIL_DOMAIN} ~all`, status: 'pending' },
      { purpose: 'mxa', type: 'MX', name: 'sheaf.example.org', value: `10 mx1.${MAIL_DOMAIN}`, status: 'pending' },
      { purpose: 'mxb', type: 'MX', name: 'sheaf.example.org', value: `20 mx2.${MAIL_DOMAIN}`, status: 'pending' },
      { purpose: 'cname', type: 'CNAME', name: 'track.example.org', value: TRACKING_HOST, status: 'pending' },
    ]);
    // Looked up at once (nothing there yet), at the server the configuration names.
    expect(zone.questions).toContain(`TXT ${dkim.name}`);
    expect(dkim.checkedAt).not.toBeNull();
    // The private key is encrypted at rest and never leaves the server.
    const [row] = await server.ctx.db.query<{ dkim_private_key: string }>('SELECT dkim_private_key FROM senders WHERE id = $1', [sender.id]);
    expect(row!.dkim_private_key.startsWith('v1:')).toBe(true);
    expect(JSON.stringify(response.json)).not.toContain('PRIVATE KEY');
    const privateKey = decryptSecret(server.config.encryptionKey, row!.dkim_private_key);
    expect(createPublicKey(privateKey).export({ type: 'spki', format: 'der' }).toString('base64')).toBe(publicKey);
  });

  it('turns records to success as they appear and verifies with DKIM, SPF and both MX', async () => {
    const sender = (await add({ email: 'billing@partial.example' })).json.sender as Sender;
    publish(sender, ['dkim', 'spf']);
    const partial = (await server.inject('GET', `/senders/${sender.id}`, { token })).json as Sender;
    expect(partial).toMatchObject({ isDkimVerified: true, isSpfVerified: true, isMxaVerified: false, isMxbVerified: false, isVerified: false });
    expect(record(partial, 'mxa').status).toBe('pending');
    await expect(senderDelivery(server.ctx, uid, sender.id)).rejects.toMatchObject({ code: 'email/sender-gone' });

    publish(sender, ['dkim', 'spf', 'mxa', 'mxb']);
    const verified = await server.inject('POST', '/senders/verify', { token, body: { id: sender.id } });
    expect(verified.status).toBe(200);
    expect(verified.json.sender).toMatchObject({ isVerified: true, isMxaVerified: true, isMxbVerified: true, isCnameVerified: false });
    expect(verified.json.sender.verifiedAt).not.toBeNull();

    publish(sender);
    const tracked = await server.inject('POST', '/senders/verify', { token, body: { id: sender.id } });
    expect(tracked.json.sender).toMatchObject({ isVerified: true, isCnameVerified: true });
    expect(tracked.json.sender.dnsRecords.every((entry: DnsRecord) => entry.status === 'success')).toBe(true);

    // Records gone later (or DNS down): shown as pending again, but a verified sender stays verified.
    zone.clear();
    const after = await server.inject('POST', '/senders/verify', { token, body: { id: sender.id } });
    expect(after.json.sender).toMatchObject({ isVerified: true, isDkimVerified: false });
  });

  it('hands mailing the DKIM key and the MAIL FROM subdomain of a verified sender', async () => {
    const sender = (await add({ email: 'letters@signed.example', subdomain: 'Bounce.Mail' })).json.sender as Sender;
    expect(sender.subdomain).toBe('bounce.mail');
    expect(record(sender, 'spf').name).toBe('bounce.mail.signed.example');
    publish(sender);
    await server.inject('POST', '/senders/verify', { token, body: { id: sender.id } });
    const delivery = await senderDelivery(server.ctx, uid, sender.id);
    const selector = record(sender, 'dkim').name.split('.')[0]!;
    expect(delivery).toMatchObject({
      method: 'domain', from: { name: '', address: 'letters@signed.example' }, replyTo: null, returnPathDomain: 'bounce.mail.signed.example',
      route: { kind: 'outbox' }, dkim: { domainName: 'signed.example', keySelector: selector },
    });
    const published = /p=(.+)$/.exec(record(sender, 'dkim').value)![1];
    expect(createPublicKey(delivery.dkim!.privateKey).export({ type: 'spki', format: 'der' }).toString('base64')).toBe(published);
  });

  it('does not accept look-alike records', async () => {
    const sender = (await add({ email: 'ops@lookalike.example' })).json.sender as Sender;
    const other = (await add({ email: 'ops@another.example' })).json.sender as Sender;
    // Another key at the right name, an SPF without our include, MX to other hosts, CNAME elsewhere.
    zone.set(record(sender, 'dkim').name, 'TXT', [txtStrings(record(other, 'dkim').value)]);
    zone.set(record(sender, 'spf').name, 'TXT', [['v=spf1 include:_spf.google.com ~all']]);
    zone.set(record(sender, 'mxa').name, 'MX', [{ exchange: 'mx1.elsewhere.example', priority: 10 }]);
    zone.set(record(sender, 'cname').name, 'CNAME', ['track.elsewhere.example']);
    const checked = (await server.inject('POST', '/senders/verify', { token, body: { id: sender.id } })).json.sender as Sender;
    expect(checked.dnsRecords.map((entry) => entry.status)).toEqual(['pending', 'pending', 'pending', 'pending', 'pending']);
  });

  it('checks the subdomain: letters, digits, dots and hyphens, not empty', async () => {
    for (const subdomain of ['', 'bad_sub', 'sp ace', '-lead', 'trail-.x', 'a..b', 'mail/out']) {
      const response = await add({ email: 'sub@checks.example', subdomain });
      expect(response.json, subdomain).toMatchObject({ code: 'sender/SubdomainError', fields: { subdomain: 'sender/SubdomainError' } });
    }
    expect((await add({ email: 'sub@checks.example', subdomain: 'mail-1.out' })).status).toBe(201);
  });

  it('keeps a domain to the account that claimed it; the same account shares its key across addresses', async () => {
    const first = (await add({ email: 'a@claimed.example' })).json.sender as Sender;
    const other = await accountOn(server, 'Enterprise');
    const taken = await add({ email: 'b@claimed.example' }, other.token);
    expect(taken.json).toMatchObject({ code: 'sender/DomainAlreadyInUse', fields: { email: 'sender/DomainAlreadyInUse' } });
    expect((await server.inject('GET', '/senders', { token: other.token })).json.senders).toEqual([]);

    const second = (await add({ email: 'c@claimed.example' })).json.sender as Sender;
    expect(record(second, 'dkim')).toMatchObject({ name: record(first, 'dkim').name, value: record(first, 'dkim').value });

    // Deleting the claiming senders releases the domain.
    for (const sender of [first, second]) await server.inject('DELETE', `/senders/${sender.id}`, { token });
    expect((await add({ email: 'b@claimed.example' }, other.token)).status).toBe(201);
  });

  it('lets a pending claim older than a week go', async () => {
    const stale = (await add({ email: 'a@abandoned.example' })).json.sender as Sender;
    await server.ctx.db.query(`UPDATE senders SET created_at = now() - interval '8 days' WHERE id = $1`, [stale.id]);
    const other = await accountOn(server, 'Enterprise');
    expect((await add({ email: 'owner@abandoned.example' }, other.token)).status).toBe(201);
  });

  it('refuses the same address twice', async () => {
    await add({ email: 'twice@dupe.example' });
    const again = await add({ email: 'twice@dupe.example' });
    expect(again.json.fields).toEqual({ email: 'sender/EmailAlreadyAddedError' });
  });
});
