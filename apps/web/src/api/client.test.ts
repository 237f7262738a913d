// @vitest-environment node
/**
 * The API client against real HTTP servers on loopback (no stubbed fetch): the minimum response
 * time, failover between hosts, the single-flight token refresh and error bodies.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createApiClient, API_HOST_KEY } from './client.ts';
import { memoryStorage, REFRESH_TOKEN_KEY, TOKEN_KEY } from './session.ts';

type Handler = (req: http.IncomingMessage, res: http.ServerResponse, body: string) => void;
const servers: http.Server[] = [];

async function serve(handler: Handler): Promise<string> {
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => handler(req, res, body));
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function json(res: http.ServerResponse, status: number, value: unknown): void {
  res.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(value));
}

/** An unsigned JWT with our audience; the client only reads exp and aud. */
function jwt(name: string, claims: Record<string, unknown> = {}): string {
  const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  return `${encode({ alg: 'none' })}.${encode({ sub: name, aud: 'sheaf', exp: Math.floor(Date.now() / 1000) + 3600, ...claims })}.sig`;
}

const user = { uid: 'u1', email: 'ada@example.com', firstName: 'Ada', lastName: 'Lovelace' };

function client(hosts: string[], minResponseMs = 0) {
  const storage = memoryStorage();
  const api = createApiClient({ hosts, storage, fetch: (url, init) => fetch(url, init), minResponseMs });
  return { api, storage };
}

afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => {
    server.closeAllConnections();
    server.close(resolve);
  })));
});

