/** The signed-in user's account: profile, email, password, deletion, credits, quota periods, the CLI. */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { UserSchema } from '@sheaf/shared';
import { newId } from '../src/ids.ts';
import { chargeDocuments } from '../src/modules/users/index.ts';
import { forEachDatabase, startTestServer } from './harness.ts';

type Server = Awaited<ReturnType<typeof startTestServer>>;
interface Account { token: string; refreshToken: string; uid: string; email: string }

const PASSWORD = 'correct horse 42';
let counter = 0;
const uniqueEmail = (label: string): string => `${label}-${Date.now().toString(36)}-${++counter}@example.com`;
const DAY_MS = 24 * 60 * 60 * 1000;

forEachDatabase((database) => {
  let server: Server;
  beforeAll(async () => {
    server = await startTestServer({ database });
  });
  afterAll(async () => {
    await server?.close();
  });
  beforeEach(async () => {
    await server.ctx.db.query('DELETE FROM auth_attempts');
  });

  async function signUp(label: string, extra: Record<string, unknown> = {}): Promise<Account> {
    const email = uniqueEmail(label);
    const res = await server.inject('POST', '/users/register', {
      body: { firstName: 'Grace', lastName: 'Hopper', email, password: PASSWORD, confirmPassword: PASSWORD, ...extra },
    });
    expect(res.status, JSON.stringify(res.json)).toBe(201);
    return res.json;
  }
  const me = (token: string) => server.inject('GET', '/users/me', { token });
  const login = (email: string, password: string) => server.inject('POST', '/users/login', { body: { email, password } });

  describe('me', () => {
    it('shows the new account on the Free plan with its quota, period and defaults', async () => {
      const account = await signUp('me', { company: 'Navy', language: 'fr' });
      const res = await me(account.token);
      expect(res.status).toBe(200);
      const user = UserSchema.parse(res.json);
      expect(user).toMatchObject({
        uid: account.uid, email: account.email, firstName: 'Grace', lastName: 'Hopper', company: 'Navy', language: 'fr',
        billingPlan: 'Free', billingCycle: null, counter: 0, quota: 100, currency: 'usd', parentUid: null,
        isOAuthUser: false, hasPassword: true, view: 'grid',
      });
      expect(Math.abs(Date.parse(user.billingDate) - Date.now())).toBeLessThan(60_000);
      expect(JSON.stringify(res.json)).not.toContain('argon2');
    });

    it('needs a token', async () => {
      const res = await server.inject('GET', '/users/me');
      expect(res.status).toBe(401);
    });

    it('updates names, company, language and view; refuses a blank name under its field', async () => {
      const account = await signUp('update');
      const res = await server.inject('PATCH', '/users/me', {
        token: account.token,
        body: { firstName: ' Amazing ', company: 'Yale', language: 'zh', view: 'list' },
      });
      expect(res.status).toBe(200);
      expect(res.json).toMatchObject({ firstName: 'Amazing', lastName: 'Hopper', company: 'Yale', language: 'zh', view: 'list' });
      const blank = await server.inject('PATCH', '/users/me', { token: account.token, body: { lastName: '  ' } });
      expect(blank.status).toBe(400);
      expect(blank.json.fields).toEqual({ lastName: 'auth/lastname-empty' });
      expect((await me(account.token)).json.lastName).toBe('Hopper');
    });
  });

  describe('change email', () => {
    it('needs the current password, a valid and free address; then login works with the new one', async () => {
      const account = await signUp('mail');
      const other = await signUp('mail-other');
      const change = (email: string, password = PASSWORD) =>
        server.inject('POST', '/users/me/email', { token: account.token, body: { email, password } });

      const wrong = await change(uniqueEmail('new'), 'wrong password');
      expect(wrong.status).toBe(400);
      expect(wrong.json.fields).toEqual({ password: 'auth/wrong-password' });
      expect((await change('not-an-address')).json.fields).toEqual({ email: 'auth/email-invalid' });
      expect((await change('')).json.fields).toEqual({ email: 'auth/email-empty' });
      expect((await change(other.email.toUpperCase())).json.fields).toEqual({ email: 'auth/email-already-in-use' });

      const fresh = uniqueEmail('fresh');
      const done = await change(` ${fresh.toUpperCase()} `);
      expect(done.status).toBe(200);
      expect(done.json.email).toBe(fresh);
      expect((await login(fresh, PASSWORD)).status).toBe(200);
      expect((await login(account.email, PASSWORD)).status).toBe(401);
    });
  });

  describe('change password', () => {
    it('checks the current password and the rules, then signs out every other session', async () => {
      const account = await signUp('pw');
      const secondDevice = (await login(account.email, PASSWORD)).json;
      const change = (body: Record<string, string>) => server.inject('POST', '/users/me/password', { token: account.token, body });

      const wrong = await change({ currentPassword: 'nope', password: 'a new secret', confirmPassword: 'a new secret' });
      expect(wrong.json.fields).toEqual({ currentPassword: 'auth/wrong-password' });
      const weak = await change({ currentPassword: PASSWORD, password: account.email, confirmPassword: 'other' });
      expect(weak.json.fields).toEqual({ password: 'auth/weak-password', confirmPassword: 'auth/passwords-must-match' });

      const done = await change({ currentPassword: PASSWORD, password: 'a new secret', confirmPassword: 'a new secret' });
      expect(done.status).toBe(200);
      expect(done.json).toMatchObject({ uid: account.uid, email: account.email });
      expect((await me(done.json.token)).status).toBe(200);
      expect((await me(account.token)).status).toBe(401);
      expect((await me(secondDevice.token)).status).toBe(401);
      const refresh = (token: string) => server.inject('POST', '/users/token', { body: { grant_type: 'refresh_token', refresh_token: token } });
      expect((await refresh(secondDevice.refreshToken)).status).toBe(401);
      expect((await refresh(done.json.refreshToken)).status).toBe(200);
      expect((await login(account.email, PASSWORD)).status).toBe(401);
      expect((await login(account.email, 'a new secret')).status).toBe(200);
    });
  });

  describe('delete account', () => {
    async function addTemplateWithFiles(uid: string): Promise<{ templateId: string; mergeId: string }> {
      const templateId = newId();
      const mergeId = newId();
      await server.ctx.db.query(
        `INSERT INTO templates (id, owner_id, name, checksum, file_size, num_pages) VALUES ($1, $2, 'Letter.pdf', 'x', 1, 1)`,
        [templateId, uid],
      );
      await server.ctx.db.query(`INSERT INTO merges (id, template_id, owner_id, status, request) VALUES ($1, $2, $3, 'completed', '{}')`, [mergeId, templateId, uid]);
      await server.ctx.blobs.put(`templates/${templateId}/template.pdf`, new Uint8Array([1, 2, 3]));
      await server.ctx.blobs.put(`merges/${mergeId}/letters.zip`, new Uint8Array([4]));
      await server.ctx.blobs.put(`fonts/${uid}/Brand.ttf`, new Uint8Array([5]));
      return { templateId, mergeId };
    }

    it('needs the current password, then removes the account, its rows and its files, and no one else\'s', async () => {
      const account = await signUp('delete');
      const bystander = await signUp('bystander');
      const mine = await addTemplateWithFiles(account.uid);
      const theirs = await addTemplateWithFiles(bystander.uid);
      const remove = (password: string) => server.inject('DELETE', '/users/me', { token: account.token, body: { password } });

      const wrong = await remove('wrong password');
      expect(wrong.status).toBe(400);
      expect(wrong.json.fields).toEqual({ password: 'auth/wrong-password' });
      expect(await server.ctx.blobs.exists(`templates/${mine.templateId}/template.pdf`)).toBe(true);

      const done = await remove(PASSWORD);
      expect(done.status).toBe(200);
      expect(done.json).toEqual({ ok: true });
      expect(await server.ctx.blobs.exists(`templates/${mine.templateId}/template.pdf`)).toBe(false);
      expect(await server.ctx.blobs.exists(`merges/${mine.mergeId}/letters.zip`)).toBe(false);
      expect(await server.ctx.blobs.exists(`fonts/${account.uid}/Brand.ttf`)).toBe(false);
      expect(await server.ctx.db.query('SELECT id FROM templates WHERE owner_id = $1', [account.uid])).toEqual([]);
      expect((await me(account.token)).status).toBe(401);
      expect((await login(account.email, PASSWORD)).status).toBe(401);

      expect(await server.ctx.blobs.exists(`templates/${theirs.templateId}/template.pdf`)).toBe(true);
      expect(await server.ctx.blobs.exists(`fonts/${bystander.uid}/Brand.ttf`)).toBe(true);
      expect((await me(bystander.token)).status).toBe(200);
    });

    it('is refused while child users exist', async () => {
      const parent = await signUp('parent');
      const child = await signUp('child');
      await server.ctx.db.query('UPDATE users SET parent_uid = $1 WHERE id = $2', [parent.uid, child.uid]);
      const res = await server.inject('DELETE', '/users/me', { token: parent.token, body: { password: PASSWORD } });
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.json).toMatchObject({ code: 'auth/has-child-users', message: 'An account cannot be deleted while child users exist.' });
      expect((await me(parent.token)).status).toBe(200);
      expect((await me(child.token)).json.parentUid).toBe(parent.uid);
    });
  });

  describe('credits and quota periods', () => {
    const credits = (token: string, toBeUsed: number) => server.inject('GET', '/users/me/credits', { token, query: { toBeUsed: String(toBeUsed) } });

    it('shows what is left of the plan\'s quota before and after a merge of N documents', async () => {
      const account = await signUp('credits');
      const fresh = await credits(account.token, 30);
      expect(fresh.status).toBe(200);
      expect(fresh.json).toMatchObject({ available: 100, toBeUsed: 30, newBalance: 70, unlimited: false });
      await server.ctx.db.transaction((tx) => chargeDocuments(tx, account.uid, 95));
      expect((await credits(account.token, 30)).json).toMatchObject({ available: 5, newBalance: -25 });
      expect((await me(account.token)).json.counter).toBe(95);

      await server.ctx.db.query(`UPDATE users SET billing_plan = 'Offline' WHERE id = $1`, [account.uid]);
      expect((await credits(account.token, 1000)).json).toMatchObject({ available: null, newBalance: null, unlimited: true });
    });

    it('a charge inside a transaction that rolls back counts nothing', async () => {
      const account = await signUp('rollback');
      await expect(server.ctx.db.transaction(async (tx) => {
        await chargeDocuments(tx, account.uid, 10);
        throw new Error('merge failed');
      })).rejects.toThrow('merge failed');
      expect((await me(account.token)).json.counter).toBe(0);
    });

    it('renews the counter when a month has passed, keeping the day of the month', async () => {
      const account = await signUp('rollover');
      await server.ctx.db.query(`UPDATE users SET counter = 80, billing_date = now() - interval '40 days' WHERE id = $1`, [account.uid]);
      const user = (await me(account.token)).json;
      expect(user.counter).toBe(0);
      const start = Date.parse(user.billingDate);
      // 40 days back plus one month lands 9 to 12 days ago, depending on the month's length.
      expect(Date.now() - start).toBeGreaterThan(8 * DAY_MS);
      expect(Date.now() - start).toBeLessThan(13 * DAY_MS);
      const renewsAt = Date.parse((await credits(account.token, 0)).json.renewsAt);
      expect(renewsAt).toBeGreaterThan(Date.now());

      // Within the period nothing moves.
      await server.ctx.db.transaction((tx) => chargeDocuments(tx, account.uid, 7));
      const again = (await me(account.token)).json;
      expect(again.counter).toBe(7);
      expect(again.billingDate).toBe(user.billingDate);
    });
  });
});

