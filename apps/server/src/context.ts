import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config.ts';
import type { Db } from './adapters/db/types.ts';
import type { BlobStore } from './adapters/blobs/types.ts';
import type { AccountMailer } from './adapters/mail/types.ts';
import type { JobQueue } from './jobs/types.ts';
import type { EventBus } from './events/bus.ts';

/** What every module's services receive: the parsed config and the adapters. Built once at boot. */
export interface AppContext {
  config: Config;
  db: Db;
  blobs: BlobStore;
  mailer: AccountMailer;
  jobs: JobQueue;
  /** Events modules announce and others subscribe to at boot (events/bus.ts). */
  events: EventBus;
  log: FastifyBaseLogger;
}

/** The signed-in user a private route runs as (from the verified access token). */
export interface AuthUser {
  uid: string;
}
