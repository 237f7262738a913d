/**
 * Liveness and readiness for orchestrators and load balancers: GET /healthz (the process answers) and
 * GET /readyz (the database answers and is migrated, Redis answers when configured; 503 otherwise).
 * Unauthenticated, cheap, outside /v1 (so never held back by MIN_RESPONSE_MS). The API process serves
 * them on its port; `sheaf worker` on its own small port (--health-port).
 */
import { createServer, type Server } from 'node:http';
import type { FastifyInstance } from 'fastify';

export interface ReadinessCheck {
  /** Resolves with nothing when ready, else with what is not (for the 503 body); never throws. */
  (): Promise<Record<string, string> | undefined>;
}

const CHECK_TIMEOUT_MS = 2_000;

export interface ReadinessProbes {
  database(): Promise<void>;
  /** Names of migrations not applied yet (empty: migrated). */
  pendingMigrations(): Promise<string[]>;
  /** The job back end (Redis); resolves when reachable. */
  queue(): Promise<void>;
}

async function within<T>(work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => (timer = setTimeout(() => reject(new Error('no answer in time')), CHECK_TIMEOUT_MS)));
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** Runs the probes; the failing ones by name with a short reason (no addresses, no credentials). */
export function readinessCheck(probes: ReadinessProbes): ReadinessCheck {
  return async () => {
    const failures: Record<string, string> = {};
    const reason = (error: unknown) => (error instanceof Error && error.message === 'no answer in time' ? 'no answer in time' : 'unreachable');
    await Promise.all([
      within(probes.database()).then(
        () => within(probes.pendingMigrations()).then((pending) => {
          if (pending.length) failures.migrations = `${pending.length} pending`;
        }),
        (error: unknown) => (failures.database = reason(error)),
      ).catch((error: unknown) => (failures.migrations = reason(error))),
      within(probes.queue()).catch((error: unknown) => (failures.queue = reason(error))),
    ]);
    return Object.keys(failures).length ? failures : undefined;
  };
}

export function registerHealthRoutes(app: FastifyInstance, ready: ReadinessCheck): void {
  // Probes come every few seconds: their requests are not logged at info.
  const hide = { schema: { hide: true }, logLevel: 'warn' as const };
  app.get('/healthz', hide, async (_request, reply) => reply.header('cache-control', 'no-store').send({ status: 'ok' }));
  app.get('/readyz', hide, async (_request, reply) => {
    const failures = await ready();
    reply.header('cache-control', 'no-store');
    return failures ? reply.code(503).send({ status: 'unavailable', failures }) : reply.send({ status: 'ready' });
  });
}

/** The worker's health port: /healthz and /readyz only. Resolves with the port it listens on. */
export async function startHealthServer(port: number, host: string, ready: ReadinessCheck): Promise<{ port: number; close(): Promise<void> }> {
  const server: Server = createServer((request, response) => {
    const url = (request.url ?? '/').split('?')[0];
    const send = (status: number, body: unknown) => {
      response.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
      response.end(JSON.stringify(body));
    };
    if (request.method !== 'GET' && request.method !== 'HEAD') return send(405, { status: 'method not allowed' });
    if (url === '/healthz') return send(200, { status: 'ok' });
    if (url === '/readyz') {
      void ready().then((failures) => (failures ? send(503, { status: 'unavailable', failures }) : send(200, { status: 'ready' })));
      return;
    }
    send(404, { status: 'not found' });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const address = server.address();
  return {
    port: typeof address === 'object' && address ? address.port : port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
