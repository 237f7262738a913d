/**
 * Sign-in with Google, Apple and Microsoft (docs/accounts.md#social-sign-in) against a real OpenID
 * provider run locally (oidc-provider, test/oidc-idp.ts) with one client per provider: the browser's
 * round trip over HTTP (start, the provider's login page, the callback), then the web app's calls with
 * the one-time code. Registration, signing in again, the conflict with a password account and linking it
 * with the password; and every answer that must be refused: an unverified address, a tampered or reused
 * state, another browser's state, a wrong nonce, audience or issuer, an expired or forged ID token, a
 * reused one-time code, and too many tries from one client. On PGlite and on PostgreSQL.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { attemptsSweepJob } from '../src/modules/auth/index.ts';
import { appleTeam, claimsOf, reserveIssuer, startTestIdp, TestBrowser, type TestIdp } from './oidc-idp.ts';
import { forEachDatabase, startTestServer, TEST_PASSWORD, type TestServer } from './harness.ts';

const CLIENTS = [
  { provider: 'google', client_id: 'sheaf-google', client_secret: 'google-secret' },
  { provider: 'microsoft', client_id: 'sheaf-microsoft', client_secret: 'microsoft-secret' },
  { provider: 'apple', client_id: 'apple-services-id', client_secret: 'apple-registered-secret' },
  // Another application of the same provider: its tokens must not open Sheaf.
  { provider: 'google', client_id: 'other-app', client_secret: 'other-secret' },
] as const;

let counter = 0;
const unique = (label: string) => `${label}${Date.now().toString(36)}${++counter}`;
const startPath = (provider: string, query: Record<string, string> = {}) =>
  `/v1/auth/oauth/${provider}/start?${new URLSearchParams({ intent: 'register', ...query }).toString()}`;

forEachDatabase((database) => {
  let server: TestServer;
  let idp: TestIdp;
  const apple = appleTeam('apple-services-id');

  beforeAll(async () => {
    const { port, issuer } = await reserveIssuer();
    server = await startTestServer({
      database,
      config: {
        GOOGLE_CLIENT_ID: 'sheaf-google', GOOGLE_CLIENT_SECRET: 'google-secret', GOOGLE_ISSUER: issuer,
        MICROSOFT_CLIENT_ID: 'sheaf-microsoft', MICROSOFT_CLIENT_SECRET: 'microsoft-secret', MICROSOFT_ISSUER: issuer,
        APPLE_CLIENT_ID: apple.clientId, APPLE_TEAM_ID: apple.teamId, APPLE_KEY_ID: apple.keyId, APPLE_PRIVATE_KEY: apple.privateKeyPem, APPLE_ISSUER: issuer,
      },
    });
    // Sheaf discovers the provider on first use: it starts after Sheaf, knowing Sheaf's address.
    idp = await startTestIdp({ port, sheafUrl: server.url, clients: [...CLIENTS], apple });
  });
  afterAll(async () => {
    await idp?.close();
    await server?.close();
  });
  beforeEach(async () => {
    idp.tamper = undefined;
    await server.ctx.db.query('DELETE FROM auth_attempts');
  });

  /** A person at the provider with a verified address (unless told otherwise). */
  function person(claims: { email?: string; email_verified?: boolean | string; given_name?: string; family_name?: string } = {}) {
    const login = unique('p');
    const email = claims.email ?? `${login}@example.com`;
    idp.accounts.set(login, { email, email_verified: true, given_name: 'Grace', family_name: 'Hopper', ...claims });
    return { login, email };
  }

  /** A sign-in through the provider in a browser of its own (whose cookie the code's exchange needs). */
  async function signIn(provider: string, login: string, query: Record<string, string> = {}) {
    const browser = new TestBrowser(server.url);
    return { ...(await browser.signIn(startPath(provider, query), { login })), browser };
  }

  /** The one-time code of a sign-in that reached the web app with one, and the browser it is good in. */
  async function codeFor(provider: string, login: string, query: Record<string, string> = {}): Promise<{ code: string; browser: TestBrowser }> {
    const { outcome, browser } = await signIn(provider, login, query);
    expect(Object.fromEntries(outcome), 'the callback hands a one-time code').toHaveProperty('code');
    return { code: outcome.get('code')!, browser };
  }

  /** A JSON call: from `browser` (with its cookies), as the web app in it makes it, else without cookies. */
  const call = (path: string, body: unknown, browser?: TestBrowser) =>
    browser ? browser.postJson(new URL(`/v1${path}`, server.url), body) : server.inject('POST', path, { body });
  /** Exchanges a sign-in's code in its own browser. */
  const exchange = (path: string, signedIn: { code: string; browser: TestBrowser }, extra: Record<string, unknown> = {}) =>
    call(path, { token: signedIn.code, ...extra }, signedIn.browser);
  const usersWith = async (email: string) => (await server.ctx.db.query<{ id: string }>('SELECT id FROM users WHERE email = $1', [email])).length;

  it('lists the configured providers in GET /config, and sends an unknown one back with an error', async () => {
    const config = await server.inject('GET', '/config');
    expect(config.json.authProviders).toEqual(['google', 'apple', 'microsoft']);
    const browser = new TestBrowser(server.url);
    const { outcome, page } = await browser.signIn('/v1/auth/oauth/facebook/start', { login: 'x' });
    expect(page.pathname).toBe('/oauth/callback');
    expect(outcome.get('error')).toBe('oauth/provider-not-configured');
  });

  it('sends the browser to the provider with PKCE, state and nonce, the state bound to an HttpOnly cookie', async () => {
    const response = await fetch(`${server.url}${startPath('google')}`, { redirect: 'manual' });
    expect(response.status).toBe(303);
    const location = new URL(response.headers.get('location')!);
    expect(location.origin).toBe(idp.issuer);
    expect(location.searchParams.get('client_id')).toBe('sheaf-google');
    expect(location.searchParams.get('redirect_uri')).toBe(`${server.url}/v1/auth/oauth/google/callback`);
    expect(location.searchParams.get('code_challenge_method')).toBe('S256');
    expect(location.searchParams.get('code_challenge')).toMatch(/^[\w-]{43}$/);
    expect(location.searchParams.get('state')).toMatch(/^[\w-]{32}$/);
    expect(location.searchParams.get('nonce')).toMatch(/^[\w-]{43}$/);
    const cookie = response.headers.getSetCookie().find((line) => line.startsWith('sheaf_oauth='))!;
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
    expect(cookie).toMatch(/Path=\/v1\/auth\/oauth/);
  });

  describe('register, sign in again', () => {
    it('registers through Google: no password, flagged OAuth and new; signs in to the same account again', async () => {
      const { login, email } = person({ given_name: 'Grace', family_name: 'Hopper' });
      const { outcome, page, browser } = await signIn('google', login, { next: '/billing?plan=Pro' });
      expect(page.searchParams.get('intent')).toBe('register');
      expect(page.searchParams.get('next')).toBe('/billing?plan=Pro');
      const registered = await call('/users/register/oauth', { token: outcome.get('code'), language: 'de' }, browser);
      expect(registered.status, JSON.stringify(registered.json)).toBe(200);
      expect(registered.json.user).toMatchObject({ email, firstName: 'Grace', lastName: 'Hopper', language: 'de', isOAuthUser: true, isNewUser: true, billingPlan: 'Free' });
      const me = await server.inject('GET', '/users/me', { token: registered.json.token });
      expect(me.json).toMatchObject({ uid: registered.json.uid, isOAuthUser: true, isNewUser: true, hasPassword: false });
      const [row] = await server.ctx.db.query<{ password_hash: string | null }>('SELECT password_hash FROM users WHERE id = $1', [registered.json.uid]);
      expect(row!.password_hash).toBeNull();
      const identities = await server.ctx.db.query('SELECT provider, email FROM oauth_identities WHERE user_id = $1', [registered.json.uid]);
      expect(identities).toEqual([{ provider: 'google', email }]);

      // Signing in again (the login page) finds the same account.
      const again = await exchange('/users/login/oauth', await codeFor('google', login, { intent: 'login' }));
      expect(again.status, JSON.stringify(again.json)).toBe(200);
      expect(again.json.uid).toBe(registered.json.uid);
      expect((await server.inject('GET', '/users/me', { token: again.json.token })).status).toBe(200);
      expect(await usersWith(email)).toBe(1);
    });

    it('registers through Apple (form_post answer, ES256 client secret) and through Microsoft', async () => {
      const viaApple = person();
      const appleSignIn = await signIn('apple', viaApple.login);
      expect(idp.appleRefusals).toEqual([]);
      expect(appleSignIn.callback?.searchParams.get('code'), 'the form post came back as a GET').toBeTruthy();
      const byApple = await call('/users/register/oauth', { token: appleSignIn.outcome.get('code') }, appleSignIn.browser);
      expect(byApple.status, JSON.stringify(byApple.json)).toBe(200);
      expect(byApple.json.user).toMatchObject({ email: viaApple.email, isOAuthUser: true });

      const viaMicrosoft = person();
      const byMicrosoft = await exchange('/users/register/oauth', await codeFor('microsoft', viaMicrosoft.login));
      expect(byMicrosoft.status, JSON.stringify(byMicrosoft.json)).toBe(200);
      const identities = await server.ctx.db.query('SELECT provider FROM oauth_identities WHERE user_id = $1', [byMicrosoft.json.uid]);
      expect(identities).toEqual([{ provider: 'microsoft' }]);
    });

    it('a one-time code opens one session only, in the browser that signed in', async () => {
      const { login, email } = person();
      const signedIn = await codeFor('google', login);
      // Handed to another browser (a link to /oauth/callback#code=...), it opens nothing: no sign-in to someone else's account.
      for (const elsewhere of [undefined, (await signIn('google', person().login)).browser]) {
        const refused = await call('/users/register/oauth', { token: signedIn.code }, elsewhere);
        expect(refused.status).toBe(400);
        expect(refused.json.code).toBe('oauth/code-invalid');
      }
      expect(await usersWith(email)).toBe(0);
      expect((await exchange('/users/register/oauth', signedIn)).status).toBe(200);
      const again = await exchange('/users/register/oauth', signedIn);
      expect(again.status).toBe(400);
      expect(again.json.code).toBe('oauth/code-invalid');
      expect((await exchange('/users/login/oauth', signedIn)).json.code).toBe('oauth/code-invalid');
    });

    it('signing in from the login page without an account: oauth/no-account, and the same code can create it', async () => {
      const { login, email } = person();
      const signedIn = await codeFor('google', login, { intent: 'login' });
      const refused = await exchange('/users/login/oauth', signedIn);
      expect(refused.status).toBe(404);
      expect(refused.json).toMatchObject({ code: 'oauth/no-account', params: { email, provider: 'Google' } });
      expect(await usersWith(email)).toBe(0);
      const created = await exchange('/users/register/oauth', signedIn);
      expect(created.status).toBe(200);
      expect(created.json.user.email).toBe(email);
    });

    it('an account made through Google asked for a password answers pdfmm/unsupported-sign-in-method with its methods', async () => {
      const { login, email } = person();
      expect((await exchange('/users/register/oauth', await codeFor('google', login))).status).toBe(200);
      const res = await call('/users/login', { email, password: 'whatever it is' });
      expect(res.status).toBe(400);
      expect(res.json).toMatchObject({ code: 'pdfmm/unsupported-sign-in-method', params: { methods: 'Google', methodIds: 'google' } });
      expect(res.json.message).toBe('Please use Google to sign in.');
      // An address nobody has keeps the usual answer.
      expect((await call('/users/login', { email: `${unique('nobody')}@example.com`, password: 'x' })).json.code).toBe('auth/invalid-credentials');
    });

    it('a disabled account cannot sign in through its provider', async () => {
      const { login } = person();
      const registered = await exchange('/users/register/oauth', await codeFor('google', login));
      await server.ctx.db.query('UPDATE users SET disabled_at = now() WHERE id = $1', [registered.json.uid]);
      const res = await exchange('/users/login/oauth', await codeFor('google', login, { intent: 'login' }));
      expect(res.status).toBe(403);
      expect(res.json.code).toBe('auth/account-disabled');
    });
  });

  describe('an address that belongs to a password account', () => {
    it('answers the conflict; linking needs the account\'s password, then the provider signs in to it', async () => {
      const account = await server.signUp(`${unique('pw')}@example.com`);
      const { login } = person({ email: account.email });
      const signedIn = await codeFor('google', login, { intent: 'login' });

      for (const path of ['/users/login/oauth', '/users/register/oauth']) {
        const conflict = await exchange(path, signedIn);
        expect(conflict.status, path).toBe(409);
        expect(conflict.json, path).toMatchObject({
          code: 'auth/account-exists-with-different-credential',
          params: { methods: 'your email and password', methodIds: 'password', provider: 'Google', email: account.email, linkable: 1 },
        });
      }
      expect(await usersWith(account.email)).toBe(1);

      const wrong = await exchange('/users/login/oauth/link', signedIn, { password: 'not the password' });
      expect(wrong.status).toBe(400);
      expect(wrong.json.fields).toEqual({ password: 'auth/wrong-password' });
      const linked = await exchange('/users/login/oauth/link', signedIn, { password: TEST_PASSWORD });
      expect(linked.status, JSON.stringify(linked.json)).toBe(200);
      expect(linked.json.uid).toBe(account.uid);

      // From now on Google signs in to it, and the password still does.
      const viaGoogle = await exchange('/users/login/oauth', await codeFor('google', login, { intent: 'login' }));
      expect(viaGoogle.json.uid).toBe(account.uid);
      expect((await call('/users/login', { email: account.email, password: TEST_PASSWORD })).status).toBe(200);
      const me = await server.inject('GET', '/users/me', { token: viaGoogle.json.token });
      expect(me.json.isOAuthUser).toBe(false);
    });

    it('an account made through another provider is not linkable by password: the conflict names its method', async () => {
      const first = person();
      expect((await exchange('/users/register/oauth', await codeFor('microsoft', first.login))).status).toBe(200);
      const second = person({ email: first.email });
      const res = await exchange('/users/login/oauth', await codeFor('google', second.login, { intent: 'login' }));
      expect(res.status).toBe(409);
      expect(res.json.params).toMatchObject({ methods: 'Microsoft', linkable: 0 });
    });
  });

  describe('refused answers', () => {
    /** Runs a sign-in whose answer is expected to be refused with `code`: no one-time code, no account. */
    async function refused(code: string, options: { provider?: string; claims?: Parameters<typeof person>[0]; beforeCallback?: (url: URL) => URL | void } = {}) {
      const { login, email } = person(options.claims);
      const browser = new TestBrowser(server.url);
      const { outcome } = await browser.signIn(startPath(options.provider ?? 'google'), { login, ...(options.beforeCallback ? { beforeCallback: options.beforeCallback } : {}) });
      expect(Object.fromEntries(outcome)).toMatchObject({ error: code });
      expect(outcome.get('code')).toBeNull();
      expect(await usersWith(email)).toBe(0);
      return outcome;
    }

    it('an address the provider has not verified', async () => {
      await refused('oauth/email-unverified', { claims: { email_verified: false } });
      await refused('oauth/email-unverified', { claims: { email_verified: 'false' } });
      const outcome = await refused('oauth/email-unverified', { provider: 'apple', claims: { email_verified: false } });
      expect(outcome.get('provider')).toBe('Apple');
    });

    it('a tampered state', async () => {
      await refused('oauth/state-invalid', {
        beforeCallback: (url) => {
          url.searchParams.set('state', `${url.searchParams.get('state')}x`);
          return url;
        },
      });
    });

    it('a state used twice, even with its browser\'s cookie', async () => {
      const { login } = person();
      const browser = new TestBrowser(server.url);
      const host = new URL(server.url).host;
      let cookie: string | undefined;
      const first = await browser.signIn(startPath('google'), { login, beforeCallback: () => void (cookie = browser.cookie(host, 'sheaf_oauth')) });
      expect(first.outcome.get('code')).toBeTruthy();
      // The same cookie as when the state was good (this test's jar sends it whatever its path).
      browser.setCookie(host, 'sheaf_oauth', cookie);
      const replay = await browser.request(first.callback!);
      const page = new URL(replay.headers.get('location')!, server.url);
      expect(new URLSearchParams(page.hash.slice(1)).get('error')).toBe('oauth/state-invalid');
    });

    it('a state that another browser started (no cookie, or another one)', async () => {
      const { login } = person();
      const victim = new TestBrowser(server.url);
      let stolen: URL | undefined;
      // The attacker's own sign-in, its callback URL handed to someone else's browser.
      await new TestBrowser(server.url).signIn(startPath('google'), { login, beforeCallback: (url) => {
        stolen = new URL(url);
        url.searchParams.set('state', 'spent-elsewhere');
        return url;
      } });
      await victim.request(new URL(startPath('google'), server.url));
      const answer = await victim.request(stolen!);
      const page = new URL(answer.headers.get('location')!, server.url);
      expect(new URLSearchParams(page.hash.slice(1)).get('error')).toBe('oauth/state-invalid');
    });

    it('an ID token with another nonce', async () => {
      idp.tamper = async (token) => idp.sign({ ...claimsOf(token), nonce: 'not-the-nonce' });
      await refused('oauth/token-invalid');
    });

    it('an ID token issued to another application (audience)', async () => {
      idp.tamper = async (token) => idp.sign({ ...claimsOf(token), aud: 'other-app', azp: 'other-app' });
      await refused('oauth/token-invalid');
    });

    it('an ID token of another issuer', async () => {
      idp.tamper = async (token) => idp.sign({ ...claimsOf(token), iss: 'https://accounts.evil.example' });
      await refused('oauth/token-invalid');
    });

    it('an expired ID token', async () => {
      const now = Math.floor(Date.now() / 1000);
      idp.tamper = async (token) => idp.sign({ ...claimsOf(token), iat: now - 7200, exp: now - 3600 });
      await refused('oauth/token-invalid');
    });

    it('a forged ID token (right claims, not the provider\'s signature)', async () => {
      idp.tamper = async (token) => idp.forge(claimsOf(token));
      await refused('oauth/token-invalid');
    });

    it('a genuine, untampered token passes the same checks (the tampering above is what was refused)', async () => {
      idp.tamper = async (token) => idp.sign(claimsOf(token));
      const { login } = person();
      expect((await exchange('/users/register/oauth', await codeFor('google', login))).status).toBe(200);
    });

    it('a cancelled sign-in comes back silent', async () => {
      const { login, email } = person();
      const { outcome } = await new TestBrowser(server.url).signIn(startPath('google'), { login, cancel: true });
      expect(Object.fromEntries(outcome)).toEqual({ cancelled: '1' });
      expect(await usersWith(email)).toBe(0);
    });

    it('sign-ins never finished are deleted by the daily sweep, live ones kept', async () => {
      await fetch(`${server.url}${startPath('google')}`, { redirect: 'manual' });
      await fetch(`${server.url}${startPath('google')}`, { redirect: 'manual' });
      const [old] = await server.ctx.db.query<{ state_hash: string }>('SELECT state_hash FROM oauth_flows ORDER BY created_at DESC LIMIT 1');
      await server.ctx.db.query("UPDATE oauth_flows SET expires_at = now() - interval '1 minute' WHERE state_hash = $1", [old!.state_hash]);
      const live = (await server.ctx.db.query('SELECT 1 FROM oauth_flows WHERE expires_at > now()')).length;
      const id = await server.ctx.jobs.enqueue(attemptsSweepJob, { day: new Date().toISOString().slice(0, 10) }, { id: `auth-attempts-sweep.oauth-${database}` });
      await vi.waitFor(async () => expect((await server.ctx.db.query<{ status: string }>('SELECT status FROM jobs WHERE id = $1', [id]))[0]?.status).toBe('done'), { timeout: 10_000, interval: 50 });
      expect(await server.ctx.db.query('SELECT 1 FROM oauth_flows WHERE state_hash = $1', [old!.state_hash])).toEqual([]);
      expect((await server.ctx.db.query('SELECT 1 FROM oauth_flows')).length).toBe(live);
    });

    it('one-time codes are tried only so often from one client', async () => {
      const answers: number[] = [];
      for (let i = 0; i < 61; i++) answers.push((await call('/users/login/oauth', { token: `guess-${i}` })).status);
      expect(answers.slice(0, 60).every((status) => status === 400)).toBe(true);
      expect(answers[60]).toBe(429);
      // The callback counts in the same limit.
      const { login } = person();
      const { outcome } = await signIn('google', login);
      expect(outcome.get('error')).toBe('generic/too-many-attempts');
    });
  });
});
