/**
 * The HTTP status of every error comes from the catalogue's explicit map (ERROR_HTTP_STATUS_GROUPS in
 * packages/shared/src/errors.ts, documented in docs/errors.md), not from how a code is spelled; and
 * the API answers what the map says.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_HTTP_STATUS_GROUPS, ERROR_MESSAGES, httpStatusOf, type ErrorCode } from '@sheaf/shared';
import { forEachDatabase, startTestServer, TEST_PASSWORD, type TestServer } from './harness.ts';
import { mergeRequest, peopleCsv, setPlan, startMerge, templateWithSheet } from './merge-support.ts';

const codes = Object.keys(ERROR_MESSAGES) as ErrorCode[];

describe('the status map', () => {
  it('names only catalogue codes, each under one status', () => {
    const listed = Object.values(ERROR_HTTP_STATUS_GROUPS).flat() as string[];
    for (const code of listed) expect(codes, code).toContain(code);
    expect(new Set(listed).size).toBe(listed.length);
  });

  it('gives every code a status an API client knows', () => {
    for (const code of codes) expect([400, 401, 402, 403, 404, 409, 410, 413, 429, 500, 502, 503, 507], code).toContain(httpStatusOf(code));
  });

  it('answers 403 for a disabled account and 402 for missing credits (both were 400)', () => {
    expect(httpStatusOf('auth/account-disabled')).toBe(403);
    expect(httpStatusOf('merge/insufficient-credits')).toBe(402);
    expect(httpStatusOf('access/forbidden')).toBe(403);
  });

  it('does not read the status from the spelling: every "...not-found" code is listed as 404 on its own', () => {
    for (const code of codes.filter((code) => code.endsWith('not-found'))) {
      expect((ERROR_HTTP_STATUS_GROUPS[404] as readonly string[]).includes(code), code).toBe(true);
    }
  });
});

forEachDatabase((database) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ database });
  });
  afterAll(() => server?.close());

  it('a disabled account signing in gets 403 auth/account-disabled', async () => {
    const account = await server.signUp();
    await server.ctx.db.query('UPDATE users SET disabled_at = now() WHERE id = $1', [account.uid]);
    const res = await server.inject('POST', '/users/login', { body: { email: account.email, password: TEST_PASSWORD } });
    expect(res.status).toBe(httpStatusOf('auth/account-disabled'));
    expect(res.status).toBe(403);
    expect(res.json).toMatchObject({ code: 'auth/account-disabled' });
  });

  it('a merge the credits do not cover gets 402 merge/insufficient-credits', async () => {
    const user = await server.signUp();
    await setPlan(server, user.uid, 'Free', 99); // 1 document left
    const templateId = await templateWithSheet(server, user.token, peopleCsv(3));
    const res = await startMerge(server, user.token, templateId, mergeRequest());
    expect(res.status).toBe(402);
    expect(res.json).toMatchObject({ code: 'merge/insufficient-credits', params: { available: 1, needed: 3 } });
  });
});
