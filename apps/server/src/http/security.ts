/** Security headers on every response, and the Content-Security-Policy of the web app. */
import type { FastifyInstance } from 'fastify';

export function contentSecurityPolicy(options: { scriptHashes: string[]; apiHosts: readonly string[] }): string {
  const apiOrigins = options.apiHosts.map((host) => new URL(host).origin);
  const directives: Record<string, string[]> = {
    'default-src': ["'self'"],
    'script-src': ["'self'", ...options.scriptHashes.map((hash) => `'${hash}'`)],
    // Emotion (MUI) injects <style> elements at run time.
    'style-src': ["'self'", "'unsafe-inline'"],
    'img-src': ["'self'", 'blob:', 'data:'],
    'font-src': ["'self'", 'data:'],
    // pdf.js runs its worker from a blob: URL and reads documents and fonts from blob:/data: URLs.
    'worker-src': ["'self'", 'blob:'],
    'connect-src': ["'self'", 'blob:', 'data:', ...apiOrigins],
    'object-src': ["'none'"],
    'base-uri': ["'self'"],
    'form-action': ["'self'"],
    'frame-ancestors': ["'none'"],
  };
  return Object.entries(directives).map(([name, values]) => `${name} ${values.join(' ')}`).join('; ');
}

export function installSecurityHeaders(app: FastifyInstance, csp: string): void {
  app.addHook('onRequest', async (request, reply) => {
    reply.header('X-Content-Type-Options', 'nosniff');
    reply.header('Referrer-Policy', 'same-origin');
    reply.header('X-Frame-Options', 'DENY');
    // Swagger UI sets its own policy (it needs its inline bootstrap); everything else gets ours.
    if (!request.url.startsWith('/v1/docs')) reply.header('Content-Security-Policy', csp);
  });
}
