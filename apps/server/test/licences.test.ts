/**
 * Offline licences over HTTP, on PGlite and on PostgreSQL (docs/licences.md): issued from the
 * billing module's 'licence.purchased' event (emitted here the way the webhook does, inside a
 * transaction), emailed, listed on GET /licences, activated with POST /licences/activate up to the
 * machine limit, renewed and resized by 'licence.subscription-changed'; the signed licence verified
 * with WebCrypto against the configured public key.
 */
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  LICENCE_KEY_ALPHABET, checkLicenceKey, decodeBase64Url, formatLicenceKey, licenceKeyFromRandom, verifySignedLicence, type SignedLicence,
} from '@sheaf/shared';
import { ConfigError } from '../src/config.ts';
import { AfterCommit } from '../src/events/bus.ts';
import { sha256Hex } from '../src/crypto/secrets.ts';
import { forEachDatabase, startTestServer, type TestServer } from './harness.ts';
import { outboxMails } from './senders-support.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

function keyPair(): { signing: string; public: string; spki: Uint8Array } {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const spki = publicKey.export({ type: 'spki', format: 'der' });
  return { signing: privateKey.export({ type: 'pkcs8', format: 'der' }).toString('base64'), public: spki.toString('base64'), spki: new Uint8Array(spki) };
}

interface Purchase {
  userId: string | null;
  email: string;
  sessionId: string;
  subscriptionId: string;
  quantity: number;
  periodEnd: Date;
  language: string;
}

/** A well-formed key (its check character right) that no purchase issued. */
const unboughtKey = (): string => licenceKeyFromRandom(randomBytes(24));

const uniqueEmail = (label: string) => `${label}-${randomBytes(4).toString('hex')}@example.com`;

/** Emits 'licence.purchased' inside a transaction and runs the after-commit work, as the billing webhook does. */
async function purchase(server: TestServer, overrides: Partial<Purchase> = {}): Promise<Purchase> {
  const event: Purchase = {
    userId: null,
    email: uniqueEmail('buyer'),
    sessionId: `cs_test_${randomBytes(8).toString('hex')}`,
    subscriptionId: `sub_${randomBytes(8).toString('hex')}`,
    quantity: 1,
    periodEnd: new Date(Date.now() + 365 * DAY_MS),
    language: 'en',
    ...overrides,
  };
  const afterCommit = new AfterCommit();
  await server.ctx.db.transaction(async (tx) => server.ctx.events.emit('licence.purchased', { ...event, tx, afterCommit }));
  afterCommit.run();
  return event;
}

async function changeSubscription(server: TestServer, subscriptionId: string, quantity: number, periodEnd: Date): Promise<void> {
  await server.ctx.db.transaction(async (tx) => server.ctx.events.emit('licence.subscription-changed', { tx, subscriptionId, quantity, periodEnd }));
}

/** The licence mails sent to `email` once the mail job ran (waits for `count` of them). */
async function licenceMails(server: TestServer, email: string, count = 1) {
  return vi.waitFor(
    async () => {
      const mails = (await outboxMails(server)).filter((mail) => mail.to === email);
      expect(mails).toHaveLength(count);
      return mails;
    },
    { timeout: 15_000, interval: 50 },
  );
}

/** The key a licence mail carries, as shown (groups of five). */
function keyInMail(text: string): string {
  const shown = new RegExp(`[${LICENCE_KEY_ALPHABET}]{5}(-[${LICENCE_KEY_ALPHABET}]{5}){4}`).exec(text)?.[0];
  expect(shown, text).toBeDefined();
  return shown!;
}

async function licenceRows(server: TestServer, email: string) {
  return server.ctx.db.query<{ id: string; key_hash: string; key_encrypted: string; user_id: string | null; machine_limit: number; expires_at: Date; stripe_session_id: string }>(
    'SELECT id, key_hash, key_encrypted, user_id, machine_limit, expires_at, stripe_session_id FROM licences WHERE email = $1',
    [email],
  );
}

