/**
 * The provider-specific parts of social sign-in that the local oidc-provider cannot show
 * (test/oauth.test.ts runs the flow itself): Apple's client secret as Apple specifies it, Microsoft's
 * multi-tenant issuer, which addresses count as verified, and the settings.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { generateKeyPairSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeProtectedHeader, exportJWK, generateKeyPair, jwtVerify, SignJWT, type JWK } from 'jose';
import { SheafError } from '@sheaf/shared';
import { ConfigError, loadConfig } from '../../config.ts';
import { configuredOAuthProviders } from '../../config-oauth.ts';
import { appleClientSecret, identityFrom, MICROSOFT_CONSUMER_TENANT, OAuthProviders } from './oauth-providers.ts';

const SECRET_KEY = 'x'.repeat(40);
const settings = (env: Record<string, string>) => loadConfig({}, { DATA_DIR: '/tmp/sheaf-oauth-unit', SECRET_KEY, ...env });

describe('Apple client secret', () => {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  const pem = privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();

  it('is an ES256 JWT signed with the team key: kid, iss = team, sub = client id, aud = Apple, an hour long', async () => {
    const now = Math.floor(Date.now() / 1000);
    const secret = await appleClientSecret({ teamId: 'TEAMID1234', keyId: 'KEYID12345', privateKey: pem, clientId: 'com.example.sheaf', audience: 'https://appleid.apple.com/' }, now);
    expect(decodeProtectedHeader(secret)).toEqual({ alg: 'ES256', kid: 'KEYID12345' });
    const { payload } = await jwtVerify(secret, publicKey, { algorithms: ['ES256'], issuer: 'TEAMID1234', subject: 'com.example.sheaf', audience: 'https://appleid.apple.com' });
    expect(payload.iat).toBe(now);
    expect(payload.exp! - payload.iat!).toBe(3600);
    // Apple refuses secrets that live longer than six months.
    expect(payload.exp! - payload.iat!).toBeLessThanOrEqual(15_777_000);
  });

  it('takes the key as Apple gives it, as PEM written on one line with \\n, or as base64 DER', async () => {
    const der = privateKey.export({ format: 'der', type: 'pkcs8' }).toString('base64');
    for (const written of [pem.replace(/\n/g, '\\n'), der]) {
      const secret = await appleClientSecret({ teamId: 'T', keyId: 'K', privateKey: written, clientId: 'c', audience: 'https://appleid.apple.com' });
      await expect(jwtVerify(secret, publicKey)).resolves.toBeDefined();
    }
  });
});

describe('settings', () => {
  it('a provider is offered only with all its settings; some but not all is a configuration error', () => {
    expect(configuredOAuthProviders(settings({}))).toEqual([]);
    expect(configuredOAuthProviders(settings({ GOOGLE_CLIENT_ID: 'id', GOOGLE_CLIENT_SECRET: 's' }))).toEqual(['google']);
    expect(() => settings({ GOOGLE_CLIENT_ID: 'id' })).toThrow(ConfigError);
    expect(() => settings({ APPLE_CLIENT_ID: 'id', APPLE_TEAM_ID: 't', APPLE_KEY_ID: 'k' })).toThrow(/APPLE_PRIVATE_KEY/);
    expect(() => settings({ APPLE_CLIENT_ID: 'id', APPLE_TEAM_ID: 't', APPLE_KEY_ID: 'k', APPLE_PRIVATE_KEY: 'not a key' })).toThrow(/PKCS#8/);
  });

  it('issuers default to the providers\' own and must be https (http only on loopback)', () => {
    const config = settings({});
    expect([config.GOOGLE_ISSUER, config.APPLE_ISSUER, config.MICROSOFT_ISSUER]).toEqual([
      'https://accounts.google.com', 'https://appleid.apple.com', 'https://login.microsoftonline.com/common/v2.0',
    ]);
    expect(() => settings({ GOOGLE_ISSUER: 'http://accounts.example.com' })).toThrow(/GOOGLE_ISSUER/);
    expect(settings({ GOOGLE_ISSUER: 'http://127.0.0.1:4000' }).GOOGLE_ISSUER).toBe('http://127.0.0.1:4000');
  });
});

describe('verified addresses', () => {
  it('trusts an address only when the provider says it is verified', () => {
    expect(identityFrom('google', { sub: '1', email: 'A@Example.com', email_verified: true })).toMatchObject({ email: 'a@example.com', emailVerified: true });
    expect(identityFrom('google', { sub: '1', email: 'a@example.com', email_verified: false }).emailVerified).toBe(false);
    expect(identityFrom('google', { sub: '1', email: 'a@example.com' }).emailVerified).toBe(false);
    // Apple writes its booleans as strings at times.
    expect(identityFrom('apple', { sub: '1', email: 'x@privaterelay.appleid.com', email_verified: 'true' }).emailVerified).toBe(true);
    expect(identityFrom('apple', { sub: '1', email: 'x@privaterelay.appleid.com', email_verified: 'false' }).emailVerified).toBe(false);
    expect(identityFrom('google', { sub: '1', email: 'not an address', email_verified: true })).toMatchObject({ email: null, emailVerified: false });
  });

  it('Microsoft: a domain its tenant verified (xms_edov) or a personal account; not an unverified work address', () => {
    expect(identityFrom('microsoft', { sub: '1', email: 'a@contoso.com', tid: 'some-tenant', xms_edov: true }).emailVerified).toBe(true);
    expect(identityFrom('microsoft', { sub: '1', email: 'a@outlook.com', tid: MICROSOFT_CONSUMER_TENANT }).emailVerified).toBe(true);
    expect(identityFrom('microsoft', { sub: '1', email: 'ceo@bank.example', tid: 'some-tenant' }).emailVerified).toBe(false);
  });

  it('names from the token, from a full name, or from Apple\'s first answer', () => {
    expect(identityFrom('google', { sub: '1', given_name: 'Ada', family_name: 'Lovelace' })).toMatchObject({ firstName: 'Ada', lastName: 'Lovelace' });
    expect(identityFrom('microsoft', { sub: '1', name: 'Ada King Lovelace' })).toMatchObject({ firstName: 'Ada', lastName: 'King Lovelace' });
    expect(identityFrom('apple', { sub: '1' }, JSON.stringify({ name: { firstName: 'Ada', lastName: 'Lovelace' } }))).toMatchObject({ firstName: 'Ada', lastName: 'Lovelace' });
  });
});

/**
 * Microsoft's multi-tenant endpoint: its metadata names the issuer https://login.microsoftonline.com/{tenantid}/v2.0
 * and each ID token the user's tenant. A stand-in for login.microsoftonline.com (reached through the
 * providers' fetch) answers discovery, JWKS and the token endpoint.
 */
