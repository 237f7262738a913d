/**
 * Starts Sheaf from a Config: database (migrated), blob store, mailer, job kinds and their runners,
 * and the HTTP app. Three shapes of process (ARCHITECTURE.md "Processes"):
 *   startServer(config)                      HTTP and jobs (`sheaf serve`, the default)
 *   startServer(config, { runJobs: false })  HTTP only (`sheaf serve --no-jobs`)
 *   startWorker(config)                      jobs only, /healthz and /readyz on a small port (`sheaf worker`)
 * The last two need a database every process shares (PostgreSQL): PGlite serves one process.
 */
import { readdir } from 'node:fs/promises';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Config } from './config.ts';
import type { AppContext } from './context.ts';
import { openDb } from './adapters/db/open.ts';
import type { Db } from './adapters/db/types.ts';
import { migrate, MIGRATIONS_DIR } from './adapters/db/migrate.ts';
import { openBlobStore } from './adapters/blobs/index.ts';
import { openMailer } from './adapters/mail/index.ts';
import { SmtpMailer } from './adapters/mail/smtp.ts';
import { openJobBackend } from './jobs/backends.ts';
import type { BullQueueOptions } from './jobs/bullmq-runner.ts';
import type { JobQueueOptions } from './jobs/runner.ts';
import { createJobs } from './jobs/system.ts';
import { BackgroundTasks } from './background.ts';
import { OfficeConverter } from './adapters/office/index.ts';
import { EventBus } from './events/bus.ts';
import { openStripe } from './adapters/payments/stripe.ts';
import { openErrorReporter } from './adapters/reporting/index.ts';
import { connectMerges, registerMergeJobs, startScratchSweep, sweepBeforeEmbeddedDb } from './modules/merges/index.ts';
import { connectTemplates } from './modules/templates/index.ts';
import { connectFonts } from './modules/fonts/index.ts';
import { connectEmail, startEmail } from './modules/email/index.ts';
import { registerAuthJobs } from './modules/auth/index.ts';
import { connectBilling } from './modules/billing/index.ts';
import { connectLicences } from './modules/licences/index.ts';
import { connectSupport } from './modules/support/index.ts';
import { readinessCheck, startHealthServer, type ReadinessCheck } from './http/health.ts';
import { startAdminSocket } from './admin/socket.ts';
import { createLogger, scrub, scrubText } from './http/logger.ts';

export interface RunningServer {
  app: FastifyInstance;
  ctx: AppContext;
  /** http://host:port the server listens on (the actual port when PORT was 0). */
  url: string;
  /** Stops taking work, lets running requests finish, stops jobs, closes the database. Idempotent. */
  close(): Promise<void>;
}

export interface RunningWorker {
  ctx: AppContext;
  /** The port of /healthz and /readyz, when asked for. */
  healthPort: number | undefined;
  /** Stops taking jobs, finishes or hands back those in flight, closes the database. Idempotent. */
  close(): Promise<void>;
}

export interface StartOptions {
  /** Close gracefully on SIGINT/SIGTERM (the `serve` and `worker` commands; not tests). */
  handleSignals?: boolean;
  /** An open database to use instead of opening the configured one (closed by close()). */
  db?: Db;
  /** A logger to use instead of one made from LOG_LEVEL. */
  log?: FastifyBaseLogger;
  /** Run jobs in this process (default true; false: `serve --no-jobs`). */
  runJobs?: boolean;
  /** Runner settings (tests shorten leases and sweeps). */
  jobOptions?: BullQueueOptions & JobQueueOptions;
}

