/**
 * Sign-in with Google, Apple and Microsoft over HTTP (docs/accounts.md#social-sign-in).
 *
 * The browser's part is a full-page round trip rather than the spec's popup: the login page links to
 * GET /v1/auth/oauth/:provider/start, which redirects to the provider; the provider sends the browser
 * back to GET (Apple: POST, form_post) /v1/auth/oauth/:provider/callback, which redirects to the web app's
 * /oauth/callback with a one-time code in the URL fragment (never sent to a server, kept out of logs and
 * Referer headers), or with the error code. The web app then exchanges the code with the JSON calls
 * (login/oauth, register/oauth, login/oauth/link), registered here with the route table's handle().
 *
 * The sign-in is bound to the browser that started it by an HttpOnly, SameSite=Lax cookie: the
 * provider's answer is a top-level navigation, which carries it (a GET). Apple's form POST does not, so
 * the callback answers it with a 303 to itself as a GET with the same parameters. The callback moves the
 * cookie to /v1/users for the code's exchange, which must come from the same browser.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { OAUTH_PROVIDER_NAMES, OAuthProviderSchema, OAuthStartQuerySchema, SheafError, routes, type ErrorParams, type OAuthIntent } from '@sheaf/shared';
import type { AppContext } from '../../context.ts';
import { handle } from '../../http/route.ts';
import { oauthProvidersOf, type OAuthClient } from './oauth-providers.ts';
import { CODE_TTL_S, FLOW_TTL_S, finishOAuth, linkWithCode, loginWithCode, registerWithCode, sitePath, startOAuth, type CallbackOutcome } from './oauth-service.ts';

export const OAUTH_COOKIE = 'sheaf_oauth';
/** The binding while the browser is away at the provider: sent to the callback only. */
const FLOW_COOKIE_PATH = '/v1/auth/oauth';
/** The same binding once the callback handed out a one-time code: sent with its exchange (/v1/users/.../oauth). */
const CODE_COOKIE_PATH = '/v1/users';
/** The web app's page that takes the outcome (apps/web/src/features/auth/OAuthCallbackPage.tsx). */
const WEB_CALLBACK = '/oauth/callback';
/** Apple's form post: a code, a state, an ID token and the name once; a few kilobytes at most. */
const FORM_BODY_LIMIT = 64 * 1024;
/** The callback parameters worth keeping (Apple's form post turned into a GET). */
const CALLBACK_PARAMS = ['code', 'state', 'iss', 'error', 'user', 'session_state'] as const;

const ProviderParamsSchema = z.object({ provider: z.string().max(40) });

export function cookieValue(request: FastifyRequest): string | undefined {
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const at = part.indexOf('=');
    if (at > 0 && part.slice(0, at).trim() === OAUTH_COOKIE) return decodeURIComponent(part.slice(at + 1).trim()) || undefined;
  }
  return undefined;
}

function cookie(ctx: AppContext, value: string, path: string, maxAgeS: number): string {
  const secure = ctx.config.PUBLIC_URL.startsWith('https:') ? '; Secure' : '';
  return `${OAUTH_COOKIE}=${encodeURIComponent(value)}; Path=${path}; Max-Age=${maxAgeS}; HttpOnly; SameSite=Lax${secure}`;
}

/** The web app's callback page with what happened: `#code=`, `#cancelled=1` or `#error=<code>&<params>`. */
function webCallback(provider: string, flow: { intent: OAuthIntent; next_path: string | null } | undefined, fragment: Record<string, string>): string {
  const query = new URLSearchParams({ provider, intent: flow?.intent ?? 'login' });
  const next = sitePath(flow?.next_path ?? undefined);
  if (next) query.set('next', next);
  return `${WEB_CALLBACK}?${query.toString()}#${new URLSearchParams(fragment).toString()}`;
}

function errorFragment(error: SheafError): Record<string, string> {
  const params: ErrorParams = error.params;
  return { error: error.code, ...Object.fromEntries(Object.entries(params).map(([key, value]) => [key, String(value)])) };
}

function outcomeFragment(outcome: CallbackOutcome): Record<string, string> {
  if (outcome.kind === 'code') return { code: outcome.code };
  if (outcome.kind === 'cancelled') return { cancelled: '1' };
  return errorFragment(outcome.error);
}

