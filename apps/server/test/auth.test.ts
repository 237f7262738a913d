/** Sign-up, sign-in, sessions and password reset over HTTP, on PGlite and on PostgreSQL. */
import { beforeAll, afterAll, beforeEach, describe, expect, it } from 'vitest';
import { SignJWT } from 'jose';
import { readOutbox, readOutboxMail } from '../src/adapters/mail/outbox.ts';
import { forEachDatabase, startTestServer } from './harness.ts';

type Server = Awaited<ReturnType<typeof startTestServer>>;

const PASSWORD = 'correct horse 42';

interface Mail { to: string; subject: string; text: string }

/** The mails the server put in its outbox, oldest first, with their decoded text. */
async function outbox(server: Server): Promise<Mail[]> {
  const dir = server.ctx.config.OUTBOX_DIR;
  const mails: Mail[] = [];
  for (const entry of await readOutbox(dir)) {
    mails.push({ to: entry.to, subject: entry.subject, text: bodyText(await readOutboxMail(dir, entry)) });
  }
  return mails;
}

/** The text body of a single-part RFC 822 message (quoted-printable, base64 or plain). */
function bodyText(eml: string): string {
  const split = eml.search(/\r?\n\r?\n/);
  const head = eml.slice(0, split);
  const body = eml.slice(split).replace(/^\r?\n\r?\n/, '');
  const encoding = /^content-transfer-encoding:\s*(\S+)/im.exec(head)?.[1]?.toLowerCase();
  if (encoding === 'base64') return Buffer.from(body, 'base64').toString('utf8');
  if (encoding !== 'quoted-printable') return body;
  const escaped = body.replace(/%/g, '%25').replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/gi, '%$1');
  return decodeURIComponent(escaped);
}

async function resetLinkFor(server: Server, email: string): Promise<{ token: string; subject: string; text: string }> {
  const mail = (await outbox(server)).filter((item) => item.to === email).at(-1);
  if (!mail) throw new Error(`no mail to ${email}`);
  const match = /(\S+\/resetPassword\?token=(\S+))/.exec(mail.text);
  if (!match) throw new Error(`no reset link in the mail: ${mail.text}`);
  expect(match[1]!.startsWith(`${server.ctx.config.PUBLIC_URL}/resetPassword?token=`)).toBe(true);
  return { token: decodeURIComponent(match[2]!), subject: mail.subject, text: mail.text };
}

let counter = 0;
const uniqueEmail = (label: string): string => `${label}-${Date.now().toString(36)}-${++counter}@example.com`;

function registration(email: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return { firstName: 'Ada', lastName: 'Lovelace', email, password: PASSWORD, confirmPassword: PASSWORD, ...overrides };
}

