/**
 * The HTTP layer as a client sees it: error bodies, the minimum response time, binary replies,
 * upload limits, the OpenAPI document, security headers, and the web app with its SPA fallback.
 */
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import Fastify, { type FastifyInstance } from 'fastify';
import multipart from '@fastify/multipart';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { route, SheafError, SheafFieldErrors } from '@sheaf/shared';
import { binary, handle } from '../src/http/route.ts';
import { installErrorHandlers } from '../src/http/errors.ts';
import { scriptSafeJson } from '../src/http/web.ts';
import { startTestServer, type TestServer } from './harness.ts';

const temps: string[] = [];
afterAll(async () => {
  await Promise.all(temps.map((dir) => rm(dir, { recursive: true, force: true })));
});

/** handle() and the error handler on a bare Fastify app, with routes made for the test. */
describe('shared routes and error answers', () => {
  let app: FastifyInstance;
  const Item = z.object({ name: z.string().min(1), count: z.number().int() });
  beforeAll(async () => {
    app = Fastify();
    app.setValidatorCompiler(validatorCompiler);
    app.setSerializerCompiler(serializerCompiler);
    installErrorHandlers(app);
    await app.register(multipart);
    handle(app, route({ method: 'POST', path: '/items/:id', access: 'public', summary: 't', params: z.object({ id: z.string().length(3) }), query: z.object({ n: z.coerce.number().default(1) }), body: Item, response: Item, status: 201 }),
      async ({ params, query, body }) => ({ name: `${params.id}-${body.name}`, count: body.count * query.n }));
    handle(app, route({ method: 'GET', path: '/busy', access: 'public', summary: 't', response: Item }), async () => {
      throw new SheafError('template/merge-in-progress');
    });
    handle(app, route({ method: 'GET', path: '/form', access: 'public', summary: 't', response: Item }), async () => {
      throw new SheafFieldErrors({ email: 'auth/email-already-in-use', password: 'auth/weak-password' });
    });
    handle(app, route({ method: 'GET', path: '/crash', access: 'public', summary: 't', response: Item }), async () => {
      throw new Error('database password is hunter2');
    });
    handle(app, route({ method: 'GET', path: '/wrong-shape', access: 'public', summary: 't', response: Item }), async () => ({ name: 'x' }) as never);
    handle(app, route({ method: 'GET', path: '/private', access: 'private', summary: 't', response: Item }), async () => ({ name: 'x', count: 1 }));
    handle(app, route({ method: 'GET', path: '/file', access: 'public', summary: 't', response: 'binary' }), async () =>
      binary({ body: new TextEncoder().encode('%PDF'), contentType: 'application/pdf', fileName: 'Brief für Zoë "2".pdf', etag: 'abc123' }));
    handle(app, route({ method: 'GET', path: '/stream', access: 'public', summary: 't', response: 'binary' }), async () =>
      binary({ body: Readable.from([Buffer.from('zip'), Buffer.from('bytes')]), contentType: 'application/zip', size: 8 }));
    handle(app, route({ method: 'POST', path: '/upload', access: 'public', summary: 't', body: 'multipart', response: z.object({ name: z.string(), size: z.number() }) }),
      async ({ file }) => {
        const upload = await file(10, 'image/too-large');
        return { name: upload.fileName, size: upload.bytes.length };
      });
    await app.ready();
  });
  afterAll(() => app.close());

  it('validates and coerces params, query and body, and answers with the declared status', async () => {
    const response = await app.inject({ method: 'POST', url: '/v1/items/abc?n=3', payload: { name: 'pen', count: 2 } });
    expect(response.statusCode).toBe(201);
    expect(response.json()).toEqual({ name: 'abc-pen', count: 6 });
  });

  it('answers invalid input with 400 generic/invalid-input naming the fields', async () => {
    const response = await app.inject({ method: 'POST', url: '/v1/items/abc', payload: { name: '', count: 1.5 } });
    expect(response.statusCode).toBe(400);
    const body = response.json();
    expect(body).toMatchObject({ code: 'generic/invalid-input', fields: { name: 'generic/invalid-input', count: 'generic/invalid-input' } });
    expect(body.message).toMatch(/^The request is not valid: body\.(name|count)/);
    const badParam = await app.inject({ method: 'POST', url: '/v1/items/toolong', payload: { name: 'a', count: 1 } });
    expect(badParam.statusCode).toBe(400);
    expect(badParam.json().params.detail).toMatch(/^params\.id/);
    const badJson = await app.inject({ method: 'POST', url: '/v1/items/abc', headers: { 'content-type': 'application/json' }, payload: '{"name":' });
    expect(badJson.statusCode).toBe(400);
    expect(badJson.json().code).toBe('generic/invalid-input');
  });

  it('maps catalogue codes to HTTP statuses with the catalogue text', async () => {
    const busy = await app.inject({ method: 'GET', url: '/v1/busy' });
    expect(busy.statusCode).toBe(409);
    expect(busy.json()).toEqual({ code: 'template/merge-in-progress', message: 'The template cannot be deleted because there is a mail merge in progress' });
    const form = await app.inject({ method: 'GET', url: '/v1/form' });
    expect(form.statusCode).toBe(400);
    expect(form.json()).toMatchObject({ code: 'auth/email-already-in-use', fields: { email: 'auth/email-already-in-use', password: 'auth/weak-password' } });
  });

  it('hides unexpected failures behind generic/something-wrong', async () => {
    for (const url of ['/v1/crash', '/v1/wrong-shape']) {
      const response = await app.inject({ method: 'GET', url });
      expect(response.statusCode).toBe(500);
      expect(response.json()).toEqual({ code: 'generic/something-wrong', message: 'Something went wrong - Please try again' });
      expect(response.body).not.toContain('hunter2');
    }
  });

  it('refuses private routes without a bearer token', async () => {
    const response = await app.inject({ method: 'GET', url: '/v1/private' });
    expect(response.statusCode).toBe(401);
    expect(response.json().code).toBe('auth/unauthenticated');
  });

  it('sends files with their type, length, download name and ETag, and 304 when unchanged', async () => {
    const response = await app.inject({ method: 'GET', url: '/v1/file' });
    expect(response.statusCode).toBe(200);
    expect(response.headers).toMatchObject({ 'content-type': 'application/pdf', 'content-length': '4', etag: '"abc123"' });
    expect(response.headers['content-disposition']).toBe(`attachment; filename="Brief f_r Zo_ _2_.pdf"; filename*=UTF-8''Brief%20f%C3%BCr%20Zo%C3%AB%20%222%22.pdf`);
    expect(response.body).toBe('%PDF');
    const again = await app.inject({ method: 'GET', url: '/v1/file', headers: { 'if-none-match': '"abc123"' } });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    const stream = await app.inject({ method: 'GET', url: '/v1/stream' });
    expect(stream.headers['content-length']).toBe('8');
    expect(stream.body).toBe('zipbytes');
  });

  it('reads an upload up to its limit and stops with the route\'s "too large" error past it', async () => {
    const upload = (bytes: number) => {
      const boundary = 'XyZ';
      const payload = Buffer.concat([
        Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="logo.png"\r\nContent-Type: image/png\r\n\r\n`),
        Buffer.alloc(bytes, 1),
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]);
      return app.inject({ method: 'POST', url: '/v1/upload', headers: { 'content-type': `multipart/form-data; boundary=${boundary}` }, payload });
    };
    const fits = await upload(10);
    expect(fits.json()).toEqual({ name: 'logo.png', size: 10 });
    const tooLarge = await upload(11);
    expect(tooLarge.statusCode).toBe(413);
    expect(tooLarge.json()).toMatchObject({ code: 'image/too-large', params: { maxMb: 0 } });
    const notMultipart = await app.inject({ method: 'POST', url: '/v1/upload', payload: { file: 'x' } });
    expect(notMultipart.statusCode).toBe(400);
    expect(notMultipart.json().code).toBe('generic/invalid-input');
  });
});

describe('the running server', () => {
  let server: TestServer;
  let webDist: string;
  const apiHost = 'https://api.example.com';
  beforeAll(async () => {
    webDist = await mkdtemp(path.join(tmpdir(), 'sheaf-web-'));
    temps.push(webDist);
    await mkdir(path.join(webDist, 'assets'));
    await writeFile(path.join(webDist, 'index.html'), '<!doctype html><html><head><title>Sheaf</title></head><body><div id="root"></div></body></html>');
    await writeFile(path.join(webDist, 'assets/app-1a2b3c.js'), 'console.log("app")');
    await writeFile(path.join(webDist, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
    server = await startTestServer({ database: 'pglite', config: { WEB_DIST: webDist, API_HOSTS: [apiHost], MIN_RESPONSE_MS: 300 } });
  });
  afterAll(() => server?.close());

  const get = (url: string, accept = 'text/html') => fetch(new URL(url, server.url), { headers: { accept } });

  it('holds every API answer back to the minimum response time, errors included', async () => {
    for (const call of [() => server.inject('GET', '/config'), () => server.inject('POST', '/users/login', { body: { email: 'a@b.cd', password: 'x' } })]) {
      const start = performance.now();
      const response = await call();
      expect(response.status).toBeLessThan(500);
      expect(performance.now() - start).toBeGreaterThanOrEqual(299);
    }
  });

  it('tells the client its limits, version and edition', async () => {
    const response = await server.inject('GET', '/config');
    expect(response.json).toMatchObject({ version: expect.stringMatching(/^\d+\.\d+\.\d+/), maxUploadBytes: 26_214_400, maxSheetRows: 100_000, mailOutbox: true, edition: 'web' });
  });

  it('serves every page address with index.html carrying the client settings', async () => {
    const response = await get('/templates/abc/edit?x=1');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/html');
    expect(response.headers.get('cache-control')).toBe('no-cache');
    const html = await response.text();
    const script = `window.SHEAF_CONFIG={"apiHosts":["${apiHost}"],"edition":"web"}`;
    expect(html).toContain(`<script>${script}</script></head>`);
    // The policy allows exactly this inline script and no other.
    const hash = createHash('sha256').update(script).digest('base64');
    expect(response.headers.get('content-security-policy')).toContain(`script-src 'self' 'sha256-${hash}'`);
    expect(response.headers.get('content-security-policy')).toContain(`connect-src 'self' blob: data: ${apiHost}`);
    expect(await (await get('/')).text()).toContain(script);
  });

  it('serves hashed assets with a long cache and answers unknown files and API paths with 404', async () => {
    const asset = await get('/assets/app-1a2b3c.js', '*/*');
    expect(asset.status).toBe(200);
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(await asset.text()).toBe('console.log("app")');
    expect((await get('/favicon.svg', '*/*')).headers.get('cache-control')).toBe('no-cache');
    expect((await get('/missing.png', 'image/png')).status).toBe(404);
    const api = await get('/v1/no/such/call');
    expect(api.status).toBe(404);
    expect(await api.json()).toMatchObject({ code: 'generic/not-found' });
  });

  it('sends security headers on pages and API answers', async () => {
    for (const response of [await get('/login'), await get('/v1/config', 'application/json')]) {
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect(response.headers.get('referrer-policy')).toBe('same-origin');
      expect(response.headers.get('x-frame-options')).toBe('DENY');
      const csp = response.headers.get('content-security-policy') ?? '';
      for (const directive of ["default-src 'self'", "img-src 'self' blob: data:", "worker-src 'self' blob:", "style-src 'self' 'unsafe-inline'", "frame-ancestors 'none'"]) {
        expect(csp).toContain(directive);
      }
    }
  });

  it('publishes the OpenAPI document of the shared routes at /v1/docs', async () => {
    expect((await get('/v1/docs')).status).toBe(200);
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    const document = (await (await get('/v1/docs/json', 'application/json')).json()) as any;
    expect(document.openapi).toMatch(/^3\./);
    expect(document.info.title).toBe('Sheaf API');
    expect(Object.keys(document.paths)).toEqual(expect.arrayContaining(['/v1/users/login', '/v1/templates/{id}', '/v1/templates/{id}/merge']));
    expect(Object.keys(document.paths).every((key: string) => key.startsWith('/v1/'))).toBe(true);
    expect(document.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(document.paths['/v1/users/me'].get.security).toEqual([{ bearerAuth: [] }]);
    expect(document.paths['/v1/users/login'].post.requestBody.content['application/json'].schema.properties).toHaveProperty('email');
  });

  it('escapes settings so they cannot end the script element', () => {
    expect(scriptSafeJson({ a: '</script><script>alert(1)</script>' })).toBe('{"a":"\\u003c/script\\u003e\\u003cscript\\u003ealert(1)\\u003c/script\\u003e"}');
  });
});

describe('a server without a built web app', () => {
  it('tells the visitor to build it', async () => {
    const empty = await mkdtemp(path.join(tmpdir(), 'sheaf-noweb-'));
    temps.push(empty);
    const server = await startTestServer({ database: 'pglite', config: { WEB_DIST: empty } });
    try {
      const page = await fetch(new URL('/', server.url), { headers: { accept: 'text/html' } });
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('npm run build');
    } finally {
      await server.close();
    }
  });
});
