/**
 * The Fastify application: the /v1 API of every module, its OpenAPI document at /v1/docs, and the
 * web app. buildApp only assembles; boot.ts opens the adapters and listens.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import multipart from '@fastify/multipart';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { jsonSchemaTransform, serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { MAX_UPLOAD_BYTES } from '@sheaf/shared';
import type { AppContext } from '../context.ts';
import { registerAuthRoutes, registerOAuthRoutes } from '../modules/auth/index.ts';
import { sessionPrincipal } from './principal.ts';
import { registerUserRoutes } from '../modules/users/index.ts';
import { registerTemplateRoutes, registerTemplateSpreadsheetRoutes } from '../modules/templates/index.ts';
import { registerSpreadsheetRoutes } from '../modules/spreadsheets/index.ts';
import { registerFontRoutes } from '../modules/fonts/index.ts';
import { registerMergeRoutes } from '../modules/merges/index.ts';
import { registerEmailRoutes, registerSpamRoutes } from '../modules/email/index.ts';
import { registerSenderRoutes } from '../modules/senders/index.ts';
import { registerBillingRoutes, registerStripeWebhook } from '../modules/billing/index.ts';
import { registerLicenceRoutes } from '../modules/licences/index.ts';
import { registerSupportRoutes } from '../modules/support/index.ts';
import { registerDataCheckRoutes } from '../modules/datacheck/index.ts';
import { registerTeamRoutes } from '../modules/team/index.ts';
import { currentScope } from '../jobs/request-scope.ts';
import { installMinimumResponseTime } from './delay.ts';
import { registerHealthRoutes, type ReadinessCheck } from './health.ts';
import { installRequestIds, requestIdOf } from './request-id.ts';
import { installErrorHandlers, sendNotFound } from './errors.ts';
import { maskUrl } from './logger.ts';
import { productVersion, registerMetaRoutes } from './meta.ts';
import { contentSecurityPolicy, installSecurityHeaders } from './security.ts';
import { isPageRequest, registerWebApp, webApp } from './web.ts';

// JSON bodies: placeholders of a large template stay well below this.
const JSON_BODY_LIMIT = 5 * 1024 * 1024;

export async function buildApp(ctx: AppContext, ready: ReadinessCheck = async () => undefined): Promise<FastifyInstance> {
  const { config } = ctx;
  const app = Fastify({
    loggerInstance: ctx.log,
    trustProxy: config.TRUST_PROXY,
    bodyLimit: JSON_BODY_LIMIT,
    // Request ids (request-id.ts): a well-formed x-request-id from the client, else a new one.
    requestIdHeader: false,
    genReqId: requestIdOf,
    // Signed download links are one path segment of a few hundred characters.
    routerOptions: { maxParamLength: 1000 },
  });
  app.decorate('sheafContext', ctx);
  // Every private request runs as the principal its token resolves to (once, in the route layer).
  app.decorate('sheafAuthenticate', async (token: string) => {
    const principal = await sessionPrincipal(ctx, token);
    // The request's scope learns its user: an error report names them by id (http/errors.ts).
    const scope = currentScope();
    if (scope) scope.actorId = principal.actorId;
    return principal;
  });
  // First: every later hook, the handler and the jobs it queues run in the request's scope.
  installRequestIds(app);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  installErrorHandlers(app);

  const web = webApp(config);
  installSecurityHeaders(app, contentSecurityPolicy({
    scriptHashes: [web.scriptHash],
    apiHosts: config.API_HOSTS,
    stripe: { jsUrl: config.STRIPE_JS_URL, apiUrl: config.STRIPE_API_URL },
    // The browser's error reports (SENTRY_DSN_WEB) go to the DSN's origin.
    reportOrigins: config.SENTRY_DSN_WEB ? [new URL(config.SENTRY_DSN_WEB).origin] : [],
  }));
  installMinimumResponseTime(app, config.MIN_RESPONSE_MS);
  app.addHook('onResponse', async (request, reply) => {
    if (reply.statusCode >= 500) request.log.warn({ url: maskUrl(request.url), status: reply.statusCode }, 'request answered with a server error');
  });

  await app.register(multipart, { limits: { fileSize: MAX_UPLOAD_BYTES + 1, files: 1, fields: 20, fieldSize: 64 * 1024 } });
  await app.register(swagger, {
    openapi: {
      openapi: '3.0.3',
      info: { title: 'Sheaf API', description: 'Mail merge for documents: templates, spreadsheets and merges.', version: productVersion() },
      servers: [{ url: config.PUBLIC_URL }],
      components: { securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
    },
    transform: jsonSchemaTransform,
    // Only the API belongs in the API's document.
    hideUntagged: false,
  });
  await app.register(swaggerUi, { routePrefix: '/v1/docs', uiConfig: { docExpansion: 'list', deepLinking: true } });

  registerHealthRoutes(app, ready);
  registerMetaRoutes(app, ctx);
  registerAuthRoutes(app, ctx);
  await registerOAuthRoutes(app, ctx);
  registerUserRoutes(app, ctx);
  registerTeamRoutes(app, ctx);
  registerTemplateRoutes(app, ctx);
  registerTemplateSpreadsheetRoutes(app, ctx);
  registerSpreadsheetRoutes(app, ctx);
  registerFontRoutes(app, ctx);
  registerMergeRoutes(app, ctx);
  registerEmailRoutes(app, ctx);
  registerSpamRoutes(app, ctx);
  registerSenderRoutes(app, ctx);
  registerBillingRoutes(app, ctx);
  await registerStripeWebhook(app, ctx);
  registerLicenceRoutes(app, ctx);
  registerSupportRoutes(app, ctx);
  registerDataCheckRoutes(app, ctx);

  await registerWebApp(app, web, config);
  app.setNotFoundHandler((request, reply) => (isPageRequest(request) ? web.sendIndex(reply) : sendNotFound(request, reply)));
  return app;
}
