/**
 * Senders over the real API: plan rules, the spoof method's form errors and code, notifications and
 * deletion. The code is read from the mail the server wrote to its outbox.
 */
import { simpleParser } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sender } from '@sheaf/shared';
import { senderDelivery } from '../src/modules/senders/index.ts';
import { forEachDatabase, startTestServer, type TestServer } from './harness.ts';
import { setPlan } from './merge-support.ts';
import { accountOn, latestCode, outboxMails, startSmtpSink, type SmtpSink } from './senders-support.ts';

const MAIL_DOMAIN = 'mail.sheaf.test';

forEachDatabase((database) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ database, config: { MAIL_DOMAIN } });
  });
  afterAll(() => server?.close());

  const addSpoof = (token: string, email: string, identifier = 'Jane from Accounts') =>
    server.inject('POST', '/senders', { token, body: { method: 'spoof', email, identifier } });
  const verify = (token: string, body: Record<string, unknown>) => server.inject('POST', '/senders/verify', { token, body });
  const list = async (token: string): Promise<Sender[]> => (await server.inject('GET', '/senders', { token })).json.senders;

  describe('plan rules', () => {
    it('refuses every method on the Free plan, smtp and domain on Pro, with the upgrade each needs', async () => {
      const free = await accountOn(server, 'Free');
      const spoof = await addSpoof(free.token, 'jane@example.com');
      expect(spoof.status).toBe(402); // an upgrade fixes it: Payment Required (docs/errors.md)
      expect(spoof.json.code).toBe('sender/needs-pro');
      const pro = await accountOn(server, 'Pro');
      const smtp = await server.inject('POST', '/senders', { token: pro.token, body: { method: 'smtp', email: 'a@example.com', server: 'smtp.example.com', port: 465, username: 'a', password: 'b' } });
      expect(smtp.json.code).toBe('sender/needs-enterprise');
      const domain = await server.inject('POST', '/senders', { token: pro.token, body: { method: 'domain', email: 'a@example.com' } });
      expect(domain.json.code).toBe('sender/needs-enterprise');
      expect(await list(pro.token)).toEqual([]);
      expect(await outboxMails(server)).toEqual([]);
    });

    it('stops verifying a spoof sender once the account is back on Free', async () => {
      const pro = await accountOn(server, 'Pro');
      const added = await addSpoof(pro.token, 'downgrade@example.com');
      await setPlan(server, pro.uid, 'Free');
      const response = await verify(pro.token, { id: added.json.sender.id, code: await latestCode(server, 'downgrade@example.com') });
      expect(response.json.code).toBe('sender/needs-pro');
      expect((await list(pro.token))[0]!.isVerified).toBe(false);
    });
  });

  describe('spoof form', () => {
    let token: string;
    beforeAll(async () => {
      token = (await accountOn(server, 'Pro')).token;
    });

    const fieldError = async (email: string, identifier: string) => {
      const response = await addSpoof(token, email, identifier);
      expect(response.status).toBe(400);
      return { code: response.json.code, fields: response.json.fields };
    };

    it('checks the email first, then the identifier, one error under its field', async () => {
      expect(await fieldError('', '')).toEqual({ code: 'sender/EmptyEmailError', fields: { email: 'sender/EmptyEmailError' } });
      expect(await fieldError('not-an-address', 'Jane')).toEqual({ code: 'sender/EmailError', fields: { email: 'sender/EmailError' } });
      expect(await fieldError('jane@example.com', '   ')).toEqual({ code: 'sender/EmptyIdentifierError', fields: { identifier: 'sender/EmptyIdentifierError' } });
      expect(await fieldError('jane@example.com', 'Jane <ceo@bank.example>')).toEqual({ code: 'sender/IdentifierError', fields: { identifier: 'sender/IdentifierError' } });
      expect(await fieldError('jane@example.com', 'x'.repeat(65))).toEqual({ code: 'sender/IdentifierError', fields: { identifier: 'sender/IdentifierError' } });
      expect(await list(token)).toEqual([]);
    });

    it('takes names in any script with the allowed punctuation', async () => {
      const response = await addSpoof(token, 'zhang@example.com', "张伟 & O'Brien-Müller, Ltd.");
      expect(response.status).toBe(201);
      expect(response.json.sender.identifier).toBe("张伟 & O'Brien-Müller, Ltd.");
    });
  });

  describe('spoof verification', () => {
    it('mails a 4-digit code to the real address; the right code verifies the sender', async () => {
      const account = await accountOn(server, 'Pro');
      const added = await addSpoof(account.token, ' Jane.Doe@Example.com ', 'Jane Doe');
      expect(added.status).toBe(201);
      const sender = added.json.sender as Sender;
      expect(sender).toMatchObject({
        method: 'spoof', email: 'jane.doe@example.com', identifier: 'Jane Doe', spoofAddress: `jane.doe@${MAIL_DOMAIN}`,
        isVerified: false, notifications: 'failed', hasPassword: false, dnsRecords: [], server: null,
      });
      expect(added.json.senders).toEqual([sender]);

      const mails = (await outboxMails(server)).filter((mail) => mail.to === 'jane.doe@example.com');
      expect(mails).toHaveLength(1);
      const code = await latestCode(server, 'jane.doe@example.com');
      expect(mails[0]!.subject).toContain(code);
      expect(mails[0]!.text).toContain(`Jane Doe <jane.doe@${MAIL_DOMAIN}>`);
      // Nothing secret is stored in the clear.
      const [row] = await server.ctx.db.query<{ code_hash: string }>('SELECT code_hash FROM senders WHERE id = $1', [sender.id]);
      expect(row!.code_hash).not.toContain(code);

      const wrong = await verify(account.token, { id: sender.id, code: code === '0000' ? '0001' : '0000' });
      expect(wrong.status).toBe(400);
      expect(wrong.json).toMatchObject({ code: 'sender/invalid-code', message: 'Invalid verification code' });

      const right = await verify(account.token, { id: sender.id, code });
      expect(right.status).toBe(200);
      expect(right.json.sender).toMatchObject({ id: sender.id, isVerified: true });
      expect(right.json.sender.verifiedAt).not.toBeNull();
      expect((await list(account.token))[0]!.isVerified).toBe(true);

      // The same address again: already verified.
      const again = await addSpoof(account.token, 'jane.doe@example.com', 'Jane');
      expect(again.json.fields).toEqual({ email: 'sender/EmailAlreadyVerifiedError' });
    });

    it('writes the code mail in the account language', async () => {
      const account = await accountOn(server, 'Pro');
      expect((await server.inject('PATCH', '/users/me', { token: account.token, body: { language: 'de' } })).status).toBe(200);
      await addSpoof(account.token, 'hans@example.de', 'Hans');
      const mail = (await outboxMails(server)).find((entry) => entry.to === 'hans@example.de')!;
      expect(mail.subject).toContain('Bestätigungscode');
      expect(mail.text).toContain('Minuten');
    });

    it('refuses a second request while the first code still works, and a reopened dialog without a code', async () => {
      const account = await accountOn(server, 'Pro');
      const added = await addSpoof(account.token, 'pending@example.com');
      const again = await addSpoof(account.token, 'pending@example.com');
      expect(again.json.fields).toEqual({ email: 'sender/EmailAlreadyAddedError' });
      const noCode = await verify(account.token, { id: added.json.sender.id });
      expect(noCode.json.code).toBe('sender/not-reopenable');
      const badShape = await verify(account.token, { id: added.json.sender.id, code: '12a4' });
      expect(badShape.json.code).toBe('generic/invalid-input');
    });

    it('locks the code after five tries, even for the right code; adding the address again sends a new one', async () => {
      const account = await accountOn(server, 'Pro');
      const added = await addSpoof(account.token, 'guess@example.com');
      const code = await latestCode(server, 'guess@example.com');
      const wrongCodes = ['0000', '1111', '2222', '3333', '4444', '5555'].filter((candidate) => candidate !== code).slice(0, 5);
      for (const wrong of wrongCodes) expect((await verify(account.token, { id: added.json.sender.id, code: wrong })).json.code).toBe('sender/invalid-code');
      const locked = await verify(account.token, { id: added.json.sender.id, code });
      expect(locked.status).toBe(429);
      expect(locked.json).toMatchObject({ code: 'generic/too-many-attempts', message: 'Too many failed attempts. Please try again later.' });
      expect((await list(account.token))[0]!.isVerified).toBe(false);

      const readded = await addSpoof(account.token, 'guess@example.com');
      expect(readded.status).toBe(201);
      expect(readded.json.senders).toHaveLength(1);
      const fresh = await verify(account.token, { id: readded.json.sender.id, code: await latestCode(server, 'guess@example.com') });
      expect(fresh.json.sender.isVerified).toBe(true);
    });

    it('answers code-expired after 15 minutes', async () => {
      const account = await accountOn(server, 'Pro');
      const added = await addSpoof(account.token, 'late@example.com');
      const code = await latestCode(server, 'late@example.com');
      await server.ctx.db.query(`UPDATE senders SET code_expires_at = now() - interval '1 second' WHERE id = $1`, [added.json.sender.id]);
      const late = await verify(account.token, { id: added.json.sender.id, code });
      expect(late.json.code).toBe('sender/code-expired');
      // Expired: adding it again replaces it with a new code.
      const readded = await addSpoof(account.token, 'late@example.com');
      expect(readded.status).toBe(201);
      expect(readded.json.senders.map((sender: Sender) => sender.id)).toEqual([readded.json.sender.id]);
    });

    it('mails at most five codes an hour to one address', async () => {
      const account = await accountOn(server, 'Pro');
      for (let round = 0; round < 5; round++) {
        const added = await addSpoof(account.token, 'flood@example.com');
        expect(added.status).toBe(201);
        await server.inject('DELETE', `/senders/${added.json.sender.id}`, { token: account.token });
      }
      const sixth = await addSpoof(account.token, 'flood@example.com');
      expect(sixth.status).toBe(429);
      expect((await outboxMails(server)).filter((mail) => mail.to === 'flood@example.com')).toHaveLength(5);
    });

    it('hands mailing the spoof address, the identifier and replies to the real address', async () => {
      const account = await accountOn(server, 'Pro');
      const added = await addSpoof(account.token, 'ann@example.com', 'Ann Smith');
      await expect(senderDelivery(server.ctx, account.uid, added.json.sender.id)).rejects.toMatchObject({ code: 'email/sender-gone' });
      await verify(account.token, { id: added.json.sender.id, code: await latestCode(server, 'ann@example.com') });
      expect(await senderDelivery(server.ctx, account.uid, added.json.sender.id)).toEqual({
        senderId: added.json.sender.id, method: 'spoof', from: { name: 'Ann Smith', address: `ann@${MAIL_DOMAIN}` }, replyTo: 'ann@example.com',
        returnPathDomain: MAIL_DOMAIN, dkim: null, route: { kind: 'outbox' }, notifications: 'failed', ownerEmail: account.email,
      });
    });
  });

  describe('notifications and deletion', () => {
    it('keeps failed as the default and changes to all', async () => {
      const account = await accountOn(server, 'Pro');
      const added = await addSpoof(account.token, 'notify@example.com');
      expect(added.json.sender.notifications).toBe('failed');
      const changed = await server.inject('PATCH', `/senders/${added.json.sender.id}`, { token: account.token, body: { notifications: 'all' } });
      expect(changed.status).toBe(200);
      expect(changed.json.notifications).toBe('all');
      expect((await list(account.token))[0]!.notifications).toBe('all');
      const bad = await server.inject('PATCH', `/senders/${added.json.sender.id}`, { token: account.token, body: { notifications: 'delayed' } });
      expect(bad.json.code).toBe('generic/invalid-input');
    });

    it('deletes a sender; a second delete finds nothing', async () => {
      const account = await accountOn(server, 'Pro');
      const first = await addSpoof(account.token, 'one@example.com');
      await addSpoof(account.token, 'two@example.com');
      const deleted = await server.inject('DELETE', `/senders/${first.json.sender.id}`, { token: account.token });
      expect(deleted.status).toBe(200);
      expect(deleted.json.senders.map((sender: Sender) => sender.email)).toEqual(['two@example.com']);
      const again = await server.inject('DELETE', `/senders/${first.json.sender.id}`, { token: account.token });
      expect(again.status).toBe(404);
      expect(again.json.code).toBe('sender/not-found');
      const get = await server.inject('GET', `/senders/${first.json.sender.id}`, { token: account.token });
      expect(get.status).toBe(404);
    });
  });
});

