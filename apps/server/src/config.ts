/**
 * The server's configuration: environment variables parsed ONCE at boot (loadConfig), validated with
 * zod, defaults filled in, and frozen. Nothing else reads process.env. Every variable:
 *
 *   PORT                 HTTP port (3000; 0 = any free port)
 *   HOST                 interface to listen on (127.0.0.1; 0.0.0.0 to accept outside connections)
 *   PUBLIC_URL           the address users reach the app at, used in emailed links (http://localhost:PORT)
 *   DATA_DIR             where embedded data lives: database, files, outbox, secret key (.data)
 *   DATABASE_URL         postgres://... to use a PostgreSQL server; unset = PGlite in DATA_DIR/db;
 *                        memory:// = PGlite in memory (tests; nothing survives a restart)
 *   BLOB_DIR             uploaded and generated files (DATA_DIR/files)
 *   SECRET_KEY           at least 32 characters; signs tokens and encrypts secrets at rest. Unset = one is
 *                        generated on first start, saved to DATA_DIR/secret.key (mode 0600) and reused
 *   SMTP_URL             smtp(s)://user:pass@host:port relay for account mail (password resets); unset =
 *                        mail is written to the local outbox (read it with `sheaf outbox`)
 *   MAIL_FROM            sender of account mail ("Sheaf <no-reply@localhost>")
 *   OUTBOX_DIR           where outbox mail is written (DATA_DIR/outbox)
 *   MIN_RESPONSE_MS      each /v1 response is delayed to at least this long after the request (500)
 *   ACCESS_TOKEN_TTL_S   lifetime of access tokens in seconds (900)
 *   REFRESH_TOKEN_TTL_S  lifetime of refresh tokens in seconds (2592000 = 30 days)
 *   WEB_DIST             the built web app (apps/web/dist of this checkout)
 *   API_HOSTS            comma-separated API base URLs the web client uses as primary and backup
 *                        (empty = the page's own origin)
 *   LOG_LEVEL            fatal, error, warn, info, debug, trace or silent (info)
 *   TRUST_PROXY          true when behind a reverse proxy that sets X-Forwarded-* (false)
 *   MERGE_CONCURRENCY    merges run at the same time by this process (1)
 *   MERGE_RANGE_ROWS     a separate-documents merge of more documents than this is made in ranges of at
 *                        most this many, by every worker at once, and assembled into one ZIP; 0 = never
 *                        (default 2000 where ranges can run side by side: DATABASE_URL set, so other
 *                        workers may share the work, or MERGE_CONCURRENCY > 1; else 0, since one
 *                        worker making ranges one after another only pays for assembling them)
 *   MERGE_WORKER_MEMORY_MB  heap cap of each worker thread that makes a PDF merge's documents; a merge
 *                        that needs more fails with merge/too-complex (2048)
 *   MIN_FREE_MB          new merges and uploads are refused with generic/storage-full while the data
 *                        folder's file system has less than this many MB free, so the database keeps
 *                        room (256; 0 = no floor)
 *   EDITION              web or desktop (web)
 *
 * Email (issue #4):
 *   MAIL_DOMAIN          the product's own mail domain: spoof senders' addresses, bounce (VERP) return
 *                        paths, the SPF include and default MX hosts of domain senders (sheaf.localhost)
 *   INBOUND_SMTP_PORT    port of the bounce listener (2525; 0 = any free port; off = no listener)
 *   INBOUND_SMTP_HOST    interface of the bounce listener (HOST)
 *   MX_HOSTS             the two MX hosts domain senders point their MAIL FROM subdomain at
 *                        (mx1.MAIL_DOMAIN,mx2.MAIL_DOMAIN)
 *   TRACKING_HOST        CNAME target of domain senders' tracking subdomain (host of PUBLIC_URL)
 *   DNS_SERVERS          comma-separated resolvers (ip or ip:port) for DNS verification (system's)
 *   SMTP_ALLOW_PRIVATE_HOSTS  true lets users' SMTP senders reach loopback/private addresses (false;
 *                        the desktop edition and tests set it)
 *   MAIL_CONCURRENCY     SMTP connections one mailing uses at the same time (8)
 *   MAIL_RETRY_BASE_MS   first wait before a message is tried again after a 4xx reply, a lost connection
 *                        or a soft bounce; doubled for each further try (60000)
 *
 * Scale-out (issue #10; docs/deployment.md):
 *   REDIS_URL            redis://host:port/db: jobs go through BullMQ on Redis instead of the database
 *                        table (the jobs table stays the record of each job's state)
 *   S3_ENDPOINT          http(s)://host:port of an S3-compatible store; with S3_BUCKET, S3_ACCESS_KEY_ID
 *                        and S3_SECRET_ACCESS_KEY files go there instead of BLOB_DIR
 *   S3_BUCKET, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY, S3_REGION (us-east-1)
 *   S3_FORCE_PATH_STYLE  true for stores addressed as endpoint/bucket/key (MinIO, s3rver) (false)
 *   S3_PRESIGNED_DOWNLOADS  true: merge results download by a redirect to a 5-minute signed link on
 *                        S3_ENDPOINT, which browsers must then reach; false: through the server (false)
 *
 * Billing and licences (issue #13): STRIPE_*, OFFLINE_PRICE_READING, PRICE_INCREASE_DATE, LICENCE_*;
 * see config-billing.ts.
 *
 * Sign-in with Google, Apple and Microsoft (issue #14; docs/accounts.md#social-sign-in; config-oauth.ts). A
 * provider is offered (its button shown) only when all its settings are set; its issuer is reached on first
 * use, never at boot. The redirect URI to register with it is <PUBLIC_URL>/v1/auth/oauth/<provider>/callback:
 *   GOOGLE_CLIENT_ID, GOOGLE_CLIENT_SECRET  the Google OAuth client
 *   GOOGLE_ISSUER        (https://accounts.google.com)
 *   APPLE_CLIENT_ID      the Services ID of Sign in with Apple, with APPLE_TEAM_ID, APPLE_KEY_ID and
 *                        APPLE_PRIVATE_KEY (the .p8 key: PEM, \n for line breaks allowed, or base64 DER)
 *                        that sign its client secret, a short-lived ES256 JWT made when needed
 *   APPLE_ISSUER         (https://appleid.apple.com)
 *   MICROSOFT_CLIENT_ID, MICROSOFT_CLIENT_SECRET  the Microsoft Entra ID app registration
 *   MICROSOFT_ISSUER     (https://login.microsoftonline.com/common/v2.0: work, school and personal accounts,
 *                        the ID token's issuer naming the user's tenant)
 *   Issuers must be https:// (http:// only on localhost, for a local identity provider).
 *
 * Support and error reports (issue #14; docs/support.md):
 *   SUPPORT_EMAIL        where support requests and suggestions from /help are mailed (with their
 *                        attachment), through the account mailer; unset = they are only stored, and the
 *                        operator reads them with `sheaf support list` / `sheaf support show REF`
 *   SENTRY_DSN           DSN of a Sentry-compatible service: unexpected server errors (500s, crashed jobs)
 *                        are reported there with the request id, release and user id, nothing secret;
 *                        unset = nothing is sent anywhere
 *   SENTRY_DSN_WEB       the DSN the browser reports its own failures to (handed to it by GET /v1/config;
 *                        its origin is added to the CSP's connect-src); unset = the browser sends nothing
 *   SENTRY_ENVIRONMENT   the environment reports are filed under (production)
 *
 * The data check's optional AI review (issue #15; docs/data-check.md#ai-review):
 *   LLM_BASE_URL         base URL of an OpenAI-compatible API, with its version path
 *                        (https://api.openai.com/v1, http://127.0.0.1:11434/v1 for Ollama, ...); unset =
 *                        no AI review, nothing leaves the machine
 *   LLM_MODEL            the model the review asks (required with LLM_BASE_URL)
 *   LLM_API_KEY          sent as the Authorization bearer; a secret, never logged (unset: no header, for
 *                        local servers that need none)
 *   LLM_MAX_CELLS_PER_CHECK  the cost cap: distinct cell values one check may send, all requests together
 *                        (2000); the values past it are not reviewed, and the log says so
 *   LLM_BATCH_CELLS      distinct values per request (200)
 *   LLM_TIMEOUT_MS       how long one request may take; a slower answer ends the AI pass, not the check
 *                        (30000)
 */
