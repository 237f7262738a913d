/** Security headers on every response, and the Content-Security-Policy of the web app. */
import type { FastifyInstance } from 'fastify';

/** Stripe's own Stripe.js origin; with it come the hosts Stripe documents for Stripe.js and embedded Checkout. */
const STRIPE_JS_ORIGIN = 'https://js.stripe.com';

/**
 * What the browser needs for the offline licence's embedded checkout (docs/billing.md#content-security-policy):
 * the script from STRIPE_JS_URL's origin, its frames, and what it calls. Stripe's own Stripe.js calls
 * api.stripe.com and frames js.stripe.com, checkout.stripe.com and hooks.stripe.com (3-D Secure);
 * another STRIPE_JS_URL (a stand-in in tests) gets its own origin for all three, and STRIPE_API_URL's
 * origin for the calls its script makes to the API it stands in for. The server's own calls to
 * STRIPE_API_URL need nothing here.
 */
export function stripeSources(stripe: { jsUrl: string; apiUrl: string }): { script: string[]; frame: string[]; connect: string[] } {
  const js = new URL(stripe.jsUrl).origin;
  if (js === STRIPE_JS_ORIGIN) {
    return {
      script: [js, 'https://*.js.stripe.com'],
      frame: [js, 'https://*.js.stripe.com', 'https://checkout.stripe.com', 'https://hooks.stripe.com'],
      connect: ['https://api.stripe.com', 'https://checkout.stripe.com'],
    };
  }
  const api = new URL(stripe.apiUrl).origin;
  return { script: [js], frame: [js], connect: [...new Set([js, api])] };
}

export function contentSecurityPolicy(options: {
  scriptHashes: string[];
  apiHosts: readonly string[];
  stripe?: { jsUrl: string; apiUrl: string };
  /** Origins the browser sends error reports to (SENTRY_DSN_WEB's; docs/support.md#error-reports). */
  reportOrigins?: readonly string[];
}): string {
  const apiOrigins = options.apiHosts.map((host) => new URL(host).origin);
  const stripe = options.stripe ? stripeSources(options.stripe) : { script: [], frame: [], connect: [] };
  const directives: Record<string, string[]> = {
    'default-src': ["'self'"],
    'script-src': ["'self'", ...options.scriptHashes.map((hash) => `'${hash}'`), ...stripe.script],
    // Emotion (MUI) injects <style> elements at run time.
    'style-src': ["'self'", "'unsafe-inline'"],
    'img-src': ["'self'", 'blob:', 'data:'],
    'font-src': ["'self'", 'data:'],
    // pdf.js runs its worker from a blob: URL and reads documents and fonts from blob:/data: URLs.
    'worker-src': ["'self'", 'blob:'],
    'connect-src': ["'self'", 'blob:', 'data:', ...apiOrigins, ...stripe.connect, ...(options.reportOrigins ?? [])],
    // Stripe's embedded checkout is an iframe (docs/billing.md#content-security-policy).
    'frame-src': ["'self'", ...stripe.frame],
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