describe('desktop edition', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ database: 'pglite', config: { EDITION: 'desktop' } });
  });
  afterAll(() => server?.close());

  it('offers only smtp senders, whatever the plan', async () => {
    const account = await accountOn(server, 'Enterprise');
    for (const body of [{ method: 'spoof', email: 'a@example.com', identifier: 'A' }, { method: 'domain', email: 'a@example.com' }]) {
      const response = await server.inject('POST', '/senders', { token: account.token, body });
      expect(response.json.code).toBe('sender/desktop-smtp-only');
    }
  });

  it('starts a new account as the unlicensed trial, which cannot send until a licence', async () => {
    const account = await server.signUp();
    const me = await server.inject('GET', '/users/me', { token: account.token });
    expect(me.json.billingPlan).toBe('Unlicensed');
  });

  it('lets neither the Free plan nor the unlicensed trial send: no smtp sender, no test email (the plan catalogue)', async () => {
    for (const plan of ['Free', 'Unlicensed']) {
      const account = await accountOn(server, plan);
      const smtp = await server.inject('POST', '/senders', {
        token: account.token, body: { method: 'smtp', email: 'a@example.com', server: 'smtp.example.com', port: 465, username: 'a', password: 'b' },
      });
      expect(smtp.json.code, plan).toBe('email/licence-required');
      const test = await server.inject('POST', `/templates/${'a'.repeat(20)}/email/test`, { token: account.token, body: {} });
      expect(test.json.code, plan).toBe('email/licence-required');
    }
  });
});

