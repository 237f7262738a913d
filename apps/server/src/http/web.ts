/**
 * The built web app (WEB_DIST): hashed assets with a long cache, index.html never cached and carrying
 * the client's runtime settings (window.SHEAF_CONFIG), and the SPA fallback that answers every page
 * address (/login, /templates/...) with index.html so the client router takes over. Files go out
 * compressed when the browser accepts it: the build writes .br and .gz next to each asset
 * (apps/web/vite.config.ts); index.html, which gets the settings here, is compressed once per build.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fastifyStatic from '@fastify/static';
import type { Config } from '../config.ts';

/** What the client reads at start-up before any API call. */
export interface ClientRuntimeConfig {
  apiHosts: string[];
  edition: 'web' | 'desktop';
}

const NOT_BUILT_PAGE = `<!doctype html><html><head><meta charset="utf-8"><title>Sheaf</title></head>
<body><h1>Sheaf</h1><p>The web app has not been built yet. Run <code>npm run build</code> (or start with <code>npm start</code>, which builds it), then reload this page.</p>
<p>The API is running: see <a href="/v1/docs">/v1/docs</a>.</p></body></html>`;

/** JSON that is safe inside a <script> element (no "</script>", no HTML comment or line separators). */
export function scriptSafeJson(value: unknown): string {
  return JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

export type ContentEncoding = 'br' | 'gzip' | 'identity';

/** The best encoding an Accept-Encoding header allows: br, then gzip, else none (q=0 refuses one). */
export function pickEncoding(acceptEncoding: string | string[] | undefined): ContentEncoding {
  const header = Array.isArray(acceptEncoding) ? acceptEncoding.join(',') : (acceptEncoding ?? '');
  const weights = new Map<string, number>();
  for (const part of header.toLowerCase().split(',')) {
    const [name, ...params] = part.trim().split(';');
    if (!name) continue;
    const q = params.map((param) => /^\s*q=([\d.]+)\s*$/.exec(param)?.[1]).find((value) => value !== undefined);
    weights.set(name.trim(), q === undefined ? 1 : Number(q));
  }
  const accepts = (name: string) => (weights.get(name) ?? weights.get('*') ?? 0) > 0;
  if (accepts('br')) return 'br';
  if (accepts('gzip')) return 'gzip';
  return 'identity';
}

/** index.html with the settings injected, in each encoding; rebuilt when the file changes. */
interface IndexVariants {
  source: string;
  identity: Buffer;
  br?: Buffer;
  gzip?: Buffer;
}

export interface WebApp {
  /** The inline script's CSP hash ('sha256-...'), allowed by the Content-Security-Policy. */
  scriptHash: string;
  /** Answers a page address with index.html (or the "not built" page). */
  sendIndex(reply: FastifyReply): Promise<FastifyReply>;
}

export function webApp(config: Pick<Config, 'WEB_DIST' | 'API_HOSTS' | 'EDITION'>): WebApp {
  const runtime: ClientRuntimeConfig = { apiHosts: [...config.API_HOSTS], edition: config.EDITION };
  const script = `window.SHEAF_CONFIG=${scriptSafeJson(runtime)}`;
  const scriptHash = `sha256-${createHash('sha256').update(script).digest('base64')}`;
  const indexFile = path.join(config.WEB_DIST, 'index.html');
  let cached: IndexVariants | null = null;
  return {
    scriptHash,
    async sendIndex(reply) {
      reply.header('Cache-Control', 'no-cache');
      reply.header('Vary', 'Accept-Encoding');
      let source: string;
      try {
        // Read per request: a rebuild while the server runs is picked up (the file is small).
        source = await readFile(indexFile, 'utf8');
      } catch {
        return reply.code(200).type('text/html; charset=utf-8').send(NOT_BUILT_PAGE);
      }
      if (cached?.source !== source) {
        const tag = `<script>${script}</script>`;
        const at = source.search(/<\/head>/i);
        const html = at >= 0 ? `${source.slice(0, at)}${tag}${source.slice(at)}` : `${tag}${source}`;
        cached = { source, identity: Buffer.from(html) };
      }
      const variants = cached;
      const encoding = pickEncoding(reply.request.headers['accept-encoding']);
      reply.code(200).type('text/html; charset=utf-8');
      if (encoding === 'identity') return reply.send(variants.identity);
      // Compressed on the first request that asks for it, then reused until the next build.
      const body = (variants[encoding] ??= encoding === 'br' ? brotliCompressSync(variants.identity) : gzipSync(variants.identity));
      return reply.header('Content-Encoding', encoding).send(body);
    },
  };
}

/** Static files of WEB_DIST; index.html only through sendIndex (so it always carries the settings). */
export async function registerWebApp(app: FastifyInstance, web: WebApp, config: Pick<Config, 'WEB_DIST'>): Promise<void> {
  app.get('/', { schema: { hide: true } }, (_request, reply) => web.sendIndex(reply));
  app.get('/index.html', { schema: { hide: true } }, (_request, reply) => web.sendIndex(reply));
  if (!existsSync(config.WEB_DIST)) return;
  await app.register(fastifyStatic, {
    root: config.WEB_DIST,
    prefix: '/',
    index: false,
    cacheControl: false,
    // <file>.br or <file>.gz by Accept-Encoding when the build made them (with the original type).
    preCompressed: true,
    // Unknown files fall through to the not-found handler (SPA fallback or JSON 404).
    setHeaders(res, filePath) {
      const relative = path.relative(config.WEB_DIST, filePath).split(path.sep);
      res.setHeader('Cache-Control', relative[0] === 'assets' ? 'public, max-age=31536000, immutable' : 'no-cache');
      // Caches keep the encodings apart (the same address answers br, gzip or plain).
      res.setHeader('Vary', 'Accept-Encoding');
    },
  });
}

/** True for a browser navigating to a page (GET or HEAD, accepts HTML, outside the API). */
export function isPageRequest(request: FastifyRequest): boolean {
  const pathname = request.url.split('?')[0]!;
  if (pathname === '/v1' || pathname.startsWith('/v1/')) return false;
  // Tracking URLs of emails (modules/email/tracking-routes.ts) are never pages.
  if (pathname.startsWith('/t/')) return false;
  if (request.method !== 'GET' && request.method !== 'HEAD') return false;
  return (request.headers.accept ?? '').includes('text/html');
}