export async function registerOAuthRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  // A session started: the code is spent, its cookie goes too. A refusal keeps it (the page may link or register with the code).
  const spent = (reply: FastifyReply) => reply.header('Set-Cookie', cookie(ctx, '', CODE_COOKIE_PATH, 0));
  handle(app, routes.loginOAuth, async ({ body, request, reply }) => {
    const session = await loginWithCode(ctx, body, cookieValue(request), request.ip);
    spent(reply);
    return session;
  });
  handle(app, routes.registerOAuth, async ({ body, request, reply }) => {
    const session = await registerWithCode(ctx, body, cookieValue(request), request.ip);
    spent(reply);
    return session;
  });
  handle(app, routes.linkOAuth, async ({ body, request, reply }) => {
    const session = await linkWithCode(ctx, body, cookieValue(request), request.ip);
    spent(reply);
    return session;
  });

  const providers = oauthProvidersOf(ctx.config);
  const providerOf = (request: FastifyRequest): OAuthClient | undefined => {
    const parsed = ProviderParamsSchema.safeParse(request.params);
    return parsed.success ? providers.get(parsed.data.provider) : undefined;
  };
  const notConfigured = (request: FastifyRequest) => {
    const parsed = OAuthProviderSchema.safeParse((request.params as { provider?: unknown }).provider);
    const name = parsed.success ? OAUTH_PROVIDER_NAMES[parsed.data] : 'this provider';
    return new SheafError('oauth/provider-not-configured', { provider: name });
  };

  await app.register(async (scope) => {
    // Apple answers with a form post; nothing else here has a body.
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: FORM_BODY_LIMIT }, (_request, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(body as string)));
    });
    // Redirects, not API answers: no minimum response time (http/delay.ts skips "binary" routes).
    const routeConfig = { sheafBinary: true };

    scope.get('/v1/auth/oauth/:provider/start', {
      config: routeConfig,
      schema: { summary: 'Leave for Google, Apple or Microsoft to sign in (a redirect; ?intent=login|register&next=/path)', tags: ['auth'] },
    }, async (request, reply) => {
      const provider = providerOf(request);
      const params = request.params as { provider: string };
      if (!provider) return reply.redirect(webCallback(params.provider, undefined, errorFragment(notConfigured(request))), 303);
      const query = OAuthStartQuerySchema.safeParse(request.query);
      const input = query.success ? query.data : { intent: 'login' as const };
      const flow = { intent: input.intent, next_path: sitePath(input.next) };
      try {
        const { url, binding } = await startOAuth(ctx, provider, input, request.ip);
        reply.header('Set-Cookie', cookie(ctx, binding, FLOW_COOKIE_PATH, FLOW_TTL_S));
        return reply.redirect(url.href, 303);
      } catch (error) {
        if (!(error instanceof SheafError)) throw error;
        request.log.warn({ provider: provider.id, code: error.code }, 'oauth start failed');
        return reply.redirect(webCallback(provider.id, flow, errorFragment(error)), 303);
      }
    });

    const callback = async (request: FastifyRequest, reply: FastifyReply) => {
      const provider = providerOf(request);
      const params = request.params as { provider: string };
      if (!provider) return reply.redirect(webCallback(params.provider, undefined, errorFragment(notConfigured(request))), 303);
      const answer: Record<string, string> = {};
      for (const [name, value] of Object.entries(request.query as Record<string, unknown>)) if (typeof value === 'string') answer[name] = value;
      const binding = cookieValue(request);
      const outcome = await finishOAuth(ctx, provider, answer, binding, request.ip);
      // The callback's cookie has served its purpose; with a one-time code, the same binding goes to its exchange.
      const cookies = [cookie(ctx, '', FLOW_COOKIE_PATH, 0)];
      if (outcome.kind === 'code' && binding) cookies.push(cookie(ctx, binding, CODE_COOKIE_PATH, CODE_TTL_S));
      reply.header('Set-Cookie', cookies);
      reply.header('Cache-Control', 'no-store');
      return reply.redirect(webCallback(provider.id, outcome.flow, outcomeFragment(outcome)), 303);
    };
    scope.get('/v1/auth/oauth/:provider/callback', {
      config: routeConfig,
      schema: { summary: 'Where Google and Microsoft send the browser back (a redirect to the web app with a one-time code)', tags: ['auth'] },
    }, callback);
    scope.post('/v1/auth/oauth/:provider/callback', {
      config: routeConfig,
      schema: { summary: 'Where Apple posts its answer (response_mode=form_post): answered with the same callback as a GET', tags: ['auth'] },
    }, async (request, reply) => {
      const body = (request.body ?? {}) as Record<string, unknown>;
      const query = new URLSearchParams();
      for (const name of CALLBACK_PARAMS) if (typeof body[name] === 'string') query.set(name, body[name]);
      // A cross-site POST carries no SameSite=Lax cookie; the GET this redirect makes (a top-level navigation) does.
      return reply.redirect(`${request.url.split('?')[0]}?${query.toString()}`, 303);
    });
  });
}
