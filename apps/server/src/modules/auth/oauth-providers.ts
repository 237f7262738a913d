/**
 * The OpenID providers Sheaf signs people in with (docs/accounts.md#social-sign-in), through openid-client:
 * authorization code flow with PKCE (S256), state and nonce. Each provider is discovered on first use (its
 * /.well-known/openid-configuration), never at boot, and discovered again after a failure. Its ID token is
 * checked by openid-client: signature against the provider's JWKS (non-repudiation checks on, so a token
 * is not trusted for arriving over TLS alone), issuer, audience (our client id), nonce, expiry and
 * issued-at. Microsoft's multi-tenant issuer (https://login.microsoftonline.com/{tenantid}/v2.0 in its
 * metadata) is compared with the token's tenant (`tid`) filled in; openid-client does that for
 * login.microsoftonline.com.
 *
 * Apple: the client secret is an ES256 JWT signed with the team's key (iss team id, sub client id, aud
 * the issuer, kid the key id), made here and renewed before it expires; its answer is a form POST
 * (response_mode=form_post, which Apple requires when asking for the email).
 */
import * as client from 'openid-client';
import { SignJWT } from 'jose';
import { OAUTH_PROVIDER_NAMES, SheafError, cleanWhitespace, isValidEmail, type OAuthProvider } from '@sheaf/shared';
import type { Config } from '../../config.ts';
import { applePrivateKey, configuredOAuthProviders } from '../../config-oauth.ts';

/** How long discovery, the JWKS and the token request may take. */
const PROVIDER_TIMEOUT_S = 10;
/** Apple's client secret lives this long (Apple allows up to six months); a new one is made before. */
const APPLE_SECRET_TTL_S = 60 * 60;
/** Microsoft's tenant of personal accounts: their addresses are the Microsoft account's own, verified by Microsoft. */
export const MICROSOFT_CONSUMER_TENANT = '9188040d-6c67-4c5b-b112-36a304b66dad';

/** What a provider vouches for, once its ID token passed every check. */
export interface VerifiedIdentity {
  provider: OAuthProvider;
  /** The provider's stable id of the person (sub). */
  subject: string;
  /** Lower case; null when the provider gave none or an invalid one. */
  email: string | null;
  /** Only a verified address may create or find an account. */
  emailVerified: boolean;
  firstName: string;
  lastName: string;
}

export interface AuthorizationRequest {
  redirectUri: string;
  state: string;
  nonce: string;
  codeChallenge: string;
}

export interface CallbackChecks {
  codeVerifier: string;
  state: string;
  nonce: string;
}

type Claims = Record<string, unknown>;

/** One provider: its settings, its discovered configuration (lazily), its client authentication. */
export class OAuthClient {
  readonly name: string;
  private discovered: Promise<client.Configuration> | undefined;
  private appleSecret: { value: string; renewAtS: number } | undefined;

  constructor(
    readonly id: OAuthProvider,
    private readonly settings: { issuer: string; clientId: string; clientSecret?: string; apple?: { teamId: string; keyId: string; privateKey: string } },
    private readonly fetchImpl: client.CustomFetch | undefined,
  ) {
    this.name = OAUTH_PROVIDER_NAMES[id];
  }

  /** Apple asks for its answer as a form POST (response_mode=form_post). */
  get formPost(): boolean {
    return this.id === 'apple';
  }

  /** The provider's authorization URL for this sign-in (discovers the provider the first time). */
  async authorizationUrl(request: AuthorizationRequest): Promise<URL> {
    const config = await this.configuration();
    return client.buildAuthorizationUrl(config, {
      redirect_uri: request.redirectUri,
      scope: this.id === 'apple' ? 'openid email name' : 'openid email profile',
      state: request.state,
      nonce: request.nonce,
      code_challenge: request.codeChallenge,
      code_challenge_method: 'S256',
      ...(this.formPost ? { response_mode: 'form_post' } : {}),
    });
  }