describe('sheaf users (command line)', () => {
  let dataDir: string;
  const saved = { ...process.env };

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'sheaf-users-cli-'));
    delete process.env['DATABASE_URL'];
    process.env['DATA_DIR'] = dataDir;
  });
  afterAll(async () => {
    process.env = saved;
    await rm(dataDir, { recursive: true, force: true });
  });

  async function run(...args: string[]): Promise<string> {
    const { usersCommand } = await import('../src/cli/users.ts');
    let out = '';
    await usersCommand((text) => (out += text)).exitOverride().parseAsync(args, { from: 'user' });
    return out;
  }

  it('sets a plan given in any case, stores its canonical name, and lists the accounts', async () => {
    const { loadConfig } = await import('../src/config.ts');
    const { openDb, migrate } = await import('../src/adapters/db/index.ts');
    const { insertUser } = await import('../src/modules/users/repository.ts');
    const db = await openDb(loadConfig());
    await migrate(db);
    await insertUser(db, { id: newId(), email: 'cli@example.com', passwordHash: 'x', firstName: 'C', lastName: 'L', company: '', language: 'en' });
    await db.close();

    expect(await run('set-plan', 'CLI@example.com', 'enterPRISE')).toContain('Free -> Enterprise');
    // list reads the stored plan back from the database.
    const listing = await run('list');
    expect(listing).toMatch(/cli@example\.com\tEnterprise\t0\/10000/);
    expect(listing).toContain('1 user');
  });

  it('refuses an unknown plan and an unknown address', async () => {
    await expect(run('set-plan', 'cli@example.com', 'Gold')).rejects.toThrow(/PLAN must be one of Free, Pro, Enterprise, Offline, Unlicensed/);
    await expect(run('set-plan', 'nobody@example.com', 'Pro')).rejects.toThrow('There is no user with the email address nobody@example.com.');
  });
});
