/**
 * SMTP senders over the real API against real SMTP servers on 127.0.0.1 (smtp-server): one that takes
 * a user name and password, one that answers 535 to every login, one offering STARTTLS with a
 * certificate nobody trusts, and a closed port. Private hosts are allowed for these servers; the SSRF
 * refusals run on a server with the web service's default (not allowed).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sender } from '@sheaf/shared';
import { decryptSecret } from '../src/crypto/secrets.ts';
import { senderDelivery } from '../src/modules/senders/index.ts';
import { forEachDatabase, startTestServer, type TestServer } from './harness.ts';
import { accountOn, closedPort, startSmtpSink, type SmtpSink } from './senders-support.ts';

const USER = 'mailer@example.com';
const PASS = 'S3cret pass: never shown';
const REJECT_TEXT = 'Authentication credentials invalid for this mailbox';

forEachDatabase((database) => {
  let server: TestServer;
  let accepting: SmtpSink;
  let rejecting: SmtpSink;
  let untrustedTls: SmtpSink;
  let closed: number;
  let token: string;
  let uid: string;

  beforeAll(async () => {
    server = await startTestServer({ database, config: { SMTP_ALLOW_PRIVATE_HOSTS: true } });
    accepting = await startSmtpSink({ accept: { user: USER, pass: PASS } });
    rejecting = await startSmtpSink({ rejectText: REJECT_TEXT });
    // STARTTLS offered with smtp-server's built-in self-signed certificate.
    untrustedTls = await startSmtpSink({ accept: { user: USER, pass: PASS }, extra: { disabledCommands: [] } });
    closed = await closedPort();
    ({ token, uid } = await accountOn(server, 'Enterprise'));
  });
  afterAll(async () => {
    await Promise.all([accepting?.close(), rejecting?.close(), untrustedTls?.close()]);
    await server?.close();
  });

  const smtpBody = (overrides: Record<string, unknown> = {}) => ({
    method: 'smtp', email: `sales-${Math.random().toString(36).slice(2, 8)}@example.com`, server: '127.0.0.1', port: accepting.port,
    username: USER, password: PASS, ...overrides,
  });
  const add = (body: Record<string, unknown>, as = token) => server.inject('POST', '/senders', { token: as, body });
  const verify = (body: Record<string, unknown>) => server.inject('POST', '/senders/verify', { token, body });
  const senders = async (): Promise<Sender[]> => (await server.inject('GET', '/senders', { token })).json.senders;

  describe('form', () => {
    it.each([
      [{ server: '' }, 'server', 'ServerError'],
      [{ server: 'smtp example.com' }, 'server', 'ServerError'],
      [{ server: 'smtp..example.com' }, 'server', 'ServerError'],
      [{ port: 0 }, 'port', 'PortError'],
      [{ port: 100_000 }, 'port', 'PortError'],
      [{ port: 'abc' }, 'port', 'PortError'],
      [{ port: '25.5' }, 'port', 'PortError'],
      [{ username: '' }, 'username', 'UsernameError'],
      [{ password: '' }, 'password', 'PasswordError'],
      [{ email: '' }, 'email', 'EmptyEmailError'],
      [{ email: 'sales@' }, 'email', 'EmailError'],
      // Checked in the documented order (docs/email.md#sender-form-rules): only the first problem is answered.
      [{ server: '', port: 0, username: '', password: '' }, 'server', 'ServerError'],
      [{ port: 0, username: '', password: '' }, 'port', 'PortError'],
      [{ username: '', password: '' }, 'username', 'UsernameError'],
    ])('%j -> %s: %s', async (overrides, field, name) => {
      const before = (await senders()).length;
      const response = await add(smtpBody(overrides));
      expect(response.status).toBe(400);
      expect(response.json).toMatchObject({ code: `sender/${name}`, fields: { [field]: `sender/${name}` } });
      expect(await senders()).toHaveLength(before);
    });
  });

  describe('live test', () => {
    it('verifies a server that accepts the login; the password is stored encrypted and never returned', async () => {
      const body = smtpBody({ port: String(accepting.port) });
      const response = await add(body);
      expect(response.status).toBe(201);
      const sender = response.json.sender as Sender;
      expect(sender).toMatchObject({ method: 'smtp', server: '127.0.0.1', port: accepting.port, username: USER, hasPassword: true, isVerified: true, lastError: null });
      expect(JSON.stringify(response.json)).not.toContain(PASS);
      expect(JSON.stringify((await server.inject('GET', `/senders/${sender.id}`, { token })).json)).not.toContain(PASS);
      expect(accepting.logins).toContain(USER);
      const [row] = await server.ctx.db.query<{ password: string }>('SELECT password FROM senders WHERE id = $1', [sender.id]);
      expect(row!.password).not.toContain(PASS);
      expect(decryptSecret(server.config.encryptionKey, row!.password)).toBe(PASS);
    });

    it('uses a name for the server: resolved, checked, then connected to by address', async () => {
      const response = await add(smtpBody({ server: 'localhost' }));
      expect(response.status).toBe(201);
      expect(response.json.sender).toMatchObject({ server: 'localhost', isVerified: true });
      const delivery = await senderDelivery(server.ctx, uid, response.json.sender.id);
      expect(delivery.route).toEqual({ kind: 'smtp', address: '127.0.0.1', port: accepting.port, secure: false, servername: 'localhost', auth: { user: USER, pass: PASS } });
      expect(delivery).toMatchObject({ method: 'smtp', from: { address: response.json.sender.email }, replyTo: null, returnPathDomain: null, dkim: null });
    });

    it('answers the server\'s own refusal and keeps the sender unverified with it', async () => {
      const body = smtpBody({ port: rejecting.port });
      const response = await add(body);
      expect(response.status).toBe(400);
      expect(response.json.code).toBe('sender/smtp-rejected');
      expect(response.json.params.response).toMatch(/^535 /);
      expect(response.json.params.response).toContain(REJECT_TEXT);
      expect(response.json.message).toBe(`The SMTP server answered: ${response.json.params.response}`);
      const saved = (await senders()).find((sender) => sender.id === response.json.params.senderId)!;
      expect(saved).toMatchObject({ email: body.email, isVerified: false, lastError: response.json.params.response });
      await expect(senderDelivery(server.ctx, uid, saved.id)).rejects.toMatchObject({ code: 'email/sender-gone' });
    });

    it('saves corrected fields when the test with them passes', async () => {
      const failed = await add(smtpBody({ port: rejecting.port }));
      const id = failed.json.params.senderId as string;
      const fixed = await verify({ id, port: accepting.port });
      expect(fixed.status).toBe(200);
      expect(fixed.json.sender).toMatchObject({ id, port: accepting.port, isVerified: true, lastError: null });
    });

    it('keeps the stored settings when corrections fail', async () => {
      const added = await add(smtpBody());
      const id = added.json.sender.id as string;
      const wrong = await verify({ id, password: 'not the password' });
      expect(wrong.json.code).toBe('sender/smtp-rejected');
      const [row] = await server.ctx.db.query<{ password: string; is_verified: boolean }>('SELECT password, is_verified FROM senders WHERE id = $1', [id]);
      expect(decryptSecret(server.config.encryptionKey, row!.password)).toBe(PASS);
      expect(row!.is_verified).toBe(true);
      // The stored settings still pass.
      expect((await verify({ id })).json.sender).toMatchObject({ isVerified: true, lastError: null });
    });

    it('answers connection failed for a closed port', async () => {
      const response = await add(smtpBody({ port: closed }));
      expect(response.status).toBe(400);
      expect(response.json).toMatchObject({ code: 'sender/smtp-failed', message: 'Connection to the SMTP server failed' });
      const saved = (await senders()).find((sender) => sender.id === response.json.params.senderId)!;
      expect(saved).toMatchObject({ isVerified: false, lastError: 'Connection to the SMTP server failed' });
    });

    it('answers connection failed when the STARTTLS certificate is not trusted, and logs in nowhere', async () => {
      const response = await add(smtpBody({ port: untrustedTls.port }));
      expect(response.json.code).toBe('sender/smtp-failed');
      expect(untrustedTls.logins).toEqual([]);
    });

    it('answers connection failed for a port beyond 65535 (the form allows up to 99999)', async () => {
      const response = await add(smtpBody({ port: 99_999 }));
      expect(response.json.code).toBe('sender/smtp-failed');
    });

    it('still refuses metadata addresses with private hosts allowed', async () => {
      const response = await add(smtpBody({ server: '169.254.169.254' }));
      expect(response.json).toMatchObject({ code: 'sender/host-forbidden', fields: { server: 'sender/host-forbidden' } });
    });

    it('unverifies a sender whose stored settings stop working', async () => {
      const added = await add(smtpBody());
      const id = added.json.sender.id as string;
      await server.ctx.db.query('UPDATE senders SET port = $2 WHERE id = $1', [id, rejecting.port]);
      const response = await verify({ id });
      expect(response.json.code).toBe('sender/smtp-rejected');
      expect((await senders()).find((sender) => sender.id === id)).toMatchObject({ isVerified: false });
    });
  });
});

describe('SSRF: users\' SMTP hosts with private hosts not allowed (the web default)', () => {
  let server: TestServer;
  let sink: SmtpSink;
  let token: string;
  beforeAll(async () => {
    server = await startTestServer({ database: 'pglite', config: { SMTP_ALLOW_PRIVATE_HOSTS: false } });
    sink = await startSmtpSink({ accept: { user: USER, pass: PASS } });
    token = (await accountOn(server, 'Enterprise')).token;
  });
  afterAll(async () => {
    await sink?.close();
    await server?.close();
  });

  it.each([['127.0.0.1'], ['localhost'], ['0x7f.1'], ['2130706433'], ['0177.0.0.1'], ['[::ffff:127.0.0.1]'], ['::1'], ['10.0.0.1'], ['169.254.169.254']])(
    'refuses %s under the server field and stores nothing',
    async (host) => {
      const response = await server.inject('POST', '/senders', {
        token, body: { method: 'smtp', email: 'ops@example.com', server: host, port: sink.port, username: USER, password: PASS },
      });
      expect(response.status).toBe(400);
      expect(response.json).toMatchObject({ code: 'sender/host-forbidden', fields: { server: 'sender/host-forbidden' } });
      expect((await server.inject('GET', '/senders', { token })).json.senders).toEqual([]);
      expect(sink.logins).toEqual([]);
    },
  );

  it('refuses to hand mailing a stored sender whose host is now forbidden', async () => {
    const account = await accountOn(server, 'Enterprise');
    await server.ctx.db.query(
      `INSERT INTO senders (id, owner_id, method, email, is_verified, server, port, username, password)
       VALUES ('legacysender000000001', $1, 'smtp', 'old@example.com', true, '127.0.0.1', $2, $3, 'v1:unused')`,
      [account.uid, sink.port, USER],
    );
    await expect(senderDelivery(server.ctx, account.uid, 'legacysender000000001')).rejects.toMatchObject({ code: 'sender/host-forbidden' });
  });
});
