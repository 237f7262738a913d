/**
 * Real protocol peers of the sender tests: an authoritative DNS server on 127.0.0.1 (dns2, UDP, any
 * free port) that a test fills with records, SMTP servers (smtp-server) that accept or refuse a login,
 * a closed port, and the spoof code read from the server's outbox.
 */
import { createServer as createNetServer } from 'node:net';
import { createRequire } from 'node:module';
import { simpleParser } from 'mailparser';
import { SMTPServer, type SMTPServerOptions } from 'smtp-server';
import { expect } from 'vitest';
import { readOutbox, readOutboxMail } from '../src/adapters/mail/outbox.ts';
import type { TestServer } from './harness.ts';
import { setPlan } from './merge-support.ts';

// dns2 is CommonJS; its ESM entry re-exports the same objects.
const require = createRequire(import.meta.url);
const dns2 = require('dns2') as typeof import('dns2');
const { Packet } = dns2;

export interface DnsZone {
  /** "ip:port" for DNS_SERVERS. */
  server: string;
  /** Replaces the records of `name` of that type (TXT: one entry per record, each a list of strings). */
  set(name: string, type: 'TXT', values: string[][]): void;
  set(name: string, type: 'MX', values: Array<{ exchange: string; priority: number }>): void;
  set(name: string, type: 'CNAME' | 'A' | 'AAAA', values: string[]): void;
  clear(): void;
  /** Questions received ("TYPE name"), to show a look-up really happened. */
  readonly questions: string[];
  close(): Promise<void>;
}

type Values = string[][] | Array<{ exchange: string; priority: number }> | string[];

const TYPE_NAMES = new Map(Object.entries(Packet.TYPE).map(([name, code]) => [code as number, name]));

export async function startDnsZone(): Promise<DnsZone> {
  const records = new Map<string, Values>();
  const questions: string[] = [];
  const key = (name: string, type: string) => `${type} ${name.toLowerCase().replace(/\.$/, '')}`;
  const server = dns2.createServer({
    udp: true,
    handle: (request, send) => {
      const response = Packet.createResponseFromRequest(request);
      for (const question of request.questions) {
        const type = TYPE_NAMES.get(question.type) ?? String(question.type);
        questions.push(key(question.name, type));
        const found = records.get(key(question.name, type));
        if (!found) continue;
        for (const value of found) {
          const base = { name: question.name, type: question.type, class: Packet.CLASS.IN, ttl: 60 };
          if (type === 'TXT') response.answers.push({ ...base, data: value as string[] } as never);
          else if (type === 'MX') response.answers.push({ ...base, ...(value as { exchange: string; priority: number }) } as never);
          else if (type === 'CNAME') response.answers.push({ ...base, domain: value as string } as never);
          else response.answers.push({ ...base, address: value as string } as never);
        }
      }
      // A name without the record: NXDOMAIN-like empty answer (NOERROR, no data) is enough for "pending".
      void send(response);
    },
  });
  const addresses = await server.listen({ udp: { port: 0, address: '127.0.0.1', type: 'udp4' } } as never);
  const { port } = (addresses as unknown as { udp: { port: number } }).udp;
  return {
    server: `127.0.0.1:${port}`,
    set: (name: string, type: string, values: Values) => void records.set(key(name, type), values),
    clear: () => records.clear(),
    questions,
    close: async () => void (await server.close()),
  } as DnsZone;
}

export interface SmtpSink {
  port: number;
  /** Logins tried, in order (user names only). */
  readonly logins: string[];
  /** Raw messages received. */
  readonly messages: string[];
  close(): Promise<void>;
}

/**
 * An SMTP server on 127.0.0.1 without TLS. `accept`: the only user/password it takes; without it every
 * login gets 535 with `rejectText`.
 */
export async function startSmtpSink(options: { accept?: { user: string; pass: string }; rejectText?: string; extra?: Partial<SMTPServerOptions> } = {}): Promise<SmtpSink> {
  const logins: string[] = [];
  const messages: string[] = [];
  const server = new SMTPServer({
    secure: false,
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    authMethods: ['PLAIN', 'LOGIN'],
    logger: false,
    onAuth(auth, _session, callback) {
      logins.push(auth.username ?? '');
      if (options.accept && auth.username === options.accept.user && auth.password === options.accept.pass) return callback(null, { user: auth.username });
      const error = Object.assign(new Error(options.rejectText ?? 'Authentication credentials invalid'), { responseCode: 535 });
      return callback(error);
    },
    onData(stream, _session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        messages.push(Buffer.concat(chunks).toString('utf8'));
        callback();
      });
    },
    ...options.extra,
  });
  server.on('error', () => undefined);
  const port = await new Promise<number>((resolve, reject) => {
    server.listen(0, '127.0.0.1', () => resolve((server.server.address() as { port: number }).port));
    server.server.once('error', reject);
  });
  return { port, logins, messages, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** A port nothing listens on (bound, then released). */
export async function closedPort(): Promise<number> {
  const server = createNetServer();
  const port = await new Promise<number>((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as { port: number }).port)));
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export interface OutboxMail {
  to: string;
  subject: string;
  text: string;
}

/** Mails the server wrote to its outbox, oldest first, parsed. */
export async function outboxMails(server: Pick<TestServer, 'config'>): Promise<OutboxMail[]> {
  const dir = server.config.OUTBOX_DIR;
  const mails: OutboxMail[] = [];
  for (const entry of await readOutbox(dir)) {
    const parsed = await simpleParser(await readOutboxMail(dir, entry));
    mails.push({ to: entry.to, subject: parsed.subject ?? '', text: parsed.text ?? '' });
  }
  return mails;
}

/** The 4-digit code of the latest verification mail sent to `to`. */
export async function latestCode(server: Pick<TestServer, 'config'>, to: string): Promise<string> {
  const mails = (await outboxMails(server)).filter((mail) => mail.to === to);
  expect(mails.length, `a code mail to ${to}`).toBeGreaterThan(0);
  const code = /^([0-9]{4})$/m.exec(mails.at(-1)!.text)?.[1];
  expect(code, mails.at(-1)!.text).toBeDefined();
  return code!;
}

/** An account on `plan` (the way the merge tests set plans). */
export async function accountOn(server: TestServer, plan: string, email?: string) {
  const account = await server.signUp(email);
  await setPlan(server, account.uid, plan);
  return account;
}