forEachDatabase((database) => {
  const keys = keyPair();
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ database, config: { LICENCE_SIGNING_KEY: keys.signing, LICENCE_PUBLIC_KEY: keys.public } });
  });
  afterAll(async () => {
    await server?.close();
  });
  // Every request comes from the same client address: start each test with no activation counted.
  beforeEach(async () => {
    await server.ctx.db.query('DELETE FROM auth_attempts');
  });

  const activate = (key: string, machineId: string) => server.inject('POST', '/licences/activate', { body: { key, machineId } });

  /** A purchase and the key its mail delivered. */
  async function bought(overrides: Partial<Purchase> = {}): Promise<{ event: Purchase; key: string }> {
    const event = await purchase(server, overrides);
    const [mail] = await licenceMails(server, event.email.toLowerCase());
    return { event, key: keyInMail(mail!.text) };
  }

  describe('a purchase', () => {
    it('issues a licence (machine limit = quantity, expiry = period end) and emails its key with the limit and the expiry', async () => {
      const periodEnd = new Date('2031-04-30T10:00:00.000Z');
      const event = await purchase(server, { email: uniqueEmail('Mixed.Case').toUpperCase(), quantity: 3, periodEnd });
      const email = event.email.toLowerCase();
      const [mail] = await licenceMails(server, email);
      expect(mail!.subject).toBe('Your Sheaf Offline licence key');
      expect(mail!.text).toContain('on 3 computers and is valid until 30 April 2031');
      expect(mail!.text).toContain('Manage licence');
      const shown = keyInMail(mail!.text);
      const check = checkLicenceKey(shown);
      expect(check.ok).toBe(true);
      const key = formatLicenceKey(shown).replace(/-/g, '');

      const [row, ...others] = await licenceRows(server, email);
      expect(others).toHaveLength(0);
      expect(row).toMatchObject({ machine_limit: 3, user_id: null, stripe_session_id: event.sessionId });
      expect(row!.expires_at.toISOString()).toBe(periodEnd.toISOString());
      // Found by its hash, kept encrypted: the key is nowhere in the row as text.
      expect(row!.key_hash).toBe(sha256Hex(key));
      expect(row!.key_encrypted).not.toContain(key);
    });

    it('goes to the signed-in buyer\'s account, in the language the buyer paid in', async () => {
      const account = await server.signUp();
      const event = await purchase(server, { userId: account.uid, email: account.email, language: 'de' });
      const [mail] = await licenceMails(server, account.email);
      expect(mail!.subject).toBe('Ihr Lizenzschlüssel für Sheaf Offline');
      expect((await licenceRows(server, event.email))[0]!.user_id).toBe(account.uid);
    });

    it('applied twice (the same checkout session) issues one licence and one email', async () => {
      const event = await purchase(server, { quantity: 2 });
      await purchase(server, { ...event, quantity: 5 });
      await licenceMails(server, event.email, 1);
      const rows = await licenceRows(server, event.email);
      expect(rows).toHaveLength(1);
      expect(rows[0]!.machine_limit).toBe(2);
      // One mail job, and it is done: no second mail is on its way.
      await vi.waitFor(async () => {
        const jobs = await server.ctx.db.query<{ status: string }>("SELECT status FROM jobs WHERE kind = 'licence-mail' AND payload->>'licenceId' = $1", [rows[0]!.id]);
        expect(jobs).toEqual([{ status: 'done' }]);
      });
      expect((await outboxMails(server)).filter((mail) => mail.to === event.email)).toHaveLength(1);
    });

    it('whose transaction rolls back leaves no licence and queues no email', async () => {
      const email = uniqueEmail('rolled-back');
      const mailJobs = async () => (await server.ctx.db.query("SELECT id FROM jobs WHERE kind = 'licence-mail'")).length;
      const jobsBefore = await mailJobs();
      const afterCommit = new AfterCommit();
      const failed = server.ctx.db.transaction(async (tx) => {
        await server.ctx.events.emit('licence.purchased', {
          tx, afterCommit, userId: null, email, sessionId: `cs_${randomBytes(6).toString('hex')}`, subscriptionId: `sub_${randomBytes(6).toString('hex')}`,
          quantity: 1, periodEnd: new Date(Date.now() + DAY_MS), language: 'en',
        });
        throw new Error('the webhook failed after the event');
      });
      await expect(failed).rejects.toThrow('the webhook failed');
      expect(await licenceRows(server, email)).toHaveLength(0);
      // The email is a job queued in the same transaction: gone with it, and nothing was sent before.
      expect(await mailJobs()).toBe(jobsBefore);
      expect((await outboxMails(server)).filter((mail) => mail.to === email)).toHaveLength(0);
    });
  });

  describe('GET /licences', () => {
    it('lists the account\'s licences with key, machine limit, machines and expiry; another account sees none of them', async () => {
      const owner = await server.signUp();
      const periodEnd = new Date(Date.now() + 30 * DAY_MS);
      const { key } = await bought({ userId: owner.uid, email: owner.email, quantity: 2, periodEnd });
      expect((await activate(key, 'machine-list-1')).status).toBe(200);

      const res = await server.inject('GET', '/licences', { token: owner.token });
      expect(res.status).toBe(200);
      expect(res.json.licences).toEqual([
        { key: key.replace(/-/g, ''), plan: 'Offline', machineLimit: 2, machines: 1, expiresAt: periodEnd.toISOString(), createdAt: expect.any(String), status: 'active' },
      ]);
      const stranger = await server.signUp();
      expect((await server.inject('GET', '/licences', { token: stranger.token })).json).toEqual({ licences: [] });
      expect((await server.inject('GET', '/licences')).status).toBe(401);
    });

    it('never shows a visitor\'s licence to an account that registers (or registered) the same address: addresses are not verified', async () => {
      const email = uniqueEmail('visitor');
      const before = await server.signUp(email);
      const { key } = await bought({ email });
      expect((await licenceRows(server, email))[0]!.user_id).toBeNull();
      const res = await server.inject('GET', '/licences', { token: before.token });
      expect(res.json.licences).toEqual([]);
      expect((await licenceRows(server, email))[0]!.user_id).toBeNull();
      // The buyer has the key from the mail, and it works on a machine.
      expect((await activate(key, 'visitor-machine')).status).toBe(200);
    });

    it('lists a key encrypted under another SECRET_KEY without it, and the key still activates', async () => {
      const owner = await server.signUp();
      const { key } = await bought({ userId: owner.uid, email: owner.email });
      await server.ctx.db.query("UPDATE licences SET key_encrypted = 'v1:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' WHERE user_id = $1", [owner.uid]);
      const res = await server.inject('GET', '/licences', { token: owner.token });
      expect(res.status).toBe(200);
      expect(res.json.licences).toMatchObject([{ key: '', machineLimit: 1, status: 'active' }]);
      expect((await activate(key, 'machine-rekeyed')).status).toBe(200);
    });

    it('marks a licence past its expiry as expired', async () => {
      const owner = await server.signUp();
      await bought({ userId: owner.uid, email: owner.email, periodEnd: new Date(Date.now() - DAY_MS) });
      const res = await server.inject('GET', '/licences', { token: owner.token });
      expect(res.json.licences.map((licence: { status: string }) => licence.status)).toEqual(['expired']);
    });
  });

  describe('POST /licences/activate', () => {
    it('activates up to the machine limit, then answers 402 licence/machine-limit; an activated machine gets its licence again', async () => {
      const periodEnd = new Date(Date.now() + 100 * DAY_MS);
      const { key } = await bought({ quantity: 2, periodEnd });

      const first = await activate(key.toLowerCase(), 'machine-one');
      expect(first.status).toBe(200);
      const verified = await verifySignedLicence(first.json as SignedLicence, keys.spki, new Date(), 'machine-one');
      expect(verified).toEqual({
        ok: true,
        licence: { v: 1, key: key.replace(/-/g, ''), plan: 'Offline', machineLimit: 2, expiresAt: periodEnd.toISOString(), issuedAt: expect.any(String), machineId: 'machine-one' },
      });

      // The format the desktop edition reads: base64url JSON of the fields, a 64-byte Ed25519 signature.
      const json = JSON.parse(new TextDecoder().decode(decodeBase64Url(first.json.payload)!));
      expect(Object.keys(json)).toEqual(['v', 'key', 'plan', 'machineLimit', 'expiresAt', 'issuedAt', 'machineId']);
      expect(decodeBase64Url(first.json.signature)).toHaveLength(64);

      expect((await activate(key, 'machine-two')).status).toBe(200);
      const third = await activate(key, 'machine-three');
      expect(third.status).toBe(402);
      expect(third.json.code).toBe('licence/machine-limit');

      const again = await activate(key.replace(/-/g, ' '), 'machine-one');
      expect(again.status).toBe(200);
      expect(await verifySignedLicence(again.json as SignedLicence, keys.spki, new Date(), 'machine-one')).toMatchObject({ ok: true });
      const [row] = await server.ctx.db.query<{ count: number }>(
        'SELECT count(*)::int AS count FROM licence_machines WHERE licence_id = (SELECT id FROM licences WHERE key_hash = $1)',
        [sha256Hex(key.replace(/-/g, ''))],
      );
      expect(row!.count).toBe(2);
    });

    it('follows the subscription: more licences raise the limit, a renewal moves the expiry, fewer keep the machines activated first', async () => {
      const { event, key } = await bought({ quantity: 1 });
      expect((await activate(key, 'machine-a')).status).toBe(200);
      expect((await activate(key, 'machine-b')).json.code).toBe('licence/machine-limit');

      const renewedUntil = new Date(Date.now() + 400 * DAY_MS);
      await changeSubscription(server, event.subscriptionId, 2, renewedUntil);
      const b = await activate(key, 'machine-b');
      expect(b.status).toBe(200);
      const licence = await verifySignedLicence(b.json as SignedLicence, keys.spki, new Date());
      expect(licence).toMatchObject({ ok: true, licence: { machineLimit: 2, expiresAt: renewedUntil.toISOString() } });

      await changeSubscription(server, event.subscriptionId, 1, renewedUntil);
      expect((await activate(key, 'machine-a')).status).toBe(200);
      expect((await activate(key, 'machine-b')).json.code).toBe('licence/machine-limit');
    });

    it('answers 402 licence/expired past the expiry, until a renewal', async () => {
      const { event, key } = await bought({ periodEnd: new Date(Date.now() - 1000) });
      const res = await activate(key, 'machine-expired');
      expect(res.status).toBe(402);
      expect(res.json.code).toBe('licence/expired');
      await changeSubscription(server, event.subscriptionId, 1, new Date(Date.now() + 30 * DAY_MS));
      expect((await activate(key, 'machine-expired')).status).toBe(200);
    });

    it('answers licence/invalid-format for a key that is not 25 letters and digits', async () => {
      for (const key of ['ABCDE-FGHJK', `${'A'.repeat(25)}B`, `${'A'.repeat(24)}!`]) {
        const res = await activate(key, 'machine-format');
        expect(res.status, key).toBe(400);
        expect(res.json.code, key).toBe('licence/invalid-format');
      }
    });

    it('answers licence/invalid-key for a typo (before any lookup: not counted) and for a key nobody bought', async () => {
      const { key } = await bought();
      const plain = key.replace(/-/g, '');
      const typo = plain.slice(0, 7) + (plain[7] === 'X' ? 'Y' : 'X') + plain.slice(8);
      const swapped = plain.slice(0, 3) + plain[4] + plain[3] + plain.slice(5);
      for (const wrong of [typo, ...(plain[3] !== plain[4] ? [swapped] : [])]) {
        const res = await activate(wrong, 'machine-typo');
        expect(res.status).toBe(400);
        expect(res.json.code).toBe('licence/invalid-key');
      }
      expect(await server.ctx.db.query('SELECT 1 FROM auth_attempts')).toHaveLength(0);

      const unknown = await activate(unboughtKey(), 'machine-unknown');
      expect(unknown.status).toBe(400);
      expect(unknown.json.code).toBe('licence/invalid-key');
      expect(await server.ctx.db.query('SELECT 1 FROM auth_attempts')).toHaveLength(1);
    });

    it('allows 30 activations per client an hour, then answers 429 even for a good key', async () => {
      const { key } = await bought();
      for (let i = 0; i < 30; i++) expect((await activate(unboughtKey(), `machine-guess-${i}`)).json.code).toBe('licence/invalid-key');
      const blocked = await activate(key, 'machine-rate');
      expect(blocked.status).toBe(429);
      expect(blocked.json.code).toBe('generic/too-many-attempts');
    });
  });

});

describe('without a signing key', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ database: 'pglite' });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('a purchase still records the licence and mails its key; activation answers 503 licence/signing-unavailable', async () => {
    const event = await purchase(server, { quantity: 2 });
    const [mail] = await licenceMails(server, event.email);
    const key = keyInMail(mail!.text);
    expect(await licenceRows(server, event.email)).toHaveLength(1);
    const res = await server.inject('POST', '/licences/activate', { body: { key, machineId: 'machine-unsigned' } });
    expect(res.status).toBe(503);
    expect(res.json.code).toBe('licence/signing-unavailable');
    expect(await server.ctx.db.query('SELECT 1 FROM licence_machines')).toHaveLength(0);
  });
});

describe('at boot', () => {
  it('a signing key whose public half is not the public key stops the start with a ConfigError', async () => {
    const one = keyPair();
    const other = keyPair();
    const start = startTestServer({ database: 'pglite', config: { LICENCE_SIGNING_KEY: one.signing, LICENCE_PUBLIC_KEY: other.public } });
    await expect(start).rejects.toBeInstanceOf(ConfigError);
    await expect(start).rejects.toThrow(/LICENCE_SIGNING_KEY: its public key is not LICENCE_PUBLIC_KEY/);
  });
});
