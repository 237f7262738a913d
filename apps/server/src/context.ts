import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config.ts';
import type { Db } from './adapters/db/types.ts';
import type { BlobStore } from './adapters/blobs/types.ts';
import type { AccountMailer } from './adapters/mail/types.ts';
import type { Jobs } from './jobs/system.ts';
import type { EventBus } from './events/bus.ts';
import type { BackgroundTasks } from './background.ts';
import type { OfficeConverter } from './adapters/office/index.ts';
import type { StripeClient } from './adapters/payments/stripe.ts';
import type { ErrorReporter } from './adapters/reporting/index.ts';

/** What every module's services receive: the parsed config and the adapters. Built once at boot. */
export interface AppContext {
  config: Config;
  db: Db;
  blobs: BlobStore;
  mailer: AccountMailer;
  jobs: Jobs;
  /** Events modules announce and others subscribe to at boot (events/bus.ts). */
  events: EventBus;
  /** Work started by a request and not awaited by it; the process's close waits for it (background.ts). */
  background: BackgroundTasks;
  /** Word-processor conversions (LibreOffice); its processes start with the first conversion. */
  office: OfficeConverter;
  /** The Stripe client (adapters/payments/stripe.ts); null when STRIPE_SECRET_KEY is unset (billing not configured). */
  stripe: StripeClient | null;
  /** Unexpected errors to the error-reporting service (SENTRY_DSN); does nothing when unset (docs/support.md#error-reports). */
  reporter: ErrorReporter;
  log: FastifyBaseLogger;
}

/** Whom a verified access token names (auth module); a request then runs as a Principal (access/, http/principal.ts). */
export interface AuthUser {
  uid: string;
}