forEachDatabase((database) => {
  let server: Server;
  beforeAll(async () => {
    server = await startTestServer({ database });
  });
  afterAll(async () => {
    await server?.close();
  });
  // Every request comes from the same client address: start each test with no failures counted.
  beforeEach(async () => {
    await server.ctx.db.query('DELETE FROM auth_attempts');
  });

  const login = (email: string, password: string) => server.inject('POST', '/users/login', { body: { email, password } });
  /** An account made through the register call, with PASSWORD. */
  async function signUp(email: string): Promise<{ token: string; refreshToken: string; uid: string; email: string }> {
    const res = await server.inject('POST', '/users/register', { body: registration(email) });
    expect(res.status, JSON.stringify(res.json)).toBe(201);
    return res.json;
  }

  describe('registration', () => {
    it('creates the account, answers 201 with a session that opens /users/me', async () => {
      const email = uniqueEmail('new');
      const res = await server.inject('POST', '/users/register', { body: registration(email, { company: ' Analytical ', language: 'de' }) });
      expect(res.status).toBe(201);
      expect(res.json).toMatchObject({ email, uid: expect.stringMatching(/^[A-Za-z0-9]{20}$/) });
      expect(res.json.expiresIn).toBeGreaterThan(0);
      const me = await server.inject('GET', '/users/me', { token: res.json.token });
      expect(me.status).toBe(200);
      expect(me.json).toMatchObject({ uid: res.json.uid, email, firstName: 'Ada', lastName: 'Lovelace', company: 'Analytical', language: 'de', billingPlan: 'Free' });
    });

    it('reports every broken rule at once, each under its field', async () => {
      const res = await server.inject('POST', '/users/register', {
        body: { firstName: ' ', lastName: '', email: '', password: '', confirmPassword: 'x' },
      });
      expect(res.status).toBe(400);
      expect(res.json.fields).toEqual({
        firstName: 'auth/firstname-empty',
        lastName: 'auth/lastname-empty',
        email: 'auth/email-empty',
        password: 'auth/password-empty',
        confirmPassword: 'auth/passwords-must-match',
      });
    });

    it('refuses an invalid address and weak passwords (short, the email itself, a common one)', async () => {
      const invalid = await server.inject('POST', '/users/register', { body: registration('ada@nowhere') });
      expect(invalid.json.fields).toEqual({ email: 'auth/email-invalid' });
      const email = uniqueEmail('weak');
      for (const password of ['abc12', email, 'Password1', 'qwerty123']) {
        const res = await server.inject('POST', '/users/register', { body: registration(email, { password, confirmPassword: password }) });
        expect(res.status, password).toBe(400);
        expect(res.json.fields, password).toEqual({ password: 'auth/weak-password' });
      }
      expect((await login(email, 'abc12')).status).toBe(401);
    });

    it('refuses an address already in use, whatever its case and spacing', async () => {
      const email = uniqueEmail('taken');
      expect((await server.inject('POST', '/users/register', { body: registration(email) })).status).toBe(201);
      const again = await server.inject('POST', '/users/register', { body: registration(`  ${email.toUpperCase()}\u200B `) });
      expect(again.status).toBe(400);
      expect(again.json).toMatchObject({ code: 'auth/email-already-in-use', fields: { email: 'auth/email-already-in-use' } });
    });
  });

  describe('login', () => {
    it('gives a session for the right password and the same 401 for a wrong password or an unknown address', async () => {
      const { email, uid } = await signUp(uniqueEmail('login'));
      const ok = await login(email.toUpperCase(), PASSWORD);
      expect(ok.status).toBe(200);
      expect(ok.json.uid).toBe(uid);
      const wrong = await login(email, 'not the password');
      const unknown = await login(uniqueEmail('nobody'), 'not the password');
      expect(wrong.status).toBe(401);
      expect(unknown.status).toBe(401);
      expect(wrong.json.code).toBe('auth/invalid-credentials');
      expect(unknown.json).toEqual(wrong.json);
    });

    it('after 5 failures refuses even the right password with 429 until the window has passed', async () => {
      const { email } = await signUp(uniqueEmail('limited'));
      const password = PASSWORD;
      for (let i = 0; i < 5; i++) expect((await login(email, 'wrong password')).status).toBe(401);
      const blocked = await login(email, password);
      expect(blocked.status).toBe(429);
      expect(blocked.json.message).toBe('Too many failed attempts. Please try again later.');
      // Another account from the same address is not affected by this email's failures.
      const other = await signUp(uniqueEmail('other'));
      expect((await login(other.email, PASSWORD)).status).toBe(200);
      await server.ctx.db.query(`UPDATE auth_attempts SET attempted_at = attempted_at - interval '16 minutes'`);
      expect((await login(email, password)).status).toBe(200);
    });

    it('a successful login clears the failures of that address', async () => {
      const { email } = await signUp(uniqueEmail('clears'));
      const password = PASSWORD;
      for (let i = 0; i < 4; i++) await login(email, 'wrong password');
      expect((await login(email, password)).status).toBe(200);
      for (let i = 0; i < 4; i++) expect((await login(email, 'wrong password')).status).toBe(401);
      expect((await login(email, password)).status).toBe(200);
    });

    it('30 failures from one client address block every address from it', async () => {
      for (let i = 0; i < 30; i++) expect((await login(uniqueEmail(`ip${i}`), 'wrong password')).status).toBe(401);
      const { email } = await signUp(uniqueEmail('victim'));
      expect((await login(email, PASSWORD)).status).toBe(429);
    });

    it('a disabled account cannot log in and its tokens stop working', async () => {
      const { email, uid, token } = await signUp(uniqueEmail('disabled'));
      await server.ctx.db.query('UPDATE users SET disabled_at = now() WHERE id = $1', [uid]);
      const res = await login(email, PASSWORD);
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.json).toMatchObject({ code: 'auth/account-disabled', message: 'This account has been disabled. Please contact your administrator.' });
      expect((await server.inject('GET', '/users/me', { token })).status).toBe(401);
    });
  });

  describe('sessions', () => {
    const refresh = (refreshToken: string) =>
      server.inject('POST', '/users/token', { body: { grant_type: 'refresh_token', refresh_token: refreshToken } });

    it('rotates the refresh token; presenting a used one again revokes the whole family', async () => {
      const session = await signUp(uniqueEmail('rotate'));
      const first = await refresh(session.refreshToken);
      expect(first.status).toBe(200);
      expect(first.json).toMatchObject({ user_id: session.uid, expires_in: expect.any(Number) });
      expect(first.json.refresh_token).not.toBe(session.refreshToken);
      expect((await server.inject('GET', '/users/me', { token: first.json.id_token })).status).toBe(200);
      const second = await refresh(first.json.refresh_token);
      expect(second.status).toBe(200);

      // The first token again: someone copied it. Both the thief and the owner are signed out.
      const replay = await refresh(session.refreshToken);
      expect(replay.status).toBe(401);
      expect(replay.json.code).toBe('auth/unauthenticated');
      expect((await refresh(second.json.refresh_token)).status).toBe(401);
    });

    it('logout revokes the session; other sessions of the user stay', async () => {
      const session = await signUp(uniqueEmail('logout'));
      const other = await login(session.email, PASSWORD);
      const res = await server.inject('POST', '/users/logout', { body: { refreshToken: session.refreshToken } });
      expect(res.status).toBe(200);
      expect(res.json).toEqual({ ok: true });
      expect((await refresh(session.refreshToken)).status).toBe(401);
      expect((await refresh(other.json.refreshToken)).status).toBe(200);
    });

    it('refuses an unknown or expired refresh token', async () => {
      expect((await refresh('not-a-token')).status).toBe(401);
      const session = await signUp(uniqueEmail('expired'));
      await server.ctx.db.query(`UPDATE refresh_tokens SET expires_at = now() - interval '1 second' WHERE user_id = $1`, [session.uid]);
      expect((await refresh(session.refreshToken)).status).toBe(401);
    });

    it('refuses access tokens with another audience, an expired one, or a bad signature', async () => {
      const { uid, token } = await signUp(uniqueEmail('jwt'));
      const key = server.ctx.config.jwtKey;
      const now = Math.floor(Date.now() / 1000);
      const make = (audience: string, exp: number, signingKey: Uint8Array = key) =>
        new SignJWT({}).setProtectedHeader({ alg: 'HS256' }).setIssuer('sheaf').setAudience(audience).setSubject(uid)
          .setIssuedAt(now).setExpirationTime(exp).sign(signingKey);
      expect((await server.inject('GET', '/users/me', { token: await make('sheaf', now + 60) })).status).toBe(200);
      expect((await server.inject('GET', '/users/me', { token: await make('another-project', now + 60) })).status).toBe(401);
      expect((await server.inject('GET', '/users/me', { token: await make('sheaf', now - 1) })).status).toBe(401);
      const otherKey = new Uint8Array(32).fill(7);
      expect((await server.inject('GET', '/users/me', { token: await make('sheaf', now + 60, otherKey) })).status).toBe(401);
      const tampered = token.slice(0, -2) + (token.endsWith('AA') ? 'BB' : 'AA');
      const res = await server.inject('GET', '/users/me', { token: tampered });
      expect(res.status).toBe(401);
      expect(res.json.code).toBe('auth/unauthenticated');
    });
  });

  describe('password reset', () => {
    const requestReset = (email: string, language?: string) =>
      server.inject('POST', '/users/resetPassword', { body: { email, language } });
    const confirm = (token: string, password: string, confirmPassword = password) =>
      server.inject('POST', '/users/resetPassword/confirm', { body: { token, password, confirmPassword } });

    it('emails a one-time link; the new password works, the old one and every old session do not', async () => {
      const session = await signUp(uniqueEmail('reset'));
      const oldPassword = PASSWORD;
      const res = await requestReset(session.email);
      expect(res.status).toBe(200);
      expect(res.json.message).toBe('If an account exists for this address, an email with a link to reset the password is on its way.');
      const { token } = await resetLinkFor(server, session.email);

      // Rules are checked first; a refused password leaves the link usable.
      const weak = await confirm(token, '123', '456');
      expect(weak.status).toBe(400);
      expect(weak.json.fields).toEqual({ password: 'auth/weak-password', confirmPassword: 'auth/passwords-must-match' });

      const done = await confirm(token, 'a brand new secret');
      expect(done.status).toBe(200);
      expect(done.json.message).toBe('Your password has been changed. You can log in now.');
      expect((await login(session.email, oldPassword)).status).toBe(401);
      expect((await login(session.email, 'a brand new secret')).status).toBe(200);
      expect((await server.inject('GET', '/users/me', { token: session.token })).status).toBe(401);
      const refreshed = await server.inject('POST', '/users/token', { body: { grant_type: 'refresh_token', refresh_token: session.refreshToken } });
      expect(refreshed.status).toBe(401);

      const again = await confirm(token, 'yet another secret');
      expect(again.status).toBe(400);
      expect(again.json.code).toBe('auth/reset-link-invalid');
    });

    it('answers the same for an unknown address and sends nothing', async () => {
      const email = uniqueEmail('ghost');
      const res = await requestReset(email);
      expect(res.status).toBe(200);
      expect(res.json.message).toContain('If an account exists');
      expect((await outbox(server)).some((mail) => mail.to === email)).toBe(false);
    });

    it('writes the email in the language asked for', async () => {
      const { email } = await signUp(uniqueEmail('lang'));
      await requestReset(email, 'de');
      const mail = await resetLinkFor(server, email);
      expect(mail.subject).toBe('Setzen Sie Ihr Sheaf-Passwort zurück');
      expect(mail.text).toContain('eine Stunde');
    });

    it('refuses an expired link and a made-up one', async () => {
      const { email, uid } = await signUp(uniqueEmail('late'));
      await requestReset(email);
      const { token } = await resetLinkFor(server, email);
      await server.ctx.db.query(`UPDATE password_resets SET expires_at = now() - interval '1 second' WHERE user_id = $1`, [uid]);
      expect((await confirm(token, 'a brand new secret')).json.code).toBe('auth/reset-link-invalid');
      expect((await confirm('made-up', 'a brand new secret')).status).toBe(400);
      expect((await login(email, PASSWORD)).status).toBe(200);
    });

    it('allows 3 requests per address per hour, then answers 429', async () => {
      const { email } = await signUp(uniqueEmail('flood'));
      for (let i = 0; i < 3; i++) expect((await requestReset(email)).status).toBe(200);
      const res = await requestReset(email);
      expect(res.status).toBe(429);
      expect(res.json.code).toBe('generic/too-many-attempts');
      expect((await outbox(server)).filter((mail) => mail.to === email)).toHaveLength(3);
    });
  });
});
