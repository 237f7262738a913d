/**
 * The running server's admin socket: a Unix socket in DATA_DIR (mode 0600, so only the operator's own
 * account can use it) through which `sheaf users ...` acts while the server holds the embedded
 * database (PGlite allows one process; see adapters/db/lock.ts). One JSON request per line, one JSON
 * answer per line.
 */
import { chmod, rm } from 'node:fs/promises';
import { createConnection, createServer, type Server } from 'node:net';
import path from 'node:path';
import { BillingPlanSchema, formatErrorMessage, isSheafError, SheafError, type ErrorCode, type ErrorParams } from '@sheaf/shared';
import { z } from 'zod';
import type { Db } from '../adapters/db/types.ts';
import { setPlanByEmail, usersReport } from '../modules/users/index.ts';
import { supportReport, supportRequestText } from '../modules/support/index.ts';

export const ADMIN_SOCKET = 'sheaf.sock';
export const adminSocketPath = (dataDir: string): string => path.join(dataDir, ADMIN_SOCKET);

const RequestSchema = z.discriminatedUnion('command', [
  z.object({ command: z.literal('users.list') }),
  z.object({ command: z.literal('users.set-plan'), email: z.string().max(320), plan: BillingPlanSchema }),
  z.object({ command: z.literal('support.list'), limit: z.number().int().min(1).max(10_000) }),
  z.object({ command: z.literal('support.show'), reference: z.string().max(40) }),
]);
export type AdminRequest = z.infer<typeof RequestSchema>;

type AdminAnswer = { ok: true; output: string } | { ok: false; message: string; code?: ErrorCode; params?: ErrorParams };
const MAX_REQUEST_BYTES = 16 * 1024;

async function answer(db: Db, line: string): Promise<AdminAnswer> {
  try {
    const request = RequestSchema.parse(JSON.parse(line));
    if (request.command === 'users.list') return { ok: true, output: await usersReport(db) };
    if (request.command === 'support.list') return { ok: true, output: await supportReport(db, request.limit) };
    if (request.command === 'support.show') return { ok: true, output: await supportRequestText(db, request.reference) };
    const change = await setPlanByEmail(db, request.email, request.plan);
    return { ok: true, output: `${change.email}: plan ${change.from} -> ${change.to}\n` };
  } catch (error) {
    if (isSheafError(error)) return { ok: false, message: error.message, code: error.code, params: error.params };
    return { ok: false, message: error instanceof z.ZodError ? 'invalid admin request' : formatErrorMessage('generic/something-wrong') };
  }
}

/** Listens on DATA_DIR/sheaf.sock; the returned function stops listening and removes the socket. */
export async function startAdminSocket(db: Db, dataDir: string): Promise<() => Promise<void>> {
  const file = adminSocketPath(dataDir);
  // A socket file left by a server that died: this process holds the database lock, so it is stale.
  await rm(file, { force: true });
  const server: Server = createServer((socket) => {
    let buffer = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      buffer += chunk;
      if (buffer.length > MAX_REQUEST_BYTES) return socket.destroy();
      const end = buffer.indexOf('\n');
      if (end < 0) return;
      void answer(db, buffer.slice(0, end)).then((reply) => socket.end(`${JSON.stringify(reply)}\n`));
    });
    socket.on('error', () => undefined);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(file, () => resolve());
  });
  await chmod(file, 0o600);
  server.unref();
  return async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await rm(file, { force: true });
  };
}

/**
 * The output of `request` as a running server answers it over its admin socket; null when no server
 * listens there. A refusal is thrown as the server's error.
 */
export async function askRunningServer(dataDir: string, request: AdminRequest): Promise<string | null> {
  const reply = await send(dataDir, request);
  if (!reply) return null;
  if (reply.ok) return reply.output;
  throw reply.code ? new SheafError(reply.code, reply.params) : new Error(reply.message);
}

async function send(dataDir: string, request: AdminRequest): Promise<AdminAnswer | null> {
  return new Promise((resolve, reject) => {
    const socket = createConnection(adminSocketPath(dataDir));
    let reply = '';
    socket.setEncoding('utf8');
    socket.on('connect', () => socket.write(`${JSON.stringify(request)}\n`));
    socket.on('data', (chunk: string) => (reply += chunk));
    socket.on('end', () => {
      try {
        resolve(JSON.parse(reply) as AdminAnswer);
      } catch {
        reject(new Error('the running server gave no answer on its admin socket'));
      }
    });
    socket.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT' || error.code === 'ECONNREFUSED') resolve(null);
      else reject(error);
    });
  });
}
