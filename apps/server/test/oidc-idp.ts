/**
 * A real OpenID provider for the sign-in tests (oidc-provider from npm, in process, on a port of its own),
 * standing in for Google, Microsoft and Apple: one client per provider name, its development login page
 * (any login name signs in as that account, whose claims the test sets), PKCE required, and its own RSA
 * signing key, which the test holds so it can also make tokens the provider did not issue.
 *
 * - `tamper`: rewrites the ID token of the next token responses (wrong audience, issuer or nonce, expired,
 *   signed with another key) on its way to Sheaf, as an attacker in the middle or a lying provider would.
 * - Apple's client authentication (a client_secret that is an ES256 JWT signed with the team's key) is
 *   not one oidc-provider knows: in front of its token endpoint, a check verifies that JWT as Apple does
 *   (signature with the team's public key, kid, iss = team id, sub = client id, aud = the issuer, not
 *   expired) and hands oidc-provider the client's registered secret only when it passes.
 * - `browse`: a browser without a screen (cookies per host, redirects followed by hand) that goes from
 *   Sheaf's start URL through the login page back to Sheaf's callback and stops at the web app's
 *   /oauth/callback page, whose fragment holds the outcome.
 */
import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { exportJWK, generateKeyPair, importJWK, jwtVerify, decodeJwt, SignJWT, type JWK, type JWTPayload } from 'jose';
// @ts-expect-error oidc-provider ships no type declarations
import Provider from 'oidc-provider';
import { freePort } from './free-port.ts';

export interface IdpAccount {
  email?: string;
  email_verified?: boolean | string;
  given_name?: string;
  family_name?: string;
  name?: string;
  tid?: string;
}

export interface IdpClient {
  client_id: string;
  client_secret: string;
  /** Sheaf's provider name: the redirect URI is <sheaf>/v1/auth/oauth/<provider>/callback. */
  provider: 'google' | 'microsoft' | 'apple';
}

export interface AppleTeam {
  clientId: string;
  teamId: string;
  keyId: string;
  /** PKCS#8 PEM, as APPLE_PRIVATE_KEY takes it. */
  privateKeyPem: string;
  publicKey: KeyObject;
}

export interface TestIdp {
  readonly issuer: string;
  /** Claims by login name; a login name not listed is `<name>@example.com`, verified. */
  readonly accounts: Map<string, IdpAccount>;
  /** Set: every ID token the token endpoint answers passes through it. */
  tamper: ((idToken: string) => Promise<string>) | undefined;
  /** Client secrets Apple's token endpoint check refused (the last reason). */
  readonly appleRefusals: string[];
  /** Signs `claims` with the provider's own key (a token it could have issued). */
  sign(claims: JWTPayload): Promise<string>;
  /** Signs `claims` with a key that is not the provider's, under the provider's key id. */
  forge(claims: JWTPayload): Promise<string>;
  close(): Promise<void>;
}

/** A port for the provider, known before Sheaf starts (Sheaf's *_ISSUER), the provider started later (it needs Sheaf's address). */
export async function reserveIssuer(): Promise<{ port: number; issuer: string }> {
  const port = await freePort();
  return { port, issuer: `http://127.0.0.1:${port}` };
}

/** An Apple team key (ES256) as Apple gives it (.p8, PKCS#8 PEM). */
export function appleTeam(clientId = 'apple-services-id'): AppleTeam {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  return { clientId, teamId: 'TEAM123456', keyId: 'KEY1234567', privateKeyPem: privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(), publicKey };
}

