/**
 * One place that turns failures into HTTP answers: catalogue errors keep their code, validation
 * failures become 'generic/invalid-input', anything else is a logged 500 'generic/something-wrong'.
 * Every error body is {code, message, params?, fields?} (ErrorResponseSchema in shared).
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { isStorageFull } from '../merge-output/storage-full.ts';
import { currentScope } from '../jobs/request-scope.ts';
import { ERROR_MESSAGES, SheafFieldErrors, formatErrorMessage, httpStatusOf, isSheafError, type ErrorCode, type ErrorParams, type ErrorResponse } from '@sheaf/shared';

/** The HTTP status of a catalogue code: the catalogue's explicit map (packages/shared/src/errors.ts, docs/errors.md). */
export function statusForCode(code: ErrorCode): number {
  return httpStatusOf(code);
}

export function errorBody(code: ErrorCode, params: ErrorParams = {}, fields?: Record<string, string>): ErrorResponse {
  return {
    code,
    message: formatErrorMessage(code, params),
    ...(Object.keys(params).length ? { params } : {}),
    ...(fields && Object.keys(fields).length ? { fields } : {}),
  };
}

export function sendError(reply: FastifyReply, status: number, body: ErrorResponse): FastifyReply {
  // An error after a binary reply began (e.g. Content-Disposition set) must not keep those headers.
  reply.removeHeader('Content-Disposition');
  reply.removeHeader('ETag');
  return reply.code(status).type('application/json; charset=utf-8').send(body);
}

/** A schema's message that is a catalogue code (z.string().min(1, 'billing/address-required')): the field's own code. */
const catalogueCode = (message: string | undefined): ErrorCode | undefined =>
  message !== undefined && Object.hasOwn(ERROR_MESSAGES, message) ? (message as ErrorCode) : undefined;

/**
 * A schema failure as the client sees it: the first problem as {detail}, top-level body fields as
 * `fields` (each with the schema's catalogue code when it names one, else generic/invalid-input). The
 * answer's code is the first field's catalogue code when there is one, as SheafFieldErrors does.
 */
function validationBody(error: FastifyError): ErrorResponse {
  const context = error.validationContext ?? 'body';
  const issues = hasZodFastifySchemaValidationErrors(error) ? error.validation : (error.validation ?? []);
  const first = issues[0];
  const where = first ? `${context}${first.instancePath.replace(/\//g, '.').replace(/\.$/, '')}` : context;
  const detail = first ? `${where}: ${first.message ?? 'invalid'}` : error.message;
  const fields: Record<string, string> = {};
  let code: ErrorCode = 'generic/invalid-input';
  if (context === 'body') {
    for (const issue of issues) {
      const segments = issue.instancePath.split('/').filter(Boolean);
      if (segments.length !== 1 || fields[segments[0]!]) continue;
      const own = catalogueCode(issue.message);
      fields[segments[0]!] = own ?? 'generic/invalid-input';
      if (own && code === 'generic/invalid-input') code = own;
    }
  }
  return errorBody(code, { detail }, fields);
}

/** The JSON 404 of an unknown /v1 path (and of anything else no route and no web page answers). */
export function sendNotFound(request: FastifyRequest, reply: FastifyReply): FastifyReply {
  return sendError(reply, 404, errorBody('generic/not-found', { path: `${request.method} ${request.url.split('?')[0]}` }));
}

/**
 * A server error (5xx) goes to the error-reporting service when one is configured (SENTRY_DSN): with the
 * request id, the route's pattern and the user id, never headers, query or body (docs/support.md#error-reports).
 * Errors a user can act on (4xx) are not reported.
 */
function reportServerError(request: FastifyRequest, error: unknown, status: number): void {
  const reporter = request.server.sheafContext?.reporter;
  if (!reporter?.enabled) return;
  const actorId = currentScope()?.actorId;
  reporter.report(error, {
    requestId: request.id,
    method: request.method,
    route: request.routeOptions.url ?? '(no route)',
    status,
    ...(actorId ? { userId: actorId } : {}),
  });
}

export function installErrorHandlers(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    if (error instanceof SheafFieldErrors) {
      return sendError(reply, 400, errorBody(error.code, error.params, error.fields));
    }
    if (isSheafError(error)) {
      const status = statusForCode(error.code);
      if (status >= 500) {
        request.log.error({ err: error }, 'request failed');
        reportServerError(request, error, status);
      }
      return sendError(reply, status, errorBody(error.code, error.params));
    }
    if (error.validation) return sendError(reply, 400, validationBody(error));
    // A write that found the disk full (an upload, a copy): the user's answer, not our 500.
    if (isStorageFull(error)) {
      request.log.warn({ err: error }, 'storage full');
      return sendError(reply, statusForCode('generic/storage-full'), errorBody('generic/storage-full'));
    }
    if (isResponseSerializationError(error)) {
      request.log.error({ issues: error.cause.issues, url: request.routeOptions.url }, 'response does not match its schema');
      reportServerError(request, error, 500);
      return sendError(reply, 500, errorBody('generic/something-wrong'));
    }
    // Fastify's and plugins' own client errors: bad JSON, wrong content type, body or file too large.
    const status = typeof error.statusCode === 'number' ? error.statusCode : 500;
    if (status >= 400 && status < 500) {
      return sendError(reply, status === 406 || status === 415 ? 400 : status, errorBody('generic/invalid-input', { detail: error.message }));
    }
    // Unknown: logged with the request id (fastify's logger adds it); never headers or bodies.
    request.log.error({ err: error }, 'unexpected error');
    reportServerError(request, error, 500);
    return sendError(reply, 500, errorBody('generic/something-wrong'));
  });
}
