// @vitest-environment node
/**
 * The recent errors a support request may carry (docs/support.md): bounded to the last 20, failed calls
 * with their request ids, render failures with a short message, cancelled calls left out; and the API
 * client keeps every failed call's request id (x-request-id) and sends a form's text fields.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { RECENT_ERRORS_MAX } from '@sheaf/shared';
import { ApiError } from './apiError.ts';
import { createApiClient } from './client.ts';
import { RECENT_ERRORS_KEY, RecentErrors } from './recentErrors.ts';
import { memoryStorage, TOKEN_KEY } from './session.ts';

const at = new Date('2026-03-04T05:06:07.000Z');
const buffer = () => new RecentErrors(RECENT_ERRORS_MAX, () => at, () => '/wizard/abc');
const serverError = (requestId: string) => new ApiError({ status: 500, code: 'generic/something-wrong', message: 'Something went wrong', requestId });

describe('recent errors', () => {
  it('keeps the last 20, oldest first, each with its request id, call and page', () => {
    const errors = buffer();
    for (let index = 1; index <= 25; index += 1) errors.addApiError(serverError(`req-${index}`), 'mergeTemplate');
    const list = errors.list();
    expect(list).toHaveLength(20);
    expect(list[0]).toEqual({ at: at.toISOString(), kind: 'api', code: 'generic/something-wrong', status: 500, call: 'mergeTemplate', requestId: 'req-6', page: '/wizard/abc' });
    expect(list.at(-1)!.requestId).toBe('req-25');
    expect(errors.latestRequestId()).toBe('req-25');
  });

  it('leaves cancelled calls out and cuts a render failure\'s message short', () => {
    const errors = buffer();
    errors.addApiError(ApiError.cancelled(), 'listTemplates');
    errors.addFailure(new TypeError(`x is undefined ${'y'.repeat(1000)}`));
    const [failure, ...rest] = errors.list();
    expect(rest).toEqual([]);
    expect(failure).toMatchObject({ kind: 'render', code: 'TypeError' });
    expect(failure!.message!.length).toBe(300);
    expect(errors.latestRequestId()).toBeUndefined();
  });

  it('survives a reload of the tab (its sessionStorage), skips what is malformed, and forgets on clear', () => {
    const storage = memoryStorage();
    const first = new RecentErrors(RECENT_ERRORS_MAX, () => at, () => '/', storage);
    first.addApiError(serverError('kept'), 'getTemplate');
    const reloaded = new RecentErrors(RECENT_ERRORS_MAX, () => at, () => '/', storage);
    expect(reloaded.latestRequestId()).toBe('kept');
    storage.setItem(RECENT_ERRORS_KEY, JSON.stringify([{ kind: 'nonsense' }, ...reloaded.list()]));
    expect(new RecentErrors(RECENT_ERRORS_MAX, () => at, () => '/', storage).list()).toHaveLength(1);
    reloaded.clear();
    expect(storage.getItem(RECENT_ERRORS_KEY)).toBeNull();
    expect(new RecentErrors(RECENT_ERRORS_MAX, () => at, () => '/', storage).list()).toEqual([]);
  });

  it('tells its listeners, and hands out copies', () => {
    const errors = buffer();
    let calls = 0;
    const stop = errors.subscribe(() => (calls += 1));
    errors.addApiError(serverError('a'), 'me');
    errors.list()[0]!.code = 'tampered';
    expect(errors.list()[0]!.code).toBe('generic/something-wrong');
    stop();
    errors.addApiError(serverError('b'), 'me');
    expect(calls).toBe(1);
  });
});

const servers: http.Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => {
    server.closeAllConnections();
    server.close(resolve);
  })));
});

async function serve(handler: (req: http.IncomingMessage, res: http.ServerResponse, body: string) => void): Promise<string> {
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => handler(req, res, body));
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe('the API client and recent errors', () => {
  it('gives a failed call the server\'s request id and tells onError, but not of a cancelled call', async () => {
    const host = await serve((_req, res) => {
      res.writeHead(500, { 'Content-Type': 'application/json', 'x-request-id': 'req-from-server' }).end(JSON.stringify({ code: 'generic/something-wrong', message: 'Something went wrong' }));
    });
    const errors = buffer();
    const api = createApiClient({ hosts: [host], storage: memoryStorage(), fetch: (url, init) => fetch(url, init), minResponseMs: 0, onError: (error, key) => errors.addApiError(error, key) });
    const failure = await api.call('config').catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ApiError);
    expect((failure as ApiError).requestId).toBe('req-from-server');
    const controller = new AbortController();
    controller.abort();
    await api.call('config', { signal: controller.signal }).catch(() => undefined);
    expect(errors.list()).toEqual([expect.objectContaining({ call: 'config', status: 500, requestId: 'req-from-server' })]);
  });

  it('sends a form\'s text fields with the file as multipart/form-data', async () => {
    let received = '';
    let type = '';
    const host = await serve((req, res, body) => {
      received = body;
      type = String(req.headers['content-type']);
      res.writeHead(201, { 'Content-Type': 'application/json' }).end('{}');
    });
    const storage = memoryStorage();
    const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
    storage.setItem(TOKEN_KEY, `${encode({ alg: 'none' })}.${encode({ sub: 'u1', aud: 'sheaf', exp: Math.floor(Date.now() / 1000) + 3600 })}.sig`);
    const api = createApiClient({ hosts: [host], storage, fetch: (url, init) => fetch(url, init), minResponseMs: 0 });
    await api.call('createSupportRequest', { fields: { topic: 'support', subject: 'Hello', message: 'Line 1' }, file: new File(['abc'], 'a.txt', { type: 'text/plain' }) });
    expect(type).toMatch(/^multipart\/form-data; boundary=/);
    expect(received).toContain('name="subject"\r\n\r\nHello');
    expect(received).toContain('name="message"\r\n\r\nLine 1');
    expect(received).toMatch(/name="file"; filename="a.txt"[\s\S]*abc/);
  });
});
