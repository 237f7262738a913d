// @vitest-environment node
/**
 * The check's call through the web client against a real HTTP server on loopback: the bearer token
 * (refreshed after a 401), NDJSON read while it arrives in several chunks, and the spec's messages
 * (400: too large, no retry; anything else: try again).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { DataCheckRequestSchema, DEFAULT_EMAIL_SETTINGS, type DataIssue, type TemplateOutputSettings } from '@sheaf/shared';
import { ApiError, createApiClient } from '../../api/client.ts';
import { memoryStorage, REFRESH_TOKEN_KEY, TOKEN_KEY } from '../../api/session.ts';
import { checkFailure, dataCheckRequest, readAnswer } from './api.ts';

const servers: http.Server[] = [];
type Handler = (req: http.IncomingMessage, res: http.ServerResponse, body: string) => void;

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

afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => {
    server.closeAllConnections();
    server.close(resolve);
  })));
});

function jwt(name: string): string {
  const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  return `${encode({ alg: 'none' })}.${encode({ sub: name, aud: 'sheaf', exp: Math.floor(Date.now() / 1000) + 3600 })}.sig`;
}

function signedInClient(host: string) {
  const storage = memoryStorage();
  storage.setItem(TOKEN_KEY, jwt('first'));
  storage.setItem(REFRESH_TOKEN_KEY, 'refresh-1');
  return createApiClient({ hosts: [host], storage, fetch: (url, init) => fetch(url, init), minResponseMs: 0 });
}

const issue = (row: number): DataIssue => ({
  row_number: row, column_name: 'Email', description: 'This is not a valid email address.', actual_value: 'x@', expected_value: '', kind: 'email', code: 'check/email-invalid', params: {},
});
const TEMPLATE_ID = 'T'.repeat(20);
const output: TemplateOutputSettings = { isCombinedOutput: false, isKeepFormOutput: true, isOnlyPlaceholdersOutput: false, isTryRepair: false, isCompressedOutput: true, fileNamePattern: '{{Name}}', passwordProtection: null };
const body = dataCheckRequest({ customName: null, output, email: DEFAULT_EMAIL_SETTINGS }, { firstRow: 2, lastRow: 11 });

describe('the check request', () => {
  it('is a merge request of every data row, with the output settings and no merge id', () => {
    expect(DataCheckRequestSchema.parse(body)).toMatchObject({ rowsData: { startRow: 2, endRow: 11 }, fileNamePattern: '{{Name}}', email: null });
    expect('mergeId' in body).toBe(false);
    expect(dataCheckRequest({ customName: null, output, email: { ...DEFAULT_EMAIL_SETTINGS, isActive: true } }, { firstRow: 2, lastRow: 11 }).email).toEqual({ isActive: true });
  });
});

describe('streaming the check', () => {
  it('sends the token and the body, and hands over issues as the chunks arrive', async () => {
    let seen: { auth?: string; body?: unknown; path?: string } = {};
    const host = await serve((req, res, text) => {
      seen = { auth: req.headers.authorization, body: JSON.parse(text) as unknown, path: req.url };
      res.writeHead(200, { 'Content-Type': 'application/x-ndjson' });
      res.write(`${JSON.stringify(issue(2))}\n${JSON.stringify(issue(3)).slice(0, 20)}`);
      setTimeout(() => {
        res.write(`${JSON.stringify(issue(3)).slice(20)}\n`);
        setTimeout(() => res.end(`${JSON.stringify(issue(4))}\n`), 30);
      }, 30);
    });
    const api = signedInClient(host);
    const response = await api.stream('verifyExcelData', { params: { id: TEMPLATE_ID }, body });
    const batches: number[][] = [];
    await readAnswer(response, { onIssues: (issues) => batches.push(issues.map((item) => item.row_number)) });
    expect(seen.path).toBe(`/v1/templates/${TEMPLATE_ID}/verifyExcelData/stream`);
    expect(seen.auth).toMatch(/^Bearer /);
    expect(seen.body).toEqual(body);
    expect(batches.flat()).toEqual([2, 3, 4]);
    expect(batches.length).toBeGreaterThan(1);
  });

  it('refreshes the token after a 401 and asks again', async () => {
    let calls = 0;
    const host = await serve((req, res) => {
      if (req.url === '/v1/users/token') return res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ id_token: jwt('second'), refresh_token: 'refresh-2' }));
      calls++;
      if (calls === 1) return res.writeHead(401, { 'Content-Type': 'application/json' }).end(JSON.stringify({ code: 'auth/unauthenticated', message: 'x' }));
      res.writeHead(200).end(`${JSON.stringify(issue(5))}\n`);
    });
    const api = signedInClient(host);
    const response = await api.stream('verifyExcelData', { params: { id: TEMPLATE_ID }, body });
    const rows: number[] = [];
    await readAnswer(response, { onIssues: (issues) => rows.push(...issues.map((item) => item.row_number)) });
    expect(rows).toEqual([5]);
    expect(calls).toBe(2);
  });

  it('400 is "too large" (or the refusal the server names) with no retry; a server error, a cut connection or an error line is "try again"', async () => {
    const tooLarge = await serve((_req, res) => res.writeHead(400, { 'Content-Type': 'application/json' }).end(JSON.stringify({ code: 'check/too-large', message: 'too large' })));
    const noSheet = await serve((_req, res) => res.writeHead(400, { 'Content-Type': 'application/json' }).end(JSON.stringify({ code: 'sheet/missing', message: 'x' })));
    const failing = await serve((_req, res) => res.writeHead(500, { 'Content-Type': 'application/json' }).end(JSON.stringify({ code: 'generic/something-wrong', message: 'x' })));
    const cut = await serve((_req, res) => {
      res.writeHead(200);
      res.write(`${JSON.stringify(issue(2))}\n`);
      setTimeout(() => res.socket?.destroy(), 20);
    });
    const errorLine = await serve((_req, res) => res.writeHead(200).end(`${JSON.stringify({ code: 'check/failed', message: 'failed' })}\n`));

    const failure = async (host: string) => {
      try {
        const response = await signedInClient(host).stream('verifyExcelData', { params: { id: TEMPLATE_ID }, body });
        await readAnswer(response, { onIssues: () => undefined });
      } catch (error) {
        return checkFailure(error);
      }
      throw new Error('expected a failure');
    };
    expect(await failure(tooLarge)).toEqual({ code: 'check/too-large', retry: false });
    expect(await failure(noSheet)).toEqual({ code: 'sheet/missing', params: {}, retry: false });
    expect(await failure(failing)).toEqual({ code: 'check/failed', retry: true });
    expect(await failure(cut)).toEqual({ code: 'check/failed', retry: true });
    expect(await failure(errorLine)).toEqual({ code: 'check/failed', retry: true });
  });

  it('a check stopped by closing the dialog is cancelled, and says nothing', async () => {
    const host = await serve((_req, res) => {
      res.writeHead(200);
      res.write(`${JSON.stringify(issue(2))}\n`);
    });
    const controller = new AbortController();
    const response = await signedInClient(host).stream('verifyExcelData', { params: { id: TEMPLATE_ID }, body, signal: controller.signal });
    const reading = readAnswer(response, { signal: controller.signal, onIssues: () => controller.abort() });
    const error = await reading.catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).isCancelled).toBe(true);
    expect(checkFailure(error)).toBeNull();
  });
});
