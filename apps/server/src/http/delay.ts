/**
 * The minimum response time of the API (docs/web-app.md#talking-to-the-api: each response takes at least
 * MIN_RESPONSE_MS). It evens out how long a failed and a successful login take, among others.
 * Downloads (binary routes) and the API docs are not held back.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { setTimeout as wait } from 'node:timers/promises';

const started = new WeakMap<FastifyRequest, number>();

function isDelayed(request: FastifyRequest): boolean {
  const url = request.url;
  if (!(url === '/v1' || url.startsWith('/v1/') || url.startsWith('/v1?'))) return false;
  if (url.startsWith('/v1/docs')) return false;
  return request.routeOptions.config?.sheafBinary !== true;
}

export function installMinimumResponseTime(app: FastifyInstance, minimumMs: number): void {
  if (minimumMs <= 0) return;
  app.addHook('onRequest', async (request) => {
    started.set(request, performance.now());
  });
  app.addHook('onSend', async (request, _reply, payload) => {
    const start = started.get(request);
    if (start === undefined || !isDelayed(request)) return payload;
    const remaining = minimumMs - (performance.now() - start);
    if (remaining > 0) await wait(Math.ceil(remaining));
    return payload;
  });
}