export interface WorkerOptions extends Omit<StartOptions, 'runJobs'> {
  /** Serve /healthz and /readyz on this port (0: any free port); none when undefined. */
  healthPort?: number;
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

/** Refuses to split work over processes on a database only one process can open. */
export function requireSharedDatabase(config: Config, what: string): void {
  if (!config.DATABASE_URL || config.DATABASE_URL === 'memory://') {
    throw new Error(
      `${what} needs a database every Sheaf process shares: set DATABASE_URL to a PostgreSQL server. ` +
        'The embedded database (PGlite) serves one process; run plain `sheaf serve` for a single process.',
    );
  }
}

interface Core {
  ctx: AppContext;
  log: FastifyBaseLogger;
  ready: ReadinessCheck;
  cleanups: Array<() => Promise<void>>;
  runCleanups(): Promise<void>;
}

/** Database, adapters, job kinds and module wiring: what every shape of process has. */
async function openCore(config: Config, options: StartOptions, serveHttp: boolean): Promise<Core> {
  const log = options.log ?? createLogger(config);
  if (!options.db) await sweepBeforeEmbeddedDb(config, log); // a stranded merge file must not keep PGlite from opening
  const db = options.db ?? (await openDb(config));
  const cleanups: Array<() => Promise<void>> = [() => db.close()];
  // Once per process; closed (its last reports sent) after everything that could report.
  const reporter = await openErrorReporter(config, log, {
    release: async () => (await import('./http/meta.ts')).productVersion(),
    scrubbers: { text: scrubText, value: scrub },
  });
  cleanups.splice(1, 0, () => reporter.close());
  const runCleanups = async () => {
    for (const cleanup of cleanups.splice(0).reverse()) {
      await cleanup().catch((error: unknown) => log.error({ err: error }, 'error while shutting down'));
    }
  };
  try {
    // Redis (REDIS_URL) first: unreachable, or evicting keys, and the process stops before it migrates.
    // The embedded database is this process's alone: jobs it finds running were a dead process's.
    const ownsDatabase = !options.db && !config.DATABASE_URL;
    const backend = await openJobBackend(config, db, log, { ...options.jobOptions, ...(ownsDatabase ? { ownsDatabaseSince: new Date() } : {}) });
    let backendOwned = true; // until the job runners own it (jobs.stop() closes it then)
    cleanups.push(async () => {
      if (backendOwned) await backend.close();
    });
    const applied = await migrate(db);
    if (applied.length) log.info({ migrations: applied }, 'database migrated');
    // The embedded database allows one process: `sheaf users ...` reaches it through this server.
    if (!config.DATABASE_URL && !options.db) cleanups.push(await startAdminSocket(db, config.DATA_DIR));
    const mailer = openMailer(config);
    if (mailer instanceof SmtpMailer) cleanups.push(async () => mailer.close());
    const jobs = createJobs(backend, config, log, reporter);
    backendOwned = false;
    // Stopped after the HTTP server (no request queues a job after that), before the database.
    cleanups.push(() => jobs.stop());
    // The bounce listener belongs to the processes that serve the public (one port per machine).
    const ctxConfig = serveHttp ? config : Object.freeze({ ...config, INBOUND_SMTP_PORT: null });
    const background = new BackgroundTasks();
    // After the HTTP server and the job runners (nothing starts a task then), before the database closes.
    cleanups.splice(1, 0, () => background.drain());
    // LibreOffice starts with the first Word conversion, not here; it ends after the background work.
    const office = new OfficeConverter();
    cleanups.splice(1, 0, () => office.close());
    const ctx: AppContext = { config: ctxConfig, db, blobs: openBlobStore(config), mailer, jobs, events: new EventBus(), background, office, stripe: await openStripe(config), reporter, log };
    // Subscriptions and hooks first: a merge job finishing at start must find the mailing listening.
    connectFonts(ctx);
    connectTemplates(ctx);
    connectMerges(ctx);
    connectEmail(ctx);
    connectLicences(ctx); // checks the licence keys (ConfigError), hears the billing module's licence events
    connectSupport(ctx); // the operator's mail of support requests; an account's attachments go with it
    // Last: cancelling the subscription of an account being deleted comes after every other module
    // has had its chance to refuse the deletion.
    connectBilling(ctx);
    // Before any job runs: scratch files a killed process left go now, and every 10 minutes after.
    cleanups.push(await startScratchSweep(ctx));
    const migrations = (await readdir(MIGRATIONS_DIR)).filter((name) => name.endsWith('.sql'));
    const ready = readinessCheck({
      database: async () => void (await db.query('SELECT 1')),
      pendingMigrations: async () => {
        const done = new Set((await db.query<{ name: string }>('SELECT name FROM schema_migrations')).map((row) => row.name));
        return migrations.filter((name) => !done.has(name));
      },
      queue: () => jobs.ping(),
    });
    return { ctx, log, ready, cleanups, runCleanups };
  } catch (error) {
    await runCleanups();
    throw error;
  }
}

/** Registers every job kind (any process may queue any kind); starts the runners when this process runs jobs. */
async function startJobs(core: Core, runJobs: boolean): Promise<void> {
  const { ctx, cleanups } = core;
  await registerMergeJobs(ctx);
  await registerAuthJobs(ctx); // the daily sweep of old sign-in attempts
  if (runJobs) await ctx.jobs.start();
  // The mailing kind and the bounce listener; the listener stops before the job runners.
  const email = await startEmail(ctx);
  cleanups.push(() => email.close());
}

function closeOnSignals(log: FastifyBaseLogger, close: () => Promise<void>): void {
  const onSignal = (signal: NodeJS.Signals) => {
    log.info({ signal }, 'shutting down');
    void close().then(() => {
      log.info('shut down'); // the last line: a write stuck in the kernel may still hold the exit back
      process.exit(0);
    });
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
}

export async function startServer(config: Config, options: StartOptions = {}): Promise<RunningServer> {
  const runJobs = options.runJobs ?? true;
  if (!runJobs) requireSharedDatabase(config, '`sheaf serve --no-jobs`');
  // The HTTP app (Fastify, its plugins, every route) loads while the database opens: PGlite's
  // WebAssembly compiles and its files are read off the main thread, which would otherwise wait.
  const httpApp = import('./http/server.ts');
  httpApp.catch(() => undefined); // a failed open is reported first; a failed load when awaited below
  const core = await openCore(config, options, true);
  const { ctx, log, cleanups, runCleanups } = core;
  try {
    const { buildApp } = await httpApp;
    const app = await buildApp(ctx, core.ready);
    cleanups.push(() => closeHttp(app));
    await startJobs(core, runJobs);
    await app.listen({ port: config.PORT, host: config.HOST });
    const address = app.server.address();
    const port = typeof address === 'object' && address ? address.port : config.PORT;
    const host = config.HOST === '0.0.0.0' || config.HOST === '::' ? 'localhost' : config.HOST.includes(':') ? `[${config.HOST}]` : config.HOST;

    const url = `http://${host}:${port}`;
    // PORT=0 (any free port) with no PUBLIC_URL: links in mails must name the port actually used.
    if (new URL(config.PUBLIC_URL).port === '0') ctx.config = Object.freeze({ ...config, PUBLIC_URL: url });

    let closing: Promise<void> | undefined;
    const close = () => (closing ??= runCleanups());
    if (options.handleSignals) closeOnSignals(log, close);
    return { app, ctx, url, close };
  } catch (error) {
    await runCleanups();
    throw error;
  }
}

/** `sheaf worker`: runs jobs, serves no API. */
export async function startWorker(config: Config, options: WorkerOptions = {}): Promise<RunningWorker> {
  requireSharedDatabase(config, '`sheaf worker`');
  const core = await openCore(config, options, false);
  const { ctx, log, cleanups, runCleanups } = core;
  try {
    let healthPort: number | undefined;
    if (options.healthPort !== undefined) {
      const health = await startHealthServer(options.healthPort, config.HOST, core.ready);
      healthPort = health.port;
      // Closed last but one: an orchestrator sees the worker alive until its jobs are handed back.
      cleanups.splice(1, 0, () => health.close());
    }
    await startJobs(core, true);
    let closing: Promise<void> | undefined;
    const close = () => (closing ??= runCleanups());
    if (options.handleSignals) closeOnSignals(log, close);
    log.info({ jobs: ctx.jobs.backend }, 'worker started');
    return { ctx, healthPort, close };
  } catch (error) {
    await runCleanups();
    throw error;
  }
}