  /**
   * Exchanges the callback's code (with the PKCE verifier) and checks the ID token. `callbackUrl` is the
   * redirect URI with the provider's answer as its query. Throws SheafError: oauth/token-invalid (any
   * check failed), oauth/provider-error (the provider refused), oauth/provider-unavailable.
   */
  async exchange(callbackUrl: URL, checks: CallbackChecks): Promise<{ claims: Claims }> {
    const config = await this.configuration();
    if (this.id === 'apple') await this.renewAppleSecret();
    try {
      const tokens = await client.authorizationCodeGrant(config, callbackUrl, {
        pkceCodeVerifier: checks.codeVerifier,
        expectedState: checks.state,
        expectedNonce: checks.nonce,
        idTokenExpected: true,
      });
      const claims = tokens.claims();
      if (!claims) throw new SheafError('oauth/token-invalid', { provider: this.name });
      return { claims: claims as Claims };
    } catch (error) {
      throw this.mapError(error);
    }
  }

  private configuration(): Promise<client.Configuration> {
    this.discovered ??= this.discover().catch((error: unknown) => {
      this.discovered = undefined; // the next sign-in tries again
      throw this.mapError(error);
    });
    return this.discovered;
  }

  private async discover(): Promise<client.Configuration> {
    const issuer = new URL(this.settings.issuer);
    const execute = [client.enableNonRepudiationChecks];
    // config-oauth.ts allows http:// only on the loopback interface (a local identity provider).
    if (issuer.protocol === 'http:') execute.push(client.allowInsecureRequests);
    const auth = this.settings.apple
      ? this.appleClientAuth()
      : client.ClientSecretPost(this.settings.clientSecret);
    const config = await client.discovery(issuer, this.settings.clientId, undefined, auth, {
      execute,
      timeout: PROVIDER_TIMEOUT_S,
      ...(this.fetchImpl ? { [client.customFetch]: this.fetchImpl } : {}),
    });
    config.timeout = PROVIDER_TIMEOUT_S;
    return config;
  }

  /** client_secret_post with the current Apple client secret (renewed before each token request). */
  private appleClientAuth(): client.ClientAuth {
    return (_as, metadata, body) => {
      if (!this.appleSecret) throw new Error('the Apple client secret was not made');
      body.set('client_id', metadata.client_id);
      body.set('client_secret', this.appleSecret.value);
    };
  }

  private async renewAppleSecret(): Promise<void> {
    const nowS = Math.floor(Date.now() / 1000);
    if (this.appleSecret && this.appleSecret.renewAtS > nowS) return;
    const apple = this.settings.apple!;
    const value = await appleClientSecret({ teamId: apple.teamId, keyId: apple.keyId, privateKey: apple.privateKey, clientId: this.settings.clientId, audience: this.settings.issuer }, nowS);
    this.appleSecret = { value, renewAtS: nowS + APPLE_SECRET_TTL_S - 300 };
  }

  /** openid-client's failures as catalogue errors (the reason is logged by the caller, never the tokens). */
  private mapError(error: unknown): SheafError {
    if (error instanceof SheafError) return error;
    const provider = this.name;
    if (error instanceof client.ResponseBodyError || error instanceof client.AuthorizationResponseError) {
      return new SheafError('oauth/provider-error', { provider, detail: safeDetail(error.error) }, { cause: error });
    }
    const code = error instanceof client.ClientError ? error.code : undefined;
    const unreachable =
      (error instanceof TypeError && (error as { code?: unknown }).code === undefined) ||
      code === 'OAUTH_TIMEOUT' || code === 'OAUTH_ABORT' || code === 'OAUTH_RESPONSE_IS_NOT_CONFORM' || code === 'OAUTH_RESPONSE_IS_NOT_JSON';
    if (unreachable) return new SheafError('oauth/provider-unavailable', { provider }, { cause: error });
    if (error instanceof client.ClientError) return new SheafError('oauth/token-invalid', { provider }, { cause: error });
    if (error instanceof Error) throw error; // our bug: a 500, logged
    return new SheafError('oauth/token-invalid', { provider }, { cause: error });
  }
}

/** A provider's error code as the message may show it: letters, digits and _ only (it comes from a URL). */
export function safeDetail(value: unknown): string {
  return typeof value === 'string' && /^[A-Za-z0-9_.-]{1,60}$/.test(value) ? value : 'error';
}

/**
 * Apple's client secret: an ES256 JWT signed with the team's private key (Apple's "Creating a client
 * secret": header alg ES256 and kid; iss the team id, iat, exp, aud https://appleid.apple.com, sub the
 * client id). `audience` is the configured issuer (Apple's own unless APPLE_ISSUER points elsewhere).
 */
