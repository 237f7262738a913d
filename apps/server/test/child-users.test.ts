/**
 * Child users over HTTP (docs/accounts.md#child-users), on PGlite and on PostgreSQL: the account holder
 * creates, lists, disables, enables and deletes them and has a reset link mailed to them; the plan's users
 * are the limit, also under parallel requests; a disabled child's sessions end at once; a child works in
 * the parent's account (plan, quota, counter) and is refused user management and billing; another
 * account's child is "not found"; registerChild is rate-limited.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ChildUserListSchema, ChildUserSchema } from '@sheaf/shared';
import { readOutbox, readOutboxMail } from '../src/adapters/mail/outbox.ts';
import { newId } from '../src/ids.ts';
import { forEachDatabase, startTestServer, TEST_PASSWORD, type TestAccount, type TestServer } from './harness.ts';
import { counterOf, mergeRequest, peopleCsv, setPlan, startMerge, templateWithSheet, waitForMerge } from './merge-support.ts';

const CHILD_PASSWORD = 'child horse 77';
let counter = 0;
const uniqueEmail = (label: string): string => `${label}-${Date.now().toString(36)}-${++counter}@example.com`;

forEachDatabase((database) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ database });
  });
  afterAll(async () => {
    await server?.close();
  });
  beforeEach(async () => {
    await server.ctx.db.query('DELETE FROM auth_attempts');
  });

  const childForm = (email = uniqueEmail('child'), overrides: Record<string, unknown> = {}) =>
    ({ firstName: 'Kid', lastName: 'Lovelace', email, password: CHILD_PASSWORD, confirmPassword: CHILD_PASSWORD, ...overrides });
  const registerChild = (token: string, body: Record<string, unknown>) => server.inject('POST', '/users/registerChild', { token, body });
  const list = (token: string) => server.inject('GET', '/users/children', { token });
  const act = (token: string, uid: string, action: 'disable' | 'enable' | 'resetPassword') => server.inject('POST', `/users/children/${uid}/${action}`, { token });
  const remove = (token: string, uid: string) => server.inject('DELETE', `/users/children/${uid}`, { token });
  const login = (email: string, password: string) => server.inject('POST', '/users/login', { body: { email, password } });
  const me = (token: string) => server.inject('GET', '/users/me', { token });

  async function admin(plan = 'Enterprise'): Promise<TestAccount> {
    const account = await server.signUp(uniqueEmail('admin'));
    await setPlan(server, account.uid, plan);
    return account;
  }

  /** A child user made through the API, signed in. */
  async function child(parent: TestAccount, label = 'child'): Promise<TestAccount> {
    const email = uniqueEmail(label);
    const created = await registerChild(parent.token, childForm(email));
    expect(created.status, JSON.stringify(created.json)).toBe(201);
    const session = await login(email, CHILD_PASSWORD);
    expect(session.status, JSON.stringify(session.json)).toBe(200);
    return { token: session.json.token, refreshToken: session.json.refreshToken, uid: session.json.uid, email, password: CHILD_PASSWORD };
  }

  describe('creating and listing', () => {
    it('creates an active child user at once, lists it with the seats, and the child signs in', async () => {
      const parent = await admin();
      await server.inject('PATCH', '/users/me', { token: parent.token, body: { language: 'de' } });
      const email = uniqueEmail('new-child');
      const created = await registerChild(parent.token, childForm(email, { firstName: ' Ada ', company: 'ignored', acceptTerms: false }));
      expect(created.status, JSON.stringify(created.json)).toBe(201);
      const user = ChildUserSchema.parse(created.json);
      expect(user).toMatchObject({ email, firstName: 'Ada', lastName: 'Lovelace', status: 'active', disabledAt: null });

      const listed = await list(parent.token);
      expect(listed.status).toBe(200);
      expect(ChildUserListSchema.parse(listed.json)).toEqual({ users: [user], seats: { used: 2, limit: 5 } });

      const session = await login(email, CHILD_PASSWORD);
      expect(session.status).toBe(200);
      const childMe = (await me(session.json.token)).json;
      // No company, the admin's language, and inside the admin's account.
      expect(childMe).toMatchObject({ uid: user.uid, company: '', language: 'de', parentUid: parent.uid });
    });

    it('checks the fields as sign-up does (names, address, password rules)', async () => {
      const parent = await admin();
      const taken = await registerChild(parent.token, childForm(parent.email));
      expect(taken.status).toBe(400);
      expect(taken.json.fields).toEqual({ email: 'auth/email-already-in-use' });
      const bad = await registerChild(parent.token, { firstName: ' ', lastName: '', email: 'not-an-address', password: '123', confirmPassword: '1234' });
      expect(bad.status).toBe(400);
      expect(bad.json.fields).toEqual({
        firstName: 'auth/firstname-empty', lastName: 'auth/lastname-empty', email: 'auth/email-invalid',
        password: 'auth/weak-password', confirmPassword: 'auth/passwords-must-match',
      });
      const common = await registerChild(parent.token, childForm(uniqueEmail('common'), { password: 'password', confirmPassword: 'password' }));
      expect(common.json.fields).toEqual({ password: 'auth/weak-password' });
      expect((await list(parent.token)).json.users).toEqual([]);
    });
  });

  describe('seats', () => {
    it('Free and Pro have one user, the holder: no child user (402 users/seat-limit)', async () => {
      for (const plan of ['Free', 'Pro']) {
        const parent = await admin(plan);
        const refused = await registerChild(parent.token, childForm());
        expect(refused.status, plan).toBe(402);
        expect(refused.json).toMatchObject({ code: 'users/seat-limit', params: { max: 1 } });
        expect((await list(parent.token)).json).toEqual({ users: [], seats: { used: 1, limit: 1 } });
      }
    });

    it('Enterprise has five users in all: the fifth child is refused, a deleted one frees its seat', async () => {
      const parent = await admin();
      const children = [];
      for (let n = 0; n < 4; n++) children.push(await registerChild(parent.token, childForm()));
      expect(children.map((res) => res.status)).toEqual([201, 201, 201, 201]);
      const fifth = await registerChild(parent.token, childForm());
      expect(fifth.status).toBe(402);
      expect(fifth.json).toMatchObject({ code: 'users/seat-limit', params: { max: 5 } });
      // A disabled child still is a user of the account.
      expect((await act(parent.token, children[0]!.json.uid, 'disable')).status).toBe(200);
      expect((await registerChild(parent.token, childForm())).status).toBe(402);
      expect((await remove(parent.token, children[0]!.json.uid)).status).toBe(200);
      expect((await registerChild(parent.token, childForm())).status).toBe(201);
      expect((await list(parent.token)).json.seats).toEqual({ used: 5, limit: 5 });
    });

    it('parallel registerChild calls never create more users than the plan has', async () => {
      const parent = await admin();
      const answers = await Promise.all(Array.from({ length: 8 }, () => registerChild(parent.token, childForm())));
      const statuses = answers.map((res) => res.status).sort();
      expect(statuses).toEqual([201, 201, 201, 201, 402, 402, 402, 402]);
      const [row] = await server.ctx.db.query<{ n: number }>('SELECT count(*)::int AS n FROM users WHERE parent_uid = $1', [parent.uid]);
      expect(row!.n).toBe(4);
    });
  });

  describe('disable, enable, reset, delete', () => {
    it('disabling ends the child\'s sessions at once and refuses its sign-in; enabling lets it in again', async () => {
      const parent = await admin();
      const kid = await child(parent);
      expect((await me(kid.token)).status).toBe(200);

      const disabled = await act(parent.token, kid.uid, 'disable');
      expect(disabled.status).toBe(200);
      expect(disabled.json).toMatchObject({ uid: kid.uid, status: 'disabled' });
      expect(Date.parse(disabled.json.disabledAt)).toBeGreaterThan(Date.now() - 60_000);
      // The access token it holds stops working on the next request, not in 15 minutes.
      expect((await me(kid.token)).status).toBe(401);
      const refreshed = await server.inject('POST', '/users/token', { body: { grant_type: 'refresh_token', refresh_token: kid.refreshToken } });
      expect(refreshed.status).toBe(401);
      const signIn = await login(kid.email, CHILD_PASSWORD);
      expect(signIn.status).toBe(403);
      expect(signIn.json.code).toBe('auth/account-disabled');
      expect((await list(parent.token)).json.users).toMatchObject([{ uid: kid.uid, status: 'disabled' }]);
      // Its refresh tokens are revoked, not only refused while disabled.
      const [live] = await server.ctx.db.query<{ n: number }>('SELECT count(*)::int AS n FROM refresh_tokens WHERE user_id = $1 AND revoked_at IS NULL', [kid.uid]);
      expect(live!.n).toBe(0);

      const enabled = await act(parent.token, kid.uid, 'enable');
      expect(enabled.status).toBe(200);
      expect(enabled.json).toMatchObject({ status: 'active', disabledAt: null });
      expect((await login(kid.email, CHILD_PASSWORD)).status).toBe(200);
    });

    it('mails the child a reset link in its language that sets a new password; refused for a disabled child', async () => {
      const parent = await admin();
      const kid = await child(parent);
      await server.inject('PATCH', '/users/me', { token: kid.token, body: { language: 'fr' } });
      const sent = await act(parent.token, kid.uid, 'resetPassword');
      expect(sent.status, JSON.stringify(sent.json)).toBe(200);
      expect(sent.json).toEqual({ ok: true });
      const dir = server.ctx.config.OUTBOX_DIR;
      const entry = (await readOutbox(dir)).filter((mail) => mail.to === kid.email).at(-1);
      expect(entry, 'a mail to the child').toBeDefined();
      expect(entry!.subject).toMatch(/mot de passe/i);
      const raw = (await readOutboxMail(dir, entry!)).replace(/=\r?\n/g, '').replace(/=3D/g, '=');
      const token = /resetPassword\?token=([A-Za-z0-9_-]+)/.exec(raw)?.[1];
      expect(token).toBeTruthy();
      const confirmed = await server.inject('POST', '/users/resetPassword/confirm', { body: { token, password: 'fresh start 9', confirmPassword: 'fresh start 9' } });
      expect(confirmed.status).toBe(200);
      expect((await login(kid.email, 'fresh start 9')).status).toBe(200);

      await act(parent.token, kid.uid, 'disable');
      const refused = await act(parent.token, kid.uid, 'resetPassword');
      expect(refused.status).toBe(400);
      expect(refused.json.code).toBe('users/disabled');
    });

    it('deleting a child removes its login and sessions and keeps the account\'s data', async () => {
      const parent = await admin();
      const kid = await child(parent);
      const templateId = await templateWithSheet(server, kid.token, peopleCsv(2));
      const merge = mergeRequest();
      expect((await startMerge(server, kid.token, templateId, merge)).status).toBe(202);
      await waitForMerge(server, kid.token, templateId, merge.mergeId);
      // A support request the child wrote (seeded: its form is tested in support.test.ts).
      await server.ctx.db.query(
        `INSERT INTO support_requests (id, reference, owner_id, user_id, topic, subject, message, language)
         VALUES ($1, $2, $3, $4, 'support', 'Help', 'Please', 'en')`,
        [newId(), `SUP-${newId().slice(0, 6).toUpperCase()}`, parent.uid, kid.uid],
      );

      const deleted = await remove(parent.token, kid.uid);
      expect(deleted.status).toBe(200);
      expect(deleted.json).toEqual({ ok: true });
      expect((await me(kid.token)).status).toBe(401);
      expect((await login(kid.email, CHILD_PASSWORD)).status).toBe(401);
      expect((await list(parent.token)).json.users).toEqual([]);
      // The template and its merge were the account's all along.
      const library = await server.inject('GET', '/templates', { token: parent.token });
      expect(JSON.stringify(library.json)).toContain(templateId);
      expect((await server.inject('GET', `/templates/${templateId}/merges/${merge.mergeId}`, { token: parent.token })).json.status).toBe('completed');
      // The merge counts as the holder's now; the support request passed to the holder.
      expect(await server.ctx.db.query('SELECT actor_id FROM merges WHERE id = $1', [merge.mergeId])).toEqual([{ actor_id: null }]);
      expect(await server.ctx.db.query('SELECT user_id FROM support_requests WHERE owner_id = $1', [parent.uid])).toEqual([{ user_id: parent.uid }]);
      expect((await remove(parent.token, kid.uid)).status).toBe(404);
      // The address is free again.
      expect((await registerChild(parent.token, childForm(kid.email))).status).toBe(201);
    });
  });

  describe('who may', () => {
    it('a child user is refused user management and billing (403), whatever it asks for', async () => {
      const parent = await admin();
      const kid = await child(parent);
      const sibling = await child(parent, 'sibling');
      const refused = [
        await registerChild(kid.token, childForm()),
        await list(kid.token),
        await act(kid.token, sibling.uid, 'disable'),
        await act(kid.token, sibling.uid, 'enable'),
        await act(kid.token, sibling.uid, 'resetPassword'),
        await remove(kid.token, sibling.uid),
        await act(kid.token, kid.uid, 'disable'),
        await server.inject('GET', '/billing', { token: kid.token }),
        await server.inject('POST', '/billing/portal', { token: kid.token }),
      ];
      for (const res of refused) {
        expect(res.status).toBe(403);
        expect(res.json.code).toBe('access/forbidden');
      }
      expect((await me(sibling.token)).status).toBe(200);
      expect((await list(parent.token)).json.users).toHaveLength(2);
    });

    it('another account\'s child user, or the admin itself, is "not found" (404)', async () => {
      const parent = await admin();
      const kid = await child(parent);
      const stranger = await admin();
      for (const res of [
        await act(stranger.token, kid.uid, 'disable'),
        await act(stranger.token, kid.uid, 'enable'),
        await act(stranger.token, kid.uid, 'resetPassword'),
        await remove(stranger.token, kid.uid),
        await act(stranger.token, parent.uid, 'disable'),
        await remove(parent.token, parent.uid),
        await act(parent.token, 'AAAAAAAAAAAAAAAAAAAA', 'disable'),
      ]) {
        expect(res.status).toBe(404);
        expect(res.json.code).toBe('users/not-found');
      }
      expect((await me(kid.token)).status).toBe(200);
      expect((await me(parent.token)).status).toBe(200);
      expect((await list(stranger.token)).json.users).toEqual([]);
    });

    it('registerChild is rate-limited per account: 20 tries an hour, then 429', async () => {
      const parent = await admin();
      const bad = { firstName: '', lastName: '', email: '', password: '', confirmPassword: '' };
      for (let n = 0; n < 20; n++) expect((await registerChild(parent.token, bad)).status).toBe(400);
      const limited = await registerChild(parent.token, childForm());
      expect(limited.status).toBe(429);
      expect(limited.json.code).toBe('generic/too-many-attempts');
      // Another account is not held by it.
      expect((await registerChild((await admin()).token, childForm())).status).toBe(201);
    });
  });

  describe('inside the parent\'s account', () => {
    it('the child sees the parent\'s plan, quota and counter, and its merge counts against the parent\'s quota', async () => {
      const parent = await admin();
      await setPlan(server, parent.uid, 'Enterprise', 7);
      const kid = await child(parent);
      const before = (await me(kid.token)).json;
      expect(before).toMatchObject({ billingPlan: 'Enterprise', quota: 10_000, counter: 7, parentUid: parent.uid });

      const templateId = await templateWithSheet(server, kid.token, peopleCsv(3));
      const merge = mergeRequest();
      expect((await startMerge(server, kid.token, templateId, merge)).status).toBe(202);
      expect((await waitForMerge(server, kid.token, templateId, merge.mergeId)).status).toBe('completed');
      expect(await counterOf(server, parent.uid)).toBe(10);
      expect(await counterOf(server, kid.uid)).toBe(0);
      expect((await me(kid.token)).json).toMatchObject({ billingPlan: 'Enterprise', counter: 10 });
      expect((await me(parent.token)).json).toMatchObject({ counter: 10 });
      const credits = await server.inject('GET', '/users/me/credits', { token: kid.token, query: { toBeUsed: 5 } });
      expect(credits.json).toMatchObject({ available: 9_990, newBalance: 9_985 });
    });

    it('the parent cannot delete its account while child users exist; once they are deleted it can', async () => {
      const parent = await admin();
      const kid = await child(parent);
      const refused = await server.inject('DELETE', '/users/me', { token: parent.token, body: { password: TEST_PASSWORD } });
      expect(refused.status).toBe(400);
      expect(refused.json.code).toBe('auth/has-child-users');
      expect((await remove(parent.token, kid.uid)).status).toBe(200);
      const done = await server.inject('DELETE', '/users/me', { token: parent.token, body: { password: TEST_PASSWORD } });
      expect(done.status).toBe(200);
    });
  });
});
