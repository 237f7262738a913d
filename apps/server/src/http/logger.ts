/**
 * The process logger (pino, which Fastify uses): JSON lines, with secrets removed. Requests are
 * logged by method, path and client address only; download tokens in paths are masked. Lines written
 * while a request or a job runs carry its reqId (and jobId): one user action can be followed from
 * the API process into the worker that ran its job.
 *
 * No secret in any line: credential headers and fields named like secrets (password, token, secret,
 * key, authorization, cookie, ...) at any depth are replaced, and credentials inside strings (the
 * user:password@ of a URL such as SMTP_URL or DATABASE_URL, a Bearer token) are masked, in messages and
 * error texts too.
 */
import type { FastifyBaseLogger } from 'fastify';
import { pino } from 'pino';
import type { Config } from '../config.ts';
import { currentScope } from '../jobs/request-scope.ts';

const CENSOR = '[redacted]';

export const REDACTED_PATHS = ['req.headers.authorization', 'req.headers.cookie', 'res.headers["set-cookie"]', 'headers.authorization', 'headers.cookie'];

/** Field names whose values are secrets wherever they appear (SECRET_KEY, S3 keys, passwords, tokens). */
const SECRET_NAME = /pass(word)?|secret|token|authori[sz]ation|cookie|api[-_]?key|access[-_]?key|private[-_]?key|credential|^dkim|signature/i;

/** scheme://user:password@host -> scheme://user:[redacted]@host; Bearer <token> -> Bearer [redacted]. */
export function scrubText(text: string): string {
  return text
    .replace(/\b([a-z][a-z0-9+.-]*:\/\/)([^\s/:@]*):([^\s/@]+)@/gi, `$1$2:${CENSOR}@`)
    .replace(/\b(bearer|basic)\s+[A-Za-z0-9._~+/=-]{8,}/gi, `$1 ${CENSOR}`);
}

const MAX_DEPTH = 8;

/** A copy of `value` with secret fields replaced and credentials in strings masked. */
export function scrub(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return scrubText(value);
  if (value === null || typeof value !== 'object' || depth > MAX_DEPTH) return value;
  if (Array.isArray(value)) return value.map((item) => scrub(item, depth + 1));
  if (value instanceof Error) return scrubError(value);
  const prototype = Object.getPrototypeOf(value) as unknown;
  if (prototype !== Object.prototype && prototype !== null) return value; // dates, buffers: as pino writes them
  const copy: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value)) copy[key] = SECRET_NAME.test(key) && field !== null && field !== undefined ? CENSOR : scrub(field, depth + 1);
  return copy;
}

function scrubError(error: unknown): unknown {
  if (!(error instanceof Error)) return scrub(error);
  // The serializer's object has its own prototype: copied to a plain one, scrub walks it.
  return scrub({ ...(pino.stdSerializers.err(error) as unknown as Record<string, unknown>) });
}

/** /v1/files/<token> -> /v1/files/[token]: a download link is a credential while it lives. */
export function maskUrl(url: string): string {
  return scrubText(url.replace(/(\/v1\/files\/)[^/?#]+/, '$1[token]'));
}

interface LoggedRequest {
  method: string;
  url: string;
  ip?: string;
  id?: string;
}

export function createLogger(config: Pick<Config, 'LOG_LEVEL'>, destination?: NodeJS.WritableStream): FastifyBaseLogger {
  const options: pino.LoggerOptions = {
    level: config.LOG_LEVEL,
    redact: { paths: REDACTED_PATHS, censor: CENSOR },
    serializers: {
      req: (request: LoggedRequest) => ({ method: request.method, url: maskUrl(request.url), remoteAddress: request.ip }),
      err: scrubError,
    },
    // The request or job this line was written for (a request's own logger has reqId bound already).
    mixin: (_object, _level, logger) => {
      const scope = currentScope();
      if (!scope) return {};
      const fields: Record<string, unknown> = scope.jobId ? { jobId: scope.jobId, jobKind: scope.jobKind } : {};
      if (scope.requestId && (logger as pino.Logger).bindings().reqId === undefined) fields.reqId = scope.requestId;
      return fields;
    },
    formatters: { log: (object) => scrub(object) as Record<string, unknown> },
    hooks: {
      // The message text too (an error's message logged as the line's text, say).
      logMethod(args, method) {
        method.apply(this, args.map((arg) => (typeof arg === 'string' ? scrubText(arg) : arg)) as Parameters<typeof method>);
      },
    },
  };
  return (destination ? pino(options, destination) : pino(options)) as unknown as FastifyBaseLogger;
}