describe('with the platform relay configured (SMTP_URL)', () => {
  let relay: SmtpSink;
  let server: TestServer;
  beforeAll(async () => {
    relay = await startSmtpSink({ accept: { user: 'relay', pass: 'p@ss word' } });
    server = await startTestServer({ database: 'pglite', config: { MAIL_DOMAIN, SMTP_URL: `smtp://relay:p%40ss%20word@127.0.0.1:${relay.port}` } });
  });
  afterAll(async () => {
    await server?.close();
    await relay?.close();
  });

  it('mails the code through the relay and sends spoof mail through it', async () => {
    const account = await accountOn(server, 'Pro');
    const added = await server.inject('POST', '/senders', { token: account.token, body: { method: 'spoof', email: 'relayed@example.com', identifier: 'Relayed' } });
    expect(added.status).toBe(201);
    expect(await outboxMails(server)).toEqual([]);
    expect(relay.messages).toHaveLength(1);
    const mail = await simpleParser(relay.messages[0]!);
    expect(mail.to).toMatchObject({ text: 'relayed@example.com' });
    const code = /^([0-9]{4})$/m.exec(mail.text ?? '')![1]!;
    const verified = await server.inject('POST', '/senders/verify', { token: account.token, body: { id: added.json.sender.id, code } });
    expect(verified.json.sender.isVerified).toBe(true);
    const delivery = await senderDelivery(server.ctx, account.uid, added.json.sender.id);
    expect(delivery.route).toEqual({ kind: 'smtp', address: '127.0.0.1', port: relay.port, secure: false, servername: '127.0.0.1', auth: { user: 'relay', pass: 'p@ss word' } });
  });
});