export async function startTestIdp(options: {
  port: number;
  /** Sheaf's PUBLIC_URL. */
  sheafUrl: string;
  clients: IdpClient[];
  apple?: AppleTeam;
}): Promise<TestIdp> {
  const issuer = `http://127.0.0.1:${options.port}`;
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const jwk = { ...(await exportJWK(privateKey)), kid: 'idp-key-1', alg: 'RS256', use: 'sig' } as JWK;
  const signingKey = await importJWK(jwk, 'RS256');
  const { privateKey: strangerKey } = await generateKeyPair('RS256');
  const accounts = new Map<string, IdpAccount>();
  const appleRefusals: string[] = [];

  const claimsOf = (id: string): IdpAccount => accounts.get(id) ?? { email: `${id}@example.com`, email_verified: true, given_name: id, family_name: 'Tester' };

  const provider = new Provider(issuer, {
    clients: options.clients.map((client) => ({
      client_id: client.client_id,
      client_secret: client.client_secret,
      redirect_uris: [`${options.sheafUrl}/v1/auth/oauth/${client.provider}/callback`],
      response_types: ['code'],
      grant_types: ['authorization_code'],
      token_endpoint_auth_method: 'client_secret_post',
    })),
    jwks: { keys: [jwk] },
    cookies: { keys: ['sheaf-test-idp-cookie-key'] },
    pkce: { required: () => true },
    // The claims in the ID token itself, as Google's, Apple's and Microsoft's ID tokens carry them.
    conformIdTokenClaims: false,
    claims: {
      openid: ['sub'],
      email: ['email', 'email_verified'],
      profile: ['given_name', 'family_name', 'name', 'tid'],
      name: ['given_name', 'family_name'],
    },
    scopes: ['openid', 'email', 'profile', 'name'],
    features: { devInteractions: { enabled: true } },
    findAccount: (_ctx: unknown, id: string) => ({
      accountId: id,
      claims: async () => ({ sub: id, ...claimsOf(id) }),
    }),
    // The person agreed before: no consent page, the login page only.
    loadExistingGrant: async (ctx: { oidc: { provider: { Grant: new (init: object) => Grant }; client: { clientId: string }; session: { accountId: string } } }) => {
      const grant = new ctx.oidc.provider.Grant({ clientId: ctx.oidc.client.clientId, accountId: ctx.oidc.session.accountId });
      grant.addOIDCScope('openid email profile name');
      await grant.save();
      return grant;
    },
  });
  provider.proxy = false;

  const idp: TestIdp = {
    issuer,
    accounts,
    tamper: undefined,
    appleRefusals,
    sign: (claims) => new SignJWT(claims).setProtectedHeader({ alg: 'RS256', kid: jwk.kid! }).sign(signingKey),
    forge: (claims) => new SignJWT(claims).setProtectedHeader({ alg: 'RS256', kid: jwk.kid! }).sign(strangerKey),
    close: async () => undefined,
  };

  provider.use(async (ctx: { path: string; method: string; body: unknown }, next: () => Promise<void>) => {
    await next();
    const body = ctx.body as { id_token?: string } | undefined;
    if (ctx.path === '/token' && ctx.method === 'POST' && idp.tamper && body?.id_token) {
      ctx.body = { ...body, id_token: await idp.tamper(body.id_token) };
    }
  });

  const handle = provider.callback();
  const server: Server = createServer((request, response) => {
    void (async () => {
      if (options.apple && request.method === 'POST' && request.url === '/token') {
        const params = new URLSearchParams(await readBody(request));
        if (params.get('client_id') === options.apple.clientId) {
          const reason = await appleSecretProblem(params.get('client_secret') ?? '', options.apple, issuer);
          if (reason) appleRefusals.push(reason);
          const registered = options.clients.find((client) => client.client_id === options.apple!.clientId)!.client_secret;
          params.set('client_secret', reason ? 'refused' : registered);
        }
        // oidc-provider reads a body that was read before from request.body.
        (request as IncomingMessage & { body?: string }).body = params.toString();
      }
      handle(request, response);
    })().catch((error: unknown) => {
      response.statusCode = 500;
      response.end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(options.port, '127.0.0.1', resolve));
  idp.close = () => new Promise<void>((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });
  return idp;
}

interface Grant {
  addOIDCScope(scope: string): void;
  save(): Promise<string>;
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** Why Apple would refuse this client secret, or null (Apple's "Creating a client secret"). */
export async function appleSecretProblem(secret: string, apple: AppleTeam, audience: string): Promise<string | null> {
  try {
    const { protectedHeader } = await jwtVerify(secret, apple.publicKey, {
      algorithms: ['ES256'],
      issuer: apple.teamId,
      subject: apple.clientId,
      audience,
      requiredClaims: ['iat', 'exp'],
    });
    if (protectedHeader.kid !== apple.keyId) return `kid ${String(protectedHeader.kid)}`;
    return null;
  } catch (error) {
    return (error as Error).message;
  }
}

/** The claims of a JWT (no check). */
export const claimsOf = (token: string): JWTPayload => decodeJwt(token);

/** What a sign-in through the provider ended with: the web app's callback page and what was sent to Sheaf's callback. */
export interface BrowseResult {
  /** The web app's page: /oauth/callback?provider&intent[&next]#code=...|error=...|cancelled=1 */
  page: URL;
  outcome: URLSearchParams;
  /** Sheaf's callback URL as the provider sent the browser there (the last one, after Apple's form post). */
  callback: URL | undefined;
}

/**
 * A browser without a screen: cookies per host:port, redirects followed by hand, the provider's login
 * page filled in and submitted, Apple's form post submitted as the page's script would.
 */
export class TestBrowser {
  private readonly jar = new Map<string, Map<string, string>>();

  constructor(private readonly sheafUrl: string) {}

  cookie(host: string, name: string): string | undefined {
    return this.jar.get(host)?.get(name);
  }

  setCookie(host: string, name: string, value: string | undefined): void {
    const cookies = this.jar.get(host) ?? new Map<string, string>();
    if (value === undefined) cookies.delete(name);
    else cookies.set(name, value);
    this.jar.set(host, cookies);
  }

  /** One request with this browser's cookies; no redirect followed. */
  async request(url: URL, init: { method?: string; body?: URLSearchParams } = {}): Promise<Response> {
    const headers: Record<string, string> = {};
    const cookies = this.jar.get(url.host);
    if (cookies?.size) headers['cookie'] = [...cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    if (init.body) headers['content-type'] = 'application/x-www-form-urlencoded';
    const response = await fetch(url, { method: init.method ?? 'GET', headers, body: init.body?.toString(), redirect: 'manual' });
    this.keepCookies(url, response);
    return response;
  }

  /** A JSON POST with this browser's cookies (the web app's fetch of /v1/users/.../oauth). */
  async postJson(url: URL, body: unknown): Promise<{ status: number; json: any }> { // eslint-disable-line @typescript-eslint/no-explicit-any
    const cookies = this.jar.get(url.host);
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (cookies?.size) headers['cookie'] = [...cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    const response = await fetch(url, { method: 'POST', headers, body: JSON.stringify(body), redirect: 'manual' });
    this.keepCookies(url, response);
    const text = await response.text();
    return { status: response.status, json: text ? JSON.parse(text) : undefined };
  }

  private keepCookies(url: URL, response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(';');
      const at = pair!.indexOf('=');
      const name = pair!.slice(0, at).trim();
      const value = pair!.slice(at + 1).trim();
      const expired = attributes.some((attribute) => /^\s*max-age=0\s*$/i.test(attribute) || /^\s*expires=Thu, 01 Jan 1970/i.test(attribute));
      this.setCookie(url.host, name, expired || value === '' ? undefined : value);
    }
  }

  /**
   * From `start` (Sheaf's /v1/auth/oauth/<provider>/start...) to the web app's callback page, signing in
   * at the provider as `login` (or cancelling there). `beforeCallback` may change or record the URL the
   * provider sends the browser to (Sheaf's callback) before it is opened.
   */
  async signIn(start: string, options: { login: string; cancel?: boolean; beforeCallback?: (url: URL) => URL | void }): Promise<BrowseResult> {
    let url = new URL(start, this.sheafUrl);
    let method = 'GET';
    let body: URLSearchParams | undefined;
    let callback: URL | undefined;
    for (let hop = 0; hop < 30; hop++) {
      if (url.origin === new URL(this.sheafUrl).origin && url.pathname === '/oauth/callback') {
        return { page: url, outcome: new URLSearchParams(url.hash.slice(1)), callback };
      }
      if (method === 'GET' && url.origin === new URL(this.sheafUrl).origin && /\/v1\/auth\/oauth\/[^/]+\/callback$/.test(url.pathname)) {
        url = options.beforeCallback?.(url) ?? url;
        callback = url;
      }
      const response = await this.request(url, { method, body });
      method = 'GET';
      body = undefined;
      if (response.status >= 300 && response.status < 400) {
        url = new URL(response.headers.get('location')!, url);
        continue;
      }
      const html = await response.text();
      if (response.status !== 200) throw new Error(`${url.href} answered ${response.status}: ${html.slice(0, 500)}`);
      const form = parseForm(html);
      if (!form) throw new Error(`${url.href}: a page without a form: ${html.slice(0, 500)}`);
      if (form.inputs.has('login') || form.inputs.get('prompt') === 'login') {
        if (options.cancel) {
          const abort = /href="([^"]*\/abort)"/.exec(html)?.[1];
          url = new URL(abort ? decodeEntities(abort) : `${url.pathname}/abort`, url);
          continue;
        }
        form.inputs.set('login', options.login);
        form.inputs.set('password', 'any password');
      }
      url = new URL(form.action, url);
      method = form.method;
      body = new URLSearchParams([...form.inputs]);
    }
    throw new Error('too many redirects');
  }
}

function decodeEntities(text: string): string {
  return text.replace(/&amp;/g, '&').replace(/&quot;/g, '"').replace(/&#x2F;/gi, '/').replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>');
}

/** The first form of a page: action, method and its inputs' values. */
function parseForm(html: string): { action: string; method: string; inputs: Map<string, string> } | undefined {
  const open = /<form\b([^>]*)>/i.exec(html);
  if (!open) return undefined;
  const attribute = (tag: string, name: string) => {
    const match = new RegExp(`\\b${name}\\s*=\\s*("([^"]*)"|'([^']*)')`, 'i').exec(tag);
    return match ? decodeEntities(match[2] ?? match[3] ?? '') : undefined;
  };
  const end = html.indexOf('</form>', open.index);
  const inner = html.slice(open.index, end < 0 ? undefined : end);
  const inputs = new Map<string, string>();
  for (const [tag] of inner.matchAll(/<input\b[^>]*>/gi)) {
    const name = attribute(tag, 'name');
    if (name) inputs.set(name, attribute(tag, 'value') ?? '');
  }
  return { action: attribute(open[1]!, 'action') ?? '', method: (attribute(open[1]!, 'method') ?? 'GET').toUpperCase(), inputs };
}