import { hkdfSync, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { BillingEnvShape, type BillingConfig } from './config-billing.ts';
import { OAuthEnvShape, oauthConfigOf, oauthConfigProblems, type OAuthConfig } from './config-oauth.ts';

/** The checkout's root (apps/server/src/config.ts -> ../../..). */
export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
const MIN_SECRET_LENGTH = 32;
/** Documents per range of a large merge, where ranges can be made side by side (see MERGE_RANGE_ROWS). */
const DEFAULT_MERGE_RANGE_ROWS = 2000;

const emptyToUndefined = (value: unknown) => (typeof value === 'string' && value.trim() === '' ? undefined : value);
const optionalString = z.preprocess(emptyToUndefined, z.string().trim().optional());
const integer = (min: number, max: number, fallback: number) =>
  z.preprocess(emptyToUndefined, z.coerce.number().int(`must be a whole number`).min(min).max(max).default(fallback));
const url = z.preprocess(emptyToUndefined, z.url('must be a URL such as http://host:port').optional());
const boolean = z.preprocess((value) => {
  const text = emptyToUndefined(value);
  if (typeof text !== 'string') return text;
  if (/^(true|1|yes|on)$/i.test(text.trim())) return true;
  if (/^(false|0|no|off)$/i.test(text.trim())) return false;
  return text;
}, z.boolean('must be true or false').default(false));
const hostList = z.preprocess((value) => {
  if (Array.isArray(value)) return value;
  const text = emptyToUndefined(value);
  return typeof text === 'string' ? text.split(',').map((item) => item.trim()).filter(Boolean) : [];
}, z.array(z.url('must be a comma-separated list of URLs')));

const hostNames = z.preprocess((value) => {
  const text = emptyToUndefined(value);
  return typeof text === 'string' ? text.split(',').map((item) => item.trim()).filter(Boolean) : undefined;
}, z.array(z.string().regex(/^[a-z0-9.-]+$/i, 'must be a comma-separated list of host names')).length(2, 'must name two hosts').optional());

const EnvSchema = z.object({
  PORT: integer(0, 65_535, 3000),
  HOST: z.preprocess(emptyToUndefined, z.string().default('127.0.0.1')),
  PUBLIC_URL: url,
  DATA_DIR: z.preprocess(emptyToUndefined, z.string().default('.data')),
  DATABASE_URL: z.preprocess(
    emptyToUndefined,
    z.string().regex(/^(postgres(ql)?:\/\/|memory:\/\/$)/, 'must start with postgres:// (or be memory://)').optional(),
  ),
  BLOB_DIR: optionalString,
  SECRET_KEY: z.preprocess(emptyToUndefined, z.string().min(MIN_SECRET_LENGTH, `must be at least ${MIN_SECRET_LENGTH} characters`).optional()),
  SMTP_URL: z.preprocess(emptyToUndefined, z.string().regex(/^smtps?:\/\//, 'must start with smtp:// or smtps://').optional()),
  MAIL_FROM: z.preprocess(emptyToUndefined, z.string().default('Sheaf <no-reply@localhost>')),
  OUTBOX_DIR: optionalString,
  MIN_RESPONSE_MS: integer(0, 60_000, 500),
  ACCESS_TOKEN_TTL_S: integer(10, 86_400, 900),
  REFRESH_TOKEN_TTL_S: integer(60, 31_536_000, 2_592_000),
  WEB_DIST: optionalString,
  API_HOSTS: hostList,
  LOG_LEVEL: z.preprocess(emptyToUndefined, z.enum(LOG_LEVELS, `must be one of ${LOG_LEVELS.join(', ')}`).default('info')),
  TRUST_PROXY: boolean,
  MERGE_CONCURRENCY: integer(1, 64, 1),
  MERGE_RANGE_ROWS: z.preprocess(emptyToUndefined, z.coerce.number().int('must be a whole number').min(0).max(1_000_000).optional()),
  MERGE_WORKER_MEMORY_MB: integer(16, 65_536, 2048),
  MIN_FREE_MB: integer(0, 1_000_000, 256),
  EDITION: z.preprocess(emptyToUndefined, z.enum(['web', 'desktop'], 'must be web or desktop').default('web')),
  MAIL_DOMAIN: z.preprocess(emptyToUndefined, z.string().regex(/^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9-]{2,63}$/i, 'must be a domain name such as mail.example.com').default('sheaf.localhost')),
  INBOUND_SMTP_PORT: z.preprocess(
    (value) => (typeof value === 'string' && /^\s*off\s*$/i.test(value) ? null : emptyToUndefined(value)),
    z.coerce.number().int('must be a whole number or off').min(0).max(65_535).nullable().default(2525),
  ),
  INBOUND_SMTP_HOST: optionalString,
  MX_HOSTS: hostNames,
  TRACKING_HOST: optionalString,
  DNS_SERVERS: z.preprocess((value) => {
    if (Array.isArray(value)) return value;
    const text = emptyToUndefined(value);
    return typeof text === 'string' ? text.split(',').map((item) => item.trim()).filter(Boolean) : [];
  }, z.array(z.string().regex(/^(\d{1,3}(\.\d{1,3}){3}|\[[0-9a-f:]+\]|[0-9a-f:]+)(:\d{1,5})?$/i, 'must be a comma-separated list of IP addresses (ip or ip:port)'))),
  SMTP_ALLOW_PRIVATE_HOSTS: boolean,
  MAIL_CONCURRENCY: integer(1, 64, 8),
  MAIL_RETRY_BASE_MS: integer(10, 86_400_000, 60_000),
  REDIS_URL: z.preprocess(emptyToUndefined, z.string().regex(/^rediss?:\/\//, 'must start with redis:// or rediss://').optional()),
  S3_ENDPOINT: url,
  S3_BUCKET: optionalString,
  S3_ACCESS_KEY_ID: optionalString,
  S3_SECRET_ACCESS_KEY: optionalString,
  S3_REGION: z.preprocess(emptyToUndefined, z.string().default('us-east-1')),
  S3_FORCE_PATH_STYLE: boolean,
  S3_PRESIGNED_DOWNLOADS: boolean,
  // Billing and licences (config-billing.ts)
  ...BillingEnvShape,
  // Sign-in with Google, Apple and Microsoft (config-oauth.ts)
  ...OAuthEnvShape,
  // Support and error reports
  SUPPORT_EMAIL: z.preprocess(emptyToUndefined, z.email('must be an email address').optional()),
  SENTRY_DSN: z.preprocess(emptyToUndefined, z.url({ protocol: /^https?$/, error: 'must be a DSN such as https://key@host/1' }).optional()),
  SENTRY_DSN_WEB: z.preprocess(emptyToUndefined, z.url({ protocol: /^https?$/, error: 'must be a DSN such as https://key@host/1' }).optional()),
  SENTRY_ENVIRONMENT: z.preprocess(emptyToUndefined, z.string().max(64).default('production')),
  // The data check's AI review
  LLM_BASE_URL: z.preprocess(emptyToUndefined, z.url({ protocol: /^https?$/, error: 'must be a URL such as https://api.openai.com/v1' }).optional()),
  LLM_MODEL: optionalString,
  LLM_API_KEY: optionalString,
  LLM_MAX_CELLS_PER_CHECK: integer(1, 1_000_000, 2000),
  LLM_BATCH_CELLS: integer(1, 10_000, 200),
  LLM_TIMEOUT_MS: integer(100, 600_000, 30_000),
});

/** Every environment variable the server reads (deployment manifests are checked against it). */
export const SETTING_NAMES: readonly string[] = Object.freeze(Object.keys(EnvSchema.shape));

export interface Config extends BillingConfig, OAuthConfig {
  readonly PORT: number;
  readonly HOST: string;
  readonly PUBLIC_URL: string;
  /** Absolute. */
  readonly DATA_DIR: string;
  /** postgres://..., memory://, or undefined for PGlite in DATA_DIR/db. */
  readonly DATABASE_URL: string | undefined;
  readonly BLOB_DIR: string;
  readonly SECRET_KEY: string;
  readonly SMTP_URL: string | undefined;
  readonly MAIL_FROM: string;
  readonly OUTBOX_DIR: string;
  readonly MIN_RESPONSE_MS: number;
  readonly ACCESS_TOKEN_TTL_S: number;
  readonly REFRESH_TOKEN_TTL_S: number;
  readonly WEB_DIST: string;
  readonly API_HOSTS: readonly string[];
  readonly LOG_LEVEL: (typeof LOG_LEVELS)[number];
  readonly TRUST_PROXY: boolean;
  readonly MERGE_CONCURRENCY: number;
  readonly MERGE_RANGE_ROWS: number;
  /** Heap cap of each merge worker thread, in MB (docs/merging.md#threads). */
  readonly MERGE_WORKER_MEMORY_MB: number;
  /** Free-space floor of the data folder, in MB (0: none). */
  readonly MIN_FREE_MB: number;
  readonly EDITION: 'web' | 'desktop';
  readonly MAIL_DOMAIN: string;
  /** null: no bounce listener. */
  readonly INBOUND_SMTP_PORT: number | null;
  readonly INBOUND_SMTP_HOST: string;
  readonly MX_HOSTS: readonly [string, string];
  readonly TRACKING_HOST: string;
  readonly DNS_SERVERS: readonly string[];
  readonly SMTP_ALLOW_PRIVATE_HOSTS: boolean;
  readonly MAIL_CONCURRENCY: number;
  readonly MAIL_RETRY_BASE_MS: number;
  /** Set: jobs run through BullMQ on this Redis. */
  readonly REDIS_URL: string | undefined;
  /** Set (with bucket and keys): files live in this S3-compatible store instead of BLOB_DIR. */
  readonly S3_ENDPOINT: string | undefined;
  readonly S3_BUCKET: string | undefined;
  readonly S3_ACCESS_KEY_ID: string | undefined;
  readonly S3_SECRET_ACCESS_KEY: string | undefined;
  readonly S3_REGION: string;
  readonly S3_FORCE_PATH_STYLE: boolean;
  /** Merge results download straight from the bucket (a redirect to a signed link). */
  readonly S3_PRESIGNED_DOWNLOADS: boolean;
  /** Set: support requests are mailed here; unset: stored only (docs/support.md). */
  readonly SUPPORT_EMAIL: string | undefined;
  /** Set: unexpected server errors are reported to this Sentry-compatible DSN. */
  readonly SENTRY_DSN: string | undefined;
  /** Set: the browser reports its failures to this DSN (GET /config). */
  readonly SENTRY_DSN_WEB: string | undefined;
  readonly SENTRY_ENVIRONMENT: string;
  /** Set (with LLM_MODEL): the data check's AI review asks this OpenAI-compatible API (docs/data-check.md#ai-review). */
  readonly LLM_BASE_URL: string | undefined;
  readonly LLM_MODEL: string | undefined;
  /** Secret: the bearer sent to LLM_BASE_URL, never logged. */
  readonly LLM_API_KEY: string | undefined;
  /** The cost cap: distinct cell values one check sends at most. */
  readonly LLM_MAX_CELLS_PER_CHECK: number;
  readonly LLM_BATCH_CELLS: number;
  readonly LLM_TIMEOUT_MS: number;
  /** HKDF-SHA256 sub-key of SECRET_KEY for signing tokens and links (32 bytes). */
  readonly jwtKey: Uint8Array;
  /** HKDF-SHA256 sub-key of SECRET_KEY for encrypting secrets at rest (32 bytes). */
  readonly encryptionKey: Uint8Array;
}

/** Values a caller (tests, `sheaf serve --port`) sets over the environment's. */
export type ConfigOverrides = Partial<Omit<Config, 'jwtKey' | 'encryptionKey'>>;

/** Every bad variable at once, one per line, so an operator fixes them in one go. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((line) => `  ${line}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** Parses the environment (and overrides) into a frozen Config; throws ConfigError listing every problem. */
export function loadConfig(env: Record<string, string | undefined> = process.env, overrides: ConfigOverrides = {}): Config {
  const input: Record<string, unknown> = {};
  for (const key of Object.keys(EnvSchema.shape)) input[key] = env[key];
  for (const [key, value] of Object.entries(overrides)) if (value !== undefined) input[key] = value;
  const parsed = EnvSchema.safeParse(input);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((issue) => `${issue.path.join('.') || '(env)'}: ${issue.message}`));
  }
  const raw = parsed.data;
  const s3 = [raw.S3_ENDPOINT, raw.S3_BUCKET, raw.S3_ACCESS_KEY_ID, raw.S3_SECRET_ACCESS_KEY];
  if (s3.some(Boolean) && !s3.every(Boolean)) {
    throw new ConfigError(['S3_ENDPOINT, S3_BUCKET, S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY: set all four to store files in S3, or none']);
  }
  const oauthProblems = oauthConfigProblems(oauthConfigOf(raw));
  if (oauthProblems.length > 0) throw new ConfigError(oauthProblems);
  if (raw.LLM_BASE_URL && !raw.LLM_MODEL) throw new ConfigError(['LLM_MODEL: set it with LLM_BASE_URL (the model the AI review asks)']);
  const dataDir = path.resolve(raw.DATA_DIR);
  const secretKey = raw.SECRET_KEY ?? loadOrCreateSecretKey(dataDir);
  const publicUrl = (raw.PUBLIC_URL ?? `http://localhost:${raw.PORT}`).replace(/\/+$/, '');
  const mailDomain = raw.MAIL_DOMAIN.toLowerCase();
  const config: Config = {
    ...raw,
    MERGE_RANGE_ROWS: raw.MERGE_RANGE_ROWS ?? (raw.DATABASE_URL?.startsWith('postgres') || raw.MERGE_CONCURRENCY > 1 ? DEFAULT_MERGE_RANGE_ROWS : 0),
    PUBLIC_URL: publicUrl,
    MAIL_DOMAIN: mailDomain,
    INBOUND_SMTP_HOST: raw.INBOUND_SMTP_HOST ?? raw.HOST,
    MX_HOSTS: Object.freeze((raw.MX_HOSTS ?? [`mx1.${mailDomain}`, `mx2.${mailDomain}`]).map((host) => host.toLowerCase())) as unknown as readonly [string, string],
    TRACKING_HOST: raw.TRACKING_HOST ?? new URL(publicUrl).hostname,
    DNS_SERVERS: Object.freeze([...raw.DNS_SERVERS]),
    // The desktop edition's SMTP server is usually on the user's own network.
    SMTP_ALLOW_PRIVATE_HOSTS: raw.SMTP_ALLOW_PRIVATE_HOSTS || raw.EDITION === 'desktop',
    DATA_DIR: dataDir,
    DATABASE_URL: raw.DATABASE_URL,
    SMTP_URL: raw.SMTP_URL,
    REDIS_URL: raw.REDIS_URL,
    S3_ENDPOINT: raw.S3_ENDPOINT,
    S3_BUCKET: raw.S3_BUCKET,
    S3_ACCESS_KEY_ID: raw.S3_ACCESS_KEY_ID,
    S3_SECRET_ACCESS_KEY: raw.S3_SECRET_ACCESS_KEY,
    STRIPE_SECRET_KEY: raw.STRIPE_SECRET_KEY,
    STRIPE_WEBHOOK_SECRET: raw.STRIPE_WEBHOOK_SECRET,
    STRIPE_PUBLISHABLE_KEY: raw.STRIPE_PUBLISHABLE_KEY,
    STRIPE_API_URL: raw.STRIPE_API_URL.replace(/\/+$/, ''),
    STRIPE_PRICE_IDS: Object.freeze(raw.STRIPE_PRICE_IDS),
    LICENCE_SIGNING_KEY: raw.LICENCE_SIGNING_KEY,
    LICENCE_PUBLIC_KEY: raw.LICENCE_PUBLIC_KEY,
    SUPPORT_EMAIL: raw.SUPPORT_EMAIL,
    SENTRY_DSN: raw.SENTRY_DSN,
    SENTRY_DSN_WEB: raw.SENTRY_DSN_WEB,
    ...oauthConfigOf(raw),
    LLM_BASE_URL: raw.LLM_BASE_URL?.replace(/\/+$/, ''),
    LLM_MODEL: raw.LLM_MODEL,
    LLM_API_KEY: raw.LLM_API_KEY,
    BLOB_DIR: path.resolve(dataDir, raw.BLOB_DIR ?? 'files'),
    OUTBOX_DIR: path.resolve(dataDir, raw.OUTBOX_DIR ?? 'outbox'),
    WEB_DIST: path.resolve(REPO_ROOT, raw.WEB_DIST ?? 'apps/web/dist'),
    API_HOSTS: Object.freeze(raw.API_HOSTS.map((host) => host.replace(/\/+$/, ''))),
    SECRET_KEY: secretKey,
    jwtKey: deriveKey(secretKey, 'sheaf/jwt'),
    encryptionKey: deriveKey(secretKey, 'sheaf/encryption'),
  };
  return Object.freeze(config);
}

function deriveKey(secret: string, purpose: string): Uint8Array {
  return new Uint8Array(hkdfSync('sha256', secret, 'sheaf', purpose, 32));
}

/** The generated key of an installation without SECRET_KEY: made once, then reused across restarts. */
function loadOrCreateSecretKey(dataDir: string): string {
  const file = path.join(dataDir, 'secret.key');
  try {
    const existing = readFileSync(file, 'utf8').trim();
    if (existing.length >= MIN_SECRET_LENGTH) return existing;
    throw new ConfigError([`SECRET_KEY: ${file} holds fewer than ${MIN_SECRET_LENGTH} characters`]);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  mkdirSync(dataDir, { recursive: true });
  const key = randomBytes(48).toString('base64url');
  try {
    // 'wx': if another process created it first, use theirs.
    writeFileSync(file, `${key}\n`, { mode: 0o600, flag: 'wx' });
    return key;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return readFileSync(file, 'utf8').trim();
    throw error;
  }
}
