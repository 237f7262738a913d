/**
 * The process logger (pino, which Fastify uses): JSON lines, with secrets removed. Requests are
 * logged by method, path and client address only; download tokens in paths are masked.
 */
import type { FastifyBaseLogger } from 'fastify';
import { pino } from 'pino';
import type { Config } from '../config.ts';

const SECRET_FIELDS = ['password', 'currentPassword', 'newPassword', 'confirmPassword', 'token', 'refreshToken', 'refresh_token', 'id_token', 'secret'];

export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
  'headers.authorization',
  'headers.cookie',
  ...SECRET_FIELDS,
  ...SECRET_FIELDS.map((field) => `*.${field}`),
];

/** /v1/files/<token> -> /v1/files/[token]: a download link is a credential while it lives. */
export function maskUrl(url: string): string {
  return url.replace(/(\/v1\/files\/)[^/?#]+/, '$1[token]');
}

interface LoggedRequest {
  method: string;
  url: string;
  ip?: string;
  id?: string;
}

export function createLogger(config: Pick<Config, 'LOG_LEVEL'>, destination?: NodeJS.WritableStream): FastifyBaseLogger {
  const options = {
    level: config.LOG_LEVEL,
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    serializers: {
      req: (request: LoggedRequest) => ({ method: request.method, url: maskUrl(request.url), remoteAddress: request.ip }),
    },
  };
  return (destination ? pino(options, destination) : pino(options)) as unknown as FastifyBaseLogger;
}
