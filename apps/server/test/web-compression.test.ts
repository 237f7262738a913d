/**
 * The web app goes out compressed: each asset as the build's .br or .gz by the browser's
 * Accept-Encoding (br first, then gzip, else plain), index.html compressed with its settings
 * injected; every encoding decodes to the same bytes, with the original type and caching headers.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import Fastify, { type FastifyInstance, type LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pickEncoding, registerWebApp, webApp } from '../src/http/web.ts';

const decode = (response: LightMyRequestResponse): Buffer => {
  const body = response.rawPayload;
  const encoding = response.headers['content-encoding'];
  if (encoding === 'br') return brotliDecompressSync(body);
  if (encoding === 'gzip') return gunzipSync(body);
  expect(encoding).toBeUndefined();
  return body;
};

describe('compressed web app', () => {
  let dist: string;
  let app: FastifyInstance;
  // Big enough to be worth compressing, like every real chunk.
  const script = Buffer.from(`export const words = ${JSON.stringify(Array.from({ length: 400 }, (_, i) => `word ${i}`))};\n`);
  const html = '<!doctype html><html><head><title>Sheaf</title><script type="module" src="/assets/app-1a2b3c.js"></script></head><body><div id="root"></div></body></html>';

  beforeAll(async () => {
    dist = await mkdtemp(path.join(tmpdir(), 'sheaf-web-compression-'));
    await mkdir(path.join(dist, 'assets'));
    await writeFile(path.join(dist, 'index.html'), html);
    await writeFile(path.join(dist, 'assets/app-1a2b3c.js'), script);
    await writeFile(path.join(dist, 'assets/app-1a2b3c.js.br'), brotliCompressSync(script));
    await writeFile(path.join(dist, 'assets/app-1a2b3c.js.gz'), gzipSync(script));
    // Small files get no compressed copies: they go out as they are.
    await writeFile(path.join(dist, 'assets/tiny-9z8y.js'), 'console.log(1)');
    const config = { WEB_DIST: dist, API_HOSTS: [], EDITION: 'web' as const };
    const web = webApp(config);
    app = Fastify();
    await registerWebApp(app, web, config);
    app.setNotFoundHandler((_request, reply) => web.sendIndex(reply));
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
    await rm(dist, { recursive: true, force: true });
  });

  const get = (url: string, acceptEncoding?: string) =>
    app.inject({ method: 'GET', url, headers: acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding } });

  it('answers an asset with brotli, gzip or plain bytes by Accept-Encoding, all decoding to the file', async () => {
    const cases: [string | undefined, string | undefined][] = [
      ['gzip, deflate, br, zstd', 'br'],
      ['gzip, deflate', 'gzip'],
      ['br;q=0, gzip', 'gzip'],
      ['identity', undefined],
      [undefined, undefined],
    ];
    for (const [accept, expected] of cases) {
      const response = await get('/assets/app-1a2b3c.js', accept);
      expect(response.statusCode, String(accept)).toBe(200);
      expect(response.headers['content-encoding'], String(accept)).toBe(expected);
      expect(response.headers['content-type']).toMatch(/^(text|application)\/javascript/);
      expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(response.headers.vary).toContain('Accept-Encoding');
      expect(decode(response).equals(script), String(accept)).toBe(true);
    }
    // The compressed answer is what the browser actually transfers.
    expect((await get('/assets/app-1a2b3c.js', 'br')).rawPayload.length).toBeLessThan(script.length / 3);
  });

  it('sends a file without compressed copies as it is', async () => {
    const response = await get('/assets/tiny-9z8y.js', 'br, gzip');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBeUndefined();
    expect(response.body).toBe('console.log(1)');
  });

  it('compresses index.html with the injected settings, for every page address', async () => {
    const plain = await get('/login', '');
    const text = plain.body;
    expect(text).toContain('window.SHEAF_CONFIG=');
    for (const [url, accept, expected] of [
      ['/login', 'br, gzip', 'br'],
      ['/', 'gzip', 'gzip'],
      ['/templates/abc', 'gzip;q=0.5, br;q=0', 'gzip'],
      ['/index.html', 'deflate', undefined],
    ] as const) {
      const response = await get(url, accept);
      expect(response.statusCode, url).toBe(200);
      expect(response.headers['content-encoding'], `${url} ${accept}`).toBe(expected);
      expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(response.headers['cache-control']).toBe('no-cache');
      expect(response.headers.vary).toContain('Accept-Encoding');
      expect(decode(response).toString('utf8'), url).toBe(text);
    }
  });
});

describe('pickEncoding', () => {
  it('prefers br, then gzip, honours q=0 and the wildcard', () => {
    expect(pickEncoding('gzip, br')).toBe('br');
    expect(pickEncoding('gzip')).toBe('gzip');
    expect(pickEncoding('*')).toBe('br');
    expect(pickEncoding('*, br;q=0')).toBe('gzip');
    expect(pickEncoding('br;q=0, gzip;q=0')).toBe('identity');
    expect(pickEncoding(undefined)).toBe('identity');
    expect(pickEncoding(['gzip', 'br;q=0.1'])).toBe('br');
  });
});