export async function appleClientSecret(
  apple: { teamId: string; keyId: string; privateKey: string; clientId: string; audience: string },
  nowS = Math.floor(Date.now() / 1000),
): Promise<string> {
  return new SignJWT({})
    .setProtectedHeader({ alg: 'ES256', kid: apple.keyId })
    .setIssuer(apple.teamId)
    .setSubject(apple.clientId)
    .setAudience(apple.audience.replace(/\/+$/, ''))
    .setIssuedAt(nowS)
    .setExpirationTime(nowS + APPLE_SECRET_TTL_S)
    .sign(applePrivateKey(apple.privateKey));
}

/** True, "true" (Apple writes its booleans as strings at times). */
const isTrue = (value: unknown) => value === true || value === 'true';
const text = (value: unknown, max = 100) => (typeof value === 'string' ? cleanWhitespace(value).slice(0, max) : '');

/**
 * What the checked ID token says about the person. An address counts as verified only when the provider
 * says so: `email_verified` (Google, Apple); for Microsoft, which does not send it, the `xms_edov` claim
 * (the address's domain is verified by its tenant) or a personal account's address (its tenant is
 * Microsoft's consumer tenant). Apple sends the name only the first time, outside the ID token (`user`).
 */
export function identityFrom(provider: OAuthProvider, claims: Claims, appleUser?: string): VerifiedIdentity {
  const subject = typeof claims['sub'] === 'string' ? claims['sub'] : '';
  const rawEmail = typeof claims['email'] === 'string' ? cleanWhitespace(claims['email']).toLowerCase() : '';
  const email = rawEmail && isValidEmail(rawEmail) ? rawEmail : null;
  let emailVerified = isTrue(claims['email_verified']);
  if (provider === 'microsoft' && claims['email_verified'] === undefined) {
    emailVerified = isTrue(claims['xms_edov']) || claims['tid'] === MICROSOFT_CONSUMER_TENANT;
  }
  let firstName = text(claims['given_name']);
  let lastName = text(claims['family_name']);
  if (!firstName && !lastName && typeof claims['name'] === 'string') {
    const parts = text(claims['name'], 200).split(' ');
    firstName = parts.shift()!.slice(0, 100);
    lastName = parts.join(' ').slice(0, 100);
  }
  if (provider === 'apple' && appleUser && !firstName && !lastName) {
    try {
      const name = (JSON.parse(appleUser) as { name?: { firstName?: unknown; lastName?: unknown } }).name;
      firstName = text(name?.firstName);
      lastName = text(name?.lastName);
    } catch {
      // not JSON: no name
    }
  }
  return { provider, subject, email, emailVerified: Boolean(email) && emailVerified, firstName, lastName };
}

/** The configured providers of a server (one per Config, so discovery happens once per process). */
export class OAuthProviders {
  private readonly clients = new Map<OAuthProvider, OAuthClient>();

  constructor(config: Config, options: { fetch?: client.CustomFetch } = {}) {
    for (const id of configuredOAuthProviders(config)) {
      const settings =
        id === 'google'
          ? { issuer: config.GOOGLE_ISSUER, clientId: config.GOOGLE_CLIENT_ID!, clientSecret: config.GOOGLE_CLIENT_SECRET! }
          : id === 'microsoft'
            ? { issuer: config.MICROSOFT_ISSUER, clientId: config.MICROSOFT_CLIENT_ID!, clientSecret: config.MICROSOFT_CLIENT_SECRET! }
            : { issuer: config.APPLE_ISSUER, clientId: config.APPLE_CLIENT_ID!, apple: { teamId: config.APPLE_TEAM_ID!, keyId: config.APPLE_KEY_ID!, privateKey: config.APPLE_PRIVATE_KEY! } };
      this.clients.set(id, new OAuthClient(id, settings, options.fetch));
    }
  }

  get configured(): OAuthProvider[] {
    return [...this.clients.keys()];
  }

  get(id: string): OAuthClient | undefined {
    return this.clients.get(id as OAuthProvider);
  }
}

const registries = new WeakMap<Config, OAuthProviders>();

/** The providers of this configuration, made on first use. */
export function oauthProvidersOf(config: Config): OAuthProviders {
  let providers = registries.get(config);
  if (!providers) {
    providers = new OAuthProviders(config);
    registries.set(config, providers);
  }
  return providers;
}