describe('Microsoft multi-tenant issuer', () => {
  let server: Server;
  let base: string;
  let signingKey: Awaited<ReturnType<typeof generateKeyPair>>['privateKey'];
  let jwk: JWK;
  let nextClaims: (claims: Record<string, unknown>) => Record<string, unknown> = (claims) => claims;
  let lastNonce = '';
  const ENTRA = 'https://login.microsoftonline.com';
  const TENANT = '72f988bf-86f1-41af-91ab-2d7cd011db47';

  beforeAll(async () => {
    const pair = await generateKeyPair('RS256', { extractable: true });
    signingKey = pair.privateKey;
    jwk = { ...(await exportJWK(pair.publicKey)), kid: 'entra-1', alg: 'RS256', use: 'sig' };
    server = createServer((request, response) => {
      const url = new URL(request.url!, 'http://local');
      const json = (body: unknown) => {
        response.setHeader('content-type', 'application/json');
        response.end(JSON.stringify(body));
      };
      if (url.pathname === '/common/v2.0/.well-known/openid-configuration') {
        return json({
          issuer: `${ENTRA}/{tenantid}/v2.0`,
          authorization_endpoint: `${ENTRA}/common/oauth2/v2.0/authorize`,
          token_endpoint: `${ENTRA}/common/oauth2/v2.0/token`,
          jwks_uri: `${ENTRA}/common/discovery/v2.0/keys`,
          response_types_supported: ['code'],
          id_token_signing_alg_values_supported: ['RS256'],
        });
      }
      if (url.pathname === '/common/discovery/v2.0/keys') return json({ keys: [jwk] });
      if (url.pathname === '/common/oauth2/v2.0/token') {
        void (async () => {
          const now = Math.floor(Date.now() / 1000);
          const claims = nextClaims({ iss: `${ENTRA}/${TENANT}/v2.0`, tid: TENANT, sub: 'entra-subject', aud: 'sheaf-entra', iat: now, exp: now + 3600, nonce: lastNonce, email: 'a@contoso.com', xms_edov: true });
          const idToken = await new SignJWT(claims).setProtectedHeader({ alg: 'RS256', kid: 'entra-1' }).sign(signingKey);
          json({ access_token: 'at', token_type: 'Bearer', expires_in: 3600, id_token: idToken });
        })();
        return;
      }
      response.statusCode = 404;
      response.end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  async function signIn(): Promise<Record<string, unknown>> {
    const config = settings({ MICROSOFT_CLIENT_ID: 'sheaf-entra', MICROSOFT_CLIENT_SECRET: 'secret' });
    const providers = new OAuthProviders(config, { fetch: (url, options) => fetch(url.replace(ENTRA, base), options as RequestInit) });
    const microsoft = providers.get('microsoft')!;
    const nonce = 'n'.repeat(43);
    lastNonce = nonce;
    const authorize = await microsoft.authorizationUrl({ redirectUri: 'http://localhost/cb', state: 's', nonce, codeChallenge: 'c'.repeat(43) });
    expect(authorize.origin).toBe(ENTRA);
    const callback = new URL('http://localhost/cb?code=the-code&state=s');
    const { claims } = await microsoft.exchange(callback, { codeVerifier: 'v'.repeat(43), state: 's', nonce });
    return claims;
  }

  it('accepts a token whose issuer names its own tenant', async () => {
    nextClaims = (claims) => claims;
    const claims = await signIn();
    expect(claims).toMatchObject({ iss: `${ENTRA}/${TENANT}/v2.0`, tid: TENANT, sub: 'entra-subject' });
  });

  it('refuses a token whose issuer names another tenant than its tid', async () => {
    nextClaims = (claims) => ({ ...claims, iss: `${ENTRA}/00000000-0000-0000-0000-000000000000/v2.0` });
    await expect(signIn()).rejects.toMatchObject({ code: 'oauth/token-invalid' });
    await expect(signIn()).rejects.toBeInstanceOf(SheafError);
  });
});
