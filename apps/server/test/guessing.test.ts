/**
 * Guessing stays hopeless (issue #11): sign-in attempts are counted before the password is checked,
 * per account and client, under a per-account ceiling the owner's own client and the reset link get
 * past; a spoof sender's code has a lifetime of tries; a click link that no redirect may lead to is
 * refused, never a 500. Clients are told apart by X-Forwarded-For (TRUST_PROXY).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sender } from '@sheaf/shared';
import { hmacSign } from '../src/crypto/secrets.ts';
import { forEachDatabase, startTestServer, TEST_PASSWORD, type InjectResponse, type TestServer } from './harness.ts';
import { accountOn, latestCode, outboxMails } from './senders-support.ts';
import {
  emailingTemplate, enterprise, mailingReport, parseMail, smtpSender, startEmailMerge, startMailSink, waitForMailing, type MailSink,
} from './mail-support.ts';

const MAIL_DOMAIN = 'mail.sheaf.test';
const NEW_PASSWORD = 'Another-passw0rd!';

forEachDatabase((database) => {
  let server: TestServer;
  let sink: MailSink;
  beforeAll(async () => {
    sink = await startMailSink();
    server = await startTestServer({ database, config: { MAIL_DOMAIN, TRUST_PROXY: true, SMTP_ALLOW_PRIVATE_HOSTS: true } });
  });
  afterAll(async () => {
    await server?.close();
    await sink?.close();
  });

  let clients = 0;
  /** A client address of its own (TEST-NET-2), so tests never share a client's counts. */
  const newClient = () => `198.51.100.${++clients}`;
  const login = (email: string, password: string, ip: string) =>
    server.inject('POST', '/users/login', { body: { email, password }, headers: { 'x-forwarded-for': ip } });
  const codes = (responses: InjectResponse[]) => responses.map((response) => response.json.code ?? 'ok').sort();
  const repeat = <T>(n: number, value: T): T[] => Array.from({ length: n }, () => value);

  describe('sign-in limits', () => {
    it('lets 5 of 50 parallel wrong passwords from one client reach the password check; the owner still signs in from elsewhere', async () => {
      const { email } = await server.signUp();
      const attacker = newClient();
      const answers = await Promise.all(repeat(50, null).map(() => login(email, 'wrong password', attacker)));
      // Only a checked password can be "wrong"; the others were refused before the check.
      expect(codes(answers)).toEqual([...repeat(5, 'auth/invalid-credentials'), ...repeat(45, 'generic/too-many-attempts')]);
      expect(answers.filter((answer) => answer.status === 429)).toHaveLength(45);

      // The attacker's client is held for this account, even with the right password...
      expect((await login(email, TEST_PASSWORD, attacker)).status).toBe(429);
      // ...but the account is not locked: its owner signs in from another client.
      expect((await login(email, TEST_PASSWORD, newClient())).status).toBe(200);
    });

    it('holds a ceiling per account across clients, which the owner\'s usual client and the reset link get past', async () => {
      const { email } = await server.signUp();
      const home = newClient();
      expect((await login(email, TEST_PASSWORD, home)).status).toBe(200);

      // 12 clients x 5 wrong passwords at once: the ceiling of 50 a day lets exactly 50 be checked.
      const crowd = Array.from({ length: 12 }, newClient);
      const answers = await Promise.all(crowd.flatMap((ip) => repeat(5, ip)).map((ip) => login(email, 'wrong password', ip)));
      expect(codes(answers)).toEqual([...repeat(50, 'auth/invalid-credentials'), ...repeat(10, 'generic/too-many-attempts')]);

      // A new client is refused before its password is checked, the right one included.
      const elsewhere = newClient();
      expect((await login(email, 'wrong password', elsewhere)).json.code).toBe('generic/too-many-attempts');
      expect((await login(email, TEST_PASSWORD, elsewhere)).status).toBe(429);
      // The client the owner signed in from lately is not held by the ceiling.
      expect((await login(email, TEST_PASSWORD, home)).status).toBe(200);

      // The reset link always works, and the new password signs in from the client that used it.
      const reset = await server.inject('POST', '/users/resetPassword', { body: { email }, headers: { 'x-forwarded-for': elsewhere } });
      expect(reset.status).toBe(200);
      const mail = (await outboxMails(server)).filter((item) => item.to === email).at(-1)!;
      const token = decodeURIComponent(/resetPassword\?token=(\S+)/.exec(mail.text)![1]!);
      const confirmed = await server.inject('POST', '/users/resetPassword/confirm', {
        body: { token, password: NEW_PASSWORD, confirmPassword: NEW_PASSWORD }, headers: { 'x-forwarded-for': elsewhere },
      });
      expect(confirmed.status).toBe(200);
      expect((await login(email, NEW_PASSWORD, elsewhere)).status).toBe(200);
      // Guesses of the old password no longer count: the crowd's clients are free again, for 5 tries each.
      expect((await login(email, 'wrong password', crowd[0]!)).json.code).toBe('auth/invalid-credentials');
    });

    it('counts a whole IPv6 /64 as one client, so picking a new address per try does not help', async () => {
      const { email } = await server.signUp();
      const network = `2001:db8:${++clients}:1`;
      const answers = await Promise.all(Array.from({ length: 8 }, (_unused, i) => login(email, 'wrong password', `${network}::${i + 1}`)));
      expect(codes(answers)).toEqual([...repeat(5, 'auth/invalid-credentials'), ...repeat(3, 'generic/too-many-attempts')]);
      expect((await login(email, TEST_PASSWORD, `${network}:abcd:1234:5678:9abc`)).status).toBe(429);
      // Another network is another client: the owner signs in from there.
      expect((await login(email, TEST_PASSWORD, `2001:db8:${++clients}:1::1`)).status).toBe(200);
    });

    it('counts wrong current passwords of a signed-in user the same way, before the check', async () => {
      const account = await server.signUp();
      const client = newClient();
      const answers = await Promise.all(repeat(20, null).map(() => server.inject('POST', '/users/me/password', {
        token: account.token, headers: { 'x-forwarded-for': client },
        body: { currentPassword: 'wrong password', password: NEW_PASSWORD, confirmPassword: NEW_PASSWORD },
      })));
      expect(answers.filter((answer) => answer.json.fields?.currentPassword === 'auth/wrong-password')).toHaveLength(5);
      expect(answers.filter((answer) => answer.status === 429)).toHaveLength(15);
    });
  });

  describe('spoof sender codes', () => {
    const addSpoof = (token: string, email: string) =>
      server.inject('POST', '/senders', { token, body: { method: 'spoof', email, identifier: 'Jane from Accounts' } });
    const verify = (token: string, id: string, code: string) => server.inject('POST', '/senders/verify', { token, body: { id, code } });
    const wrongCodes = (right: string, n: number) =>
      Array.from({ length: n + 1 }, (_unused, i) => String(1000 + i * 7)).filter((candidate) => candidate !== right).slice(0, n);

    it('gives a sender 20 tries over its whole life, whatever number of codes it asks for; then it must be added again', async () => {
      const account = await accountOn(server, 'Pro');
      const address = 'target@example.com';
      const first = await addSpoof(account.token, address);
      expect(first.status).toBe(201);
      const senderId: string = first.json.sender.id;

      for (let round = 1; round <= 4; round++) {
        const code = await latestCode(server, address);
        for (const wrong of wrongCodes(code, 5)) expect((await verify(account.token, senderId, wrong)).json.code).toBe('sender/invalid-code');
        // The code has had its 5 tries.
        expect((await verify(account.token, senderId, code)).json.code).toBe(round < 4 ? 'generic/too-many-attempts' : 'sender/code-attempts-used-up');
        if (round < 4) {
          // A new code on request, for the same sender: its tries so far stay counted.
          const again = await addSpoof(account.token, address);
          expect(again.status).toBe(201);
          expect(again.json.sender.id).toBe(senderId);
        }
      }
      const usedUp = await verify(account.token, senderId, await latestCode(server, address));
      expect(usedUp.status).toBe(400);
      expect(usedUp.json).toMatchObject({
        code: 'sender/code-attempts-used-up', message: 'Too many wrong codes for this sender. Add the sender again to get a new code.',
      });

      // Added again: a new sender with a new code, which verifies.
      const readded = await addSpoof(account.token, address);
      expect(readded.status).toBe(201);
      expect(readded.json.sender.id).not.toBe(senderId);
      expect(readded.json.senders.map((sender: Sender) => sender.id)).toEqual([readded.json.sender.id]);
      expect((await verify(account.token, readded.json.sender.id, await latestCode(server, address))).json.sender.isVerified).toBe(true);
    });

    it('mails an address at most 5 codes a day, whatever the account', async () => {
      const address = 'daily@example.com';
      for (let round = 0; round < 5; round++) {
        const account = await accountOn(server, 'Pro');
        expect((await addSpoof(account.token, address)).status).toBe(201);
      }
      // Two hours later (the old limit was 5 an hour) the day's codes are still used up.
      await server.ctx.db.query(`UPDATE auth_attempts SET attempted_at = attempted_at - interval '2 hours' WHERE key LIKE 'sender-code%'`);
      const sixth = await addSpoof((await accountOn(server, 'Pro')).token, address);
      expect(sixth.status).toBe(429);
      expect((await outboxMails(server)).filter((mail) => mail.to === address)).toHaveLength(5);
    });
  });

  describe('click links', () => {
    const key = () => server.ctx.config.jwtKey;
    const messageId = 'a'.repeat(24);

    it('refuses a link whose target holds CR/LF with 400, before its signature or message is looked at', async () => {
      const target = 'https://example.com/a\r\nSet-Cookie: x=1';
      // Signed as the server signed every link before it refused such targets.
      const signature = hmacSign(key(), `sheaf-click:${messageId}:${target}`);
      const response = await fetch(`${server.url}/t/c/${messageId}/${signature}?u=${encodeURIComponent(target)}`, { redirect: 'manual' });
      expect(response.status).toBe(400);
      expect(response.headers.get('location')).toBeNull();
      expect(response.headers.get('set-cookie')).toBeNull();
    });

    it('sends a link filled with a line break as a browser reads it, and refuses a signed CR/LF link to a real message with 400', async () => {
      const user = await server.signUp();
      await enterprise(server, user.uid);
      const senderId = await smtpSender(server, user.token, sink);
      const csv = 'First,Last,Email\n"Ann\r\nSet-Cookie: x=1",Smith,ann@example.com\n';
      const templateId = await emailingTemplate(server, user.token, senderId, csv, {
        content: '<p>Dear {{Last}},</p><p><a href="https://example.com/hello?name={{First}}">Hello</a></p>',
      });
      const { mergeId } = await startEmailMerge(server, user.token, templateId);
      await waitForMailing(server, user.token, templateId, mergeId);
      const event = (await mailingReport(server, user.token, templateId, mergeId)).events[0]!;
      const mail = sink.accepted.find((received) => received.messageId.startsWith(`${event.messageId}@`))!;
      const html = (await parseMail(mail.raw)).html as string;
      const link = /<a href="([^"]+\/t\/c\/[^"]+)"/.exec(html)![1]!.replace(/&amp;/g, '&');

      const clicked = await fetch(link, { redirect: 'manual' });
      expect(clicked.status).toBe(302);
      expect(clicked.headers.get('location')).toBe('https://example.com/hello?name=AnnSet-Cookie:%20x=1');
      expect(clicked.headers.get('set-cookie')).toBeNull();

      // The link as it was signed before line breaks were dropped: refused, not a 500.
      const target = 'https://example.com/hello?name=Ann\r\nSet-Cookie: x=1';
      const signature = hmacSign(key(), `sheaf-click:${event.messageId}:${target}`);
      const raw = await fetch(`${server.url}/t/c/${event.messageId}/${signature}?u=${encodeURIComponent(target)}`, { redirect: 'manual' });
      expect(raw.status).toBe(400);
      expect(raw.headers.get('location')).toBeNull();
    });
  });
});
