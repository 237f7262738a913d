/**
 * Starts the whole service from a Config: database (migrated), blob store, mailer, job runner, the
 * HTTP app; then listens. `sheaf serve` and the test harness both start the server this way.
 */
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Config } from './config.ts';
import type { AppContext } from './context.ts';
import { openDb } from './adapters/db/open.ts';
import type { Db } from './adapters/db/types.ts';
import { migrate } from './adapters/db/migrate.ts';
import { openBlobStore } from './adapters/blobs/index.ts';
import { openMailer } from './adapters/mail/index.ts';
import { SmtpMailer } from './adapters/mail/smtp.ts';
import { createJobQueue } from './jobs/runner.ts';
import { EventBus } from './events/bus.ts';
import { connectMerges, registerMergeJobs } from './modules/merges/index.ts';
import { connectTemplates } from './modules/templates/index.ts';
import { connectFonts } from './modules/fonts/index.ts';
import { connectEmail, startEmail } from './modules/email/index.ts';
import { buildApp } from './http/server.ts';
import { startAdminSocket } from './admin/socket.ts';
import { createLogger } from './http/logger.ts';

export interface RunningServer {
  app: FastifyInstance;
  ctx: AppContext;
  /** http://host:port the server listens on (the actual port when PORT was 0). */
  url: string;
  /** Stops taking work, lets running requests finish, stops jobs, closes the database. Idempotent. */
  close(): Promise<void>;
}

export interface StartOptions {
  /** Close gracefully on SIGINT/SIGTERM (the `serve` command; not tests). */
  handleSignals?: boolean;
  /** An open database to use instead of opening the configured one (closed by close()). */
  db?: Db;
  /** A logger to use instead of one made from LOG_LEVEL. */
  log?: FastifyBaseLogger;
}

/** Requests still running at shutdown get this long before their connections are cut. */
const SHUTDOWN_GRACE_MS = 10_000;

/**
 * Stops the HTTP server: no new connections, running requests may finish. Idle keep-alive sockets are
 * closed as they become idle (Fastify's own close would otherwise wait out their 72 s keep-alive).
 */
async function closeHttp(app: FastifyInstance): Promise<void> {
  const closing = app.close();
  const sweep = setInterval(() => app.server.closeIdleConnections(), 100);
  const force = setTimeout(() => app.server.closeAllConnections(), SHUTDOWN_GRACE_MS);
  try {
    await closing;
  } finally {
    clearInterval(sweep);
    clearTimeout(force);
  }
}

export async function startServer(config: Config, options: StartOptions = {}): Promise<RunningServer> {
  const log = options.log ?? createLogger(config);
  const db = options.db ?? (await openDb(config));
  const cleanups: Array<() => Promise<void>> = [() => db.close()];
  const runCleanups = async () => {
    for (const cleanup of cleanups.splice(0).reverse()) {
      await cleanup().catch((error: unknown) => log.error({ err: error }, 'error while shutting down'));
    }
  };
  try {
    const applied = await migrate(db);
    if (applied.length) log.info({ migrations: applied }, 'database migrated');
    // The embedded database allows one process: `sheaf users ...` reaches it through this server.
    if (!config.DATABASE_URL && !options.db) cleanups.push(await startAdminSocket(db, config.DATA_DIR));
    const mailer = openMailer(config);
    if (mailer instanceof SmtpMailer) cleanups.push(async () => mailer.close());
    const jobs = createJobQueue(db, log, { concurrency: config.MERGE_CONCURRENCY });
    const ctx: AppContext = { config, db, blobs: openBlobStore(config), mailer, jobs, events: new EventBus(), log };
    // Subscriptions and hooks first: a merge job finishing at start must find the mailing listening.
    connectFonts(ctx);
    connectTemplates(ctx);
    connectMerges(ctx);
    connectEmail(ctx);
    const app = await buildApp(ctx);
    cleanups.push(() => closeHttp(app));
    await registerMergeJobs(ctx);
    await jobs.start();
    // Jobs stop first (closed last-in first-out), then the app, then the database.
    cleanups.push(() => jobs.stop());
    // Mailings (their own job runner) and the bounce listener; stopped before the merge jobs.
    const email = await startEmail(ctx);
    cleanups.push(() => email.close());
    await app.listen({ port: config.PORT, host: config.HOST });
    const address = app.server.address();
    const port = typeof address === 'object' && address ? address.port : config.PORT;
    const host = config.HOST === '0.0.0.0' || config.HOST === '::' ? 'localhost' : config.HOST.includes(':') ? `[${config.HOST}]` : config.HOST;

    const url = `http://${host}:${port}`;
    // PORT=0 (any free port) with no PUBLIC_URL: links in mails must name the port actually used.
    if (new URL(config.PUBLIC_URL).port === '0') ctx.config = Object.freeze({ ...config, PUBLIC_URL: url });

    let closing: Promise<void> | undefined;
    const close = () => (closing ??= runCleanups());
    if (options.handleSignals) {
      const onSignal = (signal: NodeJS.Signals) => {
        log.info({ signal }, 'shutting down');
        void close().then(() => process.exit(0));
      };
      process.once('SIGINT', onSignal);
      process.once('SIGTERM', onSignal);
    }
    return { app, ctx, url, close };
  } catch (error) {
    await runCleanups();
    throw error;
  }
}
