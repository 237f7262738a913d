/**
 * One principal, one access decision: what a principal may do depends on its scopes, on whether it is
 * a child user and on whose data it is. Child users and API keys come in later issues, so their
 * principals are made here directly (and a child user row by SQL) to show the ground holds.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { READ_SCOPES, SCOPES, isSheafError, type TemplateSummary } from '@sheaf/shared';
import { assertCan, can, isChild, principalOf, type Principal } from '../src/access/index.ts';
import { startMerge } from '../src/modules/merges/index.ts';
import { forEachDatabase, startTestServer, type TestServer } from './harness.ts';
import { mergeRequest, peopleCsv, templateWithSheet, waitForMerge } from './merge-support.ts';

const session = (actorId: string, parentId: string | null = null): Principal =>
  principalOf({ actorId, parentId, auth: 'session', plan: 'Pro', edition: 'web' });
const apiKey = (actorId: string, scopes: Principal['scopes'] extends ReadonlySet<infer S> ? S[] : never): Principal =>
  principalOf({ actorId, auth: 'apiKey', scopes, plan: 'Pro', edition: 'web' });

function refusal(run: () => unknown): string | undefined {
  try {
    run();
    return undefined;
  } catch (error) {
    return isSheafError(error) ? error.code : String(error);
  }
}

describe('the access decision', () => {
  it('lets a signed-in user do everything in their own account', () => {
    const owner = session('u1');
    expect(owner.accountId).toBe('u1');
    for (const scope of SCOPES) expect(can(owner, scope), scope).toBe(true);
    expect(can(owner, 'templates:write', { accountId: 'u1' })).toBe(true);
  });

  it('refuses a child user billing and user management, inside the parent account', () => {
    const child = session('c1', 'p1');
    expect(isChild(child)).toBe(true);
    expect(child.accountId).toBe('p1');
    expect(can(child, 'billing')).toBe(false);
    expect(can(child, 'users:manage')).toBe(false);
    expect(refusal(() => assertCan(child, 'billing'))).toBe('access/forbidden');
    expect(refusal(() => assertCan(child, 'users:manage'))).toBe('access/forbidden');
    // The work itself is allowed, on the parent's data.
    expect(can(child, 'templates:write', { accountId: 'p1' })).toBe(true);
    expect(can(child, 'merges:write')).toBe(true);
  });

  it('refuses another account\'s resource', () => {
    expect(can(session('u1'), 'templates:read', { accountId: 'u2' })).toBe(false);
  });

  it('lets an API key with read-only scopes read but not start a merge', () => {
    const key = apiKey('u1', [...READ_SCOPES]);
    expect(can(key, 'templates:read')).toBe(true);
    expect(can(key, 'merges:read')).toBe(true);
    expect(can(key, 'merges:write')).toBe(false);
    expect(can(key, 'templates:write')).toBe(false);
    expect(refusal(() => assertCan(key, 'merges:write'))).toBe('access/forbidden');
  });

  it('carries the plan\'s entitlements for the edition', () => {
    expect(principalOf({ actorId: 'u', auth: 'session', plan: 'Free', edition: 'web' }).entitlements.watermark).toBe(true);
    expect(principalOf({ actorId: 'u', auth: 'session', plan: 'Enterprise', edition: 'web' }).entitlements.watermark).toBe(false);
  });
});

forEachDatabase((database) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ database });
  });
  afterAll(() => server?.close());

  it('a read-only API key cannot start a merge; the same user signed in can', async () => {
    const user = await server.signUp();
    const templateId = await templateWithSheet(server, user.token, peopleCsv(2));
    const refused = await startMerge(server.ctx, apiKey(user.uid, [...READ_SCOPES]), templateId, mergeRequest()).catch((error: unknown) => error);
    expect(isSheafError(refused) && refused.code).toBe('access/forbidden');
    const merges = await server.inject('GET', `/templates/${templateId}/merges`, { token: user.token });
    expect(merges.json).toEqual({ merges: [] });

    const started = await startMerge(server.ctx, apiKey(user.uid, ['merges:write']), templateId, mergeRequest());
    expect((await waitForMerge(server, user.token, templateId, started.mergeId)).status).toBe('completed');
  });

  it('a child user works in the parent\'s account: sees its library, keeps their own profile', async () => {
    const parent = await server.signUp();
    const child = await server.signUp();
    const templateId = await templateWithSheet(server, parent.token, peopleCsv(1));
    await server.ctx.db.query('UPDATE users SET parent_uid = $2 WHERE id = $1', [child.uid, parent.uid]);

    const library = await server.inject('GET', '/templates', { token: child.token });
    expect((library.json.templates as TemplateSummary[]).map((template) => template.id)).toEqual([templateId]);
    expect((await server.inject('GET', `/templates/${templateId}`, { token: child.token })).status).toBe(200);
    const me = await server.inject('GET', '/users/me', { token: child.token });
    expect(me.json).toMatchObject({ uid: child.uid, email: child.email, parentUid: parent.uid });
    // Another account's template stays "not found" for the child too.
    const stranger = await server.signUp();
    const theirs = await templateWithSheet(server, stranger.token, peopleCsv(1));
    expect((await server.inject('GET', `/templates/${theirs}`, { token: child.token })).status).toBe(404);
  });
});
