/**
 * Every request has an id: the client's x-request-id when it is well formed (a proxy's or a load
 * balancer's trace id), else a new one. It is answered in the x-request-id response header, written on
 * the request's log lines, and stored with the jobs the request queues (jobs/request-scope.ts), whose
 * log lines carry it too.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { runInScope } from '../jobs/request-scope.ts';

/** Letters, digits and . _ : - only, at most 128: it goes into logs and headers as it is. */
const VALID_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export function requestIdOf(request: IncomingMessage): string {
  const sent = request.headers['x-request-id'];
  return typeof sent === 'string' && VALID_ID.test(sent) ? sent : randomUUID();
}

export function installRequestIds(app: FastifyInstance): void {
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    runInScope({ requestId: request.id }, done);
  });
}
