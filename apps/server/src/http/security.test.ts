/**
 * The Content-Security-Policy lets the offline licence's embedded checkout run (docs/billing.md#content-security-policy):
 * Stripe.js from STRIPE_JS_URL, its frames and its calls, and nothing else from elsewhere.
 */
import { describe, expect, it } from 'vitest';
import { contentSecurityPolicy, stripeSources } from './security.ts';

const directives = (csp: string) => Object.fromEntries(csp.split('; ').map((part) => {
  const [name, ...values] = part.split(' ');
  return [name!, values];
}));

describe('Content-Security-Policy for Stripe', () => {
  it('allows Stripe\'s own Stripe.js, its frames (embedded Checkout, 3-D Secure) and its API', () => {
    const csp = directives(contentSecurityPolicy({
      scriptHashes: ['sha256-abc'],
      apiHosts: ['https://api.sheaf.example'],
      stripe: { jsUrl: 'https://js.stripe.com/v3/', apiUrl: 'https://api.stripe.com' },
    }));
    expect(csp['script-src']).toEqual(["'self'", "'sha256-abc'", 'https://js.stripe.com', 'https://*.js.stripe.com']);
    expect(csp['frame-src']).toEqual(["'self'", 'https://js.stripe.com', 'https://*.js.stripe.com', 'https://checkout.stripe.com', 'https://hooks.stripe.com']);
    expect(csp['connect-src']).toEqual(["'self'", 'blob:', 'data:', 'https://api.sheaf.example', 'https://api.stripe.com', 'https://checkout.stripe.com']);
    expect(csp['frame-ancestors']).toEqual(["'none'"]);
    expect(csp['form-action']).toEqual(["'self'"]);
  });

  it('allows a stand-in\'s origin (tests, local development) for the script, frames and calls, and its API origin for calls', () => {
    expect(stripeSources({ jsUrl: 'http://127.0.0.1:4242/v3/', apiUrl: 'http://127.0.0.1:4242' })).toEqual({
      script: ['http://127.0.0.1:4242'], frame: ['http://127.0.0.1:4242'], connect: ['http://127.0.0.1:4242'],
    });
    expect(stripeSources({ jsUrl: 'http://localhost:9000/js', apiUrl: 'http://localhost:9001/' }).connect).toEqual(['http://localhost:9000', 'http://localhost:9001']);
  });

  it('keeps the policy as it was without Stripe settings', () => {
    const csp = directives(contentSecurityPolicy({ scriptHashes: [], apiHosts: [] }));
    expect(csp['script-src']).toEqual(["'self'"]);
    expect(csp['frame-src']).toEqual(["'self'"]);
  });
});