describe('api client', () => {
  it('takes at least the minimum response time even when the server answers at once', async () => {
    const host = await serve((_req, res) => json(res, 200, { version: '1', maxUploadBytes: 1, maxImageBytes: 1, maxAttachmentsBytes: 1, maxSheetRows: 1, mailOutbox: true, edition: 'web' }));
    const { api } = client([host], 500);
    const started = performance.now();
    const config = await api.call('config');
    expect(config.version).toBe('1');
    expect(performance.now() - started).toBeGreaterThanOrEqual(495);
  });

  it('fails over to the backup host on a network error and remembers it', async () => {
    let primaryHits = 0;
    const primary = await serve((req) => {
      primaryHits++;
      req.socket.destroy();
    });
    const backup = await serve((_req, res) => json(res, 200, { message: 'sent' }));
    const { api, storage } = client([primary, backup]);

    await expect(api.call('resetPassword', { body: { email: 'ada@example.com' } })).resolves.toEqual({ message: 'sent' });
    expect(primaryHits).toBe(1);
    expect(storage.getItem(API_HOST_KEY)).toBe(backup);

    await api.call('resetPassword', { body: { email: 'ada@example.com' } });
    expect(primaryHits).toBe(1);
    expect(api.href('/v1/files/abc')).toBe(`${backup}/v1/files/abc`);
  });

  it('reports a network error when no host answers', async () => {
    const dead = await serve((req) => req.socket.destroy());
    const { api } = client([dead]);
    await expect(api.call('config')).rejects.toMatchObject({ isNetwork: true, code: 'generic/network' });
  });

  it('refreshes once for concurrent 401s and retries each call with the new token', async () => {
    const fresh = jwt('fresh');
    let refreshes = 0;
    let refreshBody: unknown;
    const host = await serve((req, res, body) => {
      if (req.url === '/v1/users/token') {
        refreshes++;
        refreshBody = JSON.parse(body);
        // Answer late so both calls are waiting on the same refresh.
        setImmediate(() => json(res, 200, { id_token: fresh, refresh_token: 'refresh-2', user_id: 'u1', expires_in: 900 }));
        return;
      }
      if (req.headers.authorization === `Bearer ${fresh}`) json(res, 200, user);
      else json(res, 401, { code: 'auth/unauthenticated', message: 'Your session has ended. Please log in again.' });
    });
    const { api, storage } = client([host]);
    api.session.set(jwt('stale'), 'refresh-1');

    const [first, second] = await Promise.all([api.call('me'), api.call('me')]);
    expect(first.email).toBe('ada@example.com');
    expect(second.email).toBe('ada@example.com');
    expect(refreshes).toBe(1);
    expect(refreshBody).toEqual({ grant_type: 'refresh_token', refresh_token: 'refresh-1' });
    expect(storage.getItem(TOKEN_KEY)).toBe(fresh);
    expect(storage.getItem(REFRESH_TOKEN_KEY)).toBe('refresh-2');
  });

  it('refreshes an expired token before the call instead of waiting for a 401', async () => {
    const seen: string[] = [];
    const fresh = jwt('fresh');
    const host = await serve((req, res) => {
      seen.push(req.url ?? '');
      if (req.url === '/v1/users/token') json(res, 200, { id_token: fresh, refresh_token: 'r2', user_id: 'u1', expires_in: 900 });
      else json(res, req.headers.authorization === `Bearer ${fresh}` ? 200 : 401, user);
    });
    const { api } = client([host]);
    api.session.set(jwt('old', { exp: Math.floor(Date.now() / 1000) - 60 }), 'r1');
    await api.call('me');
    expect(seen).toEqual(['/v1/users/token', '/v1/users/me']);
  });

  it('ends the session when the refresh fails', async () => {
    const host = await serve((req, res) => {
      if (req.url === '/v1/users/token') json(res, 401, { code: 'auth/unauthenticated', message: 'no' });
      else json(res, 401, { code: 'auth/unauthenticated', message: 'no' });
    });
    const { api, storage } = client([host]);
    let ended = 0;
    api.onSessionEnd(() => ended++);
    api.session.set(jwt('stale'), 'revoked');
    await expect(api.call('me')).rejects.toMatchObject({ status: 401, code: 'auth/unauthenticated' });
    expect(ended).toBe(1);
    expect(storage.getItem(TOKEN_KEY)).toBeNull();
    expect(storage.getItem(REFRESH_TOKEN_KEY)).toBeNull();
  });

  it('signs out without calling the server when the token is for another audience', async () => {
    let hits = 0;
    const host = await serve((_req, res) => {
      hits++;
      json(res, 200, user);
    });
    const { api } = client([host]);
    api.session.set(jwt('foreign', { aud: 'another-project' }), 'r1');
    await expect(api.call('me')).rejects.toMatchObject({ status: 401 });
    expect(hits).toBe(0);
    expect(api.session.token()).toBeNull();
  });

  it('turns an error body into an ApiError with its code, params and field codes', async () => {
    const host = await serve((_req, res) =>
      json(res, 400, { code: 'auth/email-invalid', message: 'Must be a valid email address', params: { max: 3 }, fields: { email: 'auth/email-invalid', password: 'auth/password-empty' } }),
    );
    const { api } = client([host]);
    const error = await api.call('register', { body: { firstName: 'A', lastName: 'B', email: 'x', password: '', confirmPassword: '' } }).catch((e: unknown) => e);
    expect(error).toMatchObject({
      name: 'ApiError', status: 400, code: 'auth/email-invalid', message: 'Must be a valid email address',
      params: { max: 3 }, fields: { email: 'auth/email-invalid', password: 'auth/password-empty' }, isNetwork: false, isCancelled: false,
    });
  });

  it('marks an aborted call as cancelled', async () => {
    const host = await serve(() => undefined); // never answers
    const { api } = client([host], 500);
    const controller = new AbortController();
    const pending = api.call('config', { signal: controller.signal });
    controller.abort();
    await expect(pending).rejects.toMatchObject({ isCancelled: true });
  });

  it('uploads a file as multipart field "file" with the other fields in the query string', async () => {
    let seen: { url?: string; type?: string; body?: string } = {};
    const host = await serve((req, res, body) => {
      seen = { url: req.url, type: req.headers['content-type'], body };
      json(res, 201, { id: 't1' });
    });
    const { api } = client([host]);
    api.session.set(jwt('me'), 'r1');
    await api.call('uploadTemplate', { query: { name: 'Letter' }, file: new File(['%PDF-1.7'], 'letter.pdf', { type: 'application/pdf' }) });
    expect(seen.url).toBe('/v1/templates?name=Letter');
    expect(seen.type).toMatch(/^multipart\/form-data/);
    expect(seen.body).toContain('name="file"; filename="letter.pdf"');
    expect(seen.body).toContain('%PDF-1.7');
  });
});
