/**
 * Real peers of the mailing tests: an SMTP sink (smtp-server on 127.0.0.1) whose answer depends on the
 * recipient (accept; 451 then accept; 550 at RCPT; 554 at DATA; connection cut after the data, then
 * accept), and helpers that set up an emailing merge through the API: an smtp sender verified
 * against the sink, a template with a spreadsheet of recipients, the saved email settings.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { expect, vi } from 'vitest';
import type { MailingReport, Merge } from '@sheaf/shared';
import type { TestServer } from './harness.ts';
import { mergeRequest, setPlan, templateWithSheet, textPlaceholder, waitForMerge, type MergeServer } from './merge-support.ts';

export const SINK_USER = { user: 'sink-user', pass: 'sink-pass-1' };

/** What the sink does with a recipient, chosen by the address's local part. */
export type Behaviour = 'accept' | 'tempfail-once' | 'reject-rcpt' | 'reject-data' | 'drop-once';

export function behaviourOf(address: string): Behaviour {
  const local = address.split('@')[0]!;
  if (local.startsWith('temp')) return 'tempfail-once';
  if (local.startsWith('unknown')) return 'reject-rcpt';
  if (local.startsWith('spam')) return 'reject-data';
  if (local.startsWith('drop')) return 'drop-once';
  return 'accept';
}

export interface ReceivedMail {
  envelopeFrom: string;
  rcptTo: string[];
  raw: Buffer;
  messageId: string;
  dsn: unknown;
}

export interface MailSink {
  port: number;
  /** Messages the sink accepted (answered 250 to), in order. */
  readonly accepted: ReceivedMail[];
  /** DATA transactions refused or cut, by recipient (for "the first try failed"). */
  readonly refusedData: Map<string, number>;
  /** Makes every further DATA wait until `release()` (to hold a mailing mid-way). */
  pause(): void;
  release(): void;
  close(): Promise<void>;
}

export async function startMailSink(): Promise<MailSink> {
  const accepted: ReceivedMail[] = [];
  const refusedData = new Map<string, number>();
  let gate: Promise<void> | undefined;
  let open: (() => void) | undefined;
  const server: SMTPServer = new SMTPServer({
    secure: false,
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    authMethods: ['PLAIN', 'LOGIN'],
    hideDSN: false,
    size: 50 * 1024 * 1024,
    logger: false,
    onAuth(auth, _session, callback) {
      if (auth.username === SINK_USER.user && auth.password === SINK_USER.pass) return callback(null, { user: auth.username });
      callback(Object.assign(new Error('Authentication credentials invalid'), { responseCode: 535 }));
    },
    onRcptTo(address, _session, callback) {
      if (behaviourOf(address.address) === 'reject-rcpt') return callback(Object.assign(new Error('5.1.1 User unknown'), { responseCode: 550 }));
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', async () => {
        await gate;
        const raw = Buffer.concat(chunks);
        const recipients = session.envelope.rcptTo.map((rcpt) => rcpt.address);
        const first = recipients[0] ?? '';
        const tries = refusedData.get(first) ?? 0;
        const behaviour = behaviourOf(first);
        if (behaviour === 'reject-data') return callback(Object.assign(new Error('5.7.1 Message refused as spam'), { responseCode: 554 }));
        if (behaviour === 'tempfail-once' && tries === 0) {
          refusedData.set(first, 1);
          return callback(Object.assign(new Error('4.3.0 Try again later'), { responseCode: 451 }));
        }
        if (behaviour === 'drop-once' && tries === 0) {
          refusedData.set(first, 1);
          // Cut the connection after the data, before any reply: the message was not accepted.
          for (const connection of (server as unknown as { connections: Set<{ id: string; _socket: { destroy(): void } }> }).connections) {
            if (connection.id === session.id) connection._socket.destroy();
          }
          return;
        }
        const messageId = /^Message-ID:\s*<([^>]+)>/im.exec(raw.toString('latin1'))?.[1] ?? '';
        const dsn = { envelope: session.envelope.dsn, recipients: session.envelope.rcptTo.map((rcpt) => (rcpt as { dsn?: unknown }).dsn) };
        accepted.push({ envelopeFrom: session.envelope.mailFrom ? session.envelope.mailFrom.address : '', rcptTo: recipients, raw, messageId, dsn });
        callback(null, `2.0.0 Ok: queued as ${accepted.length}`);
      });
    },
  });
  server.on('error', () => undefined);
  const port = await new Promise<number>((resolve, reject) => {
    server.listen(0, '127.0.0.1', () => resolve((server.server.address() as { port: number }).port));
    server.server.once('error', reject);
  });
  return {
    port,
    accepted,
    refusedData,
    pause() {
      gate ??= new Promise<void>((resolve) => (open = resolve));
    },
    release() {
      open?.();
      gate = undefined;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** An smtp sender verified live against the sink, through the API (the account must be on Enterprise). */
export async function smtpSender(server: TestServer, token: string, sink: Pick<MailSink, 'port'>, email = 'sender@example.com'): Promise<string> {
  const response = await server.inject('POST', '/senders', {
    token,
    body: { method: 'smtp', email, server: '127.0.0.1', port: sink.port, username: SINK_USER.user, password: SINK_USER.pass },
  });
  expect(response.status, JSON.stringify(response.json)).toBe(201);
  expect(response.json.sender.isVerified).toBe(true);
  return response.json.sender.id as string;
}

/** A CSV of `count` recipients: First, Last, Email (local part from `address(n)`). */
export function recipientsCsv(count: number, address: (n: number) => string = (n) => `person${n}@example.com`): string {
  const lines = ['First,Last,Email'];
  for (let n = 1; n <= count; n++) lines.push(`Given${n},Family${n},${address(n)}`);
  return `${lines.join('\n')}\n`;
}

export const EMAIL_PLACEHOLDERS = [textPlaceholder('first', 'First', 0.2), textPlaceholder('last', 'Last', 0.3)];

export interface EmailingTemplate {
  templateId: string;
  senderId: string;
}

/** A template with the recipients' spreadsheet and complete email settings. */
export async function emailingTemplate(server: TestServer, token: string, senderId: string, csv: string, settings: Record<string, unknown> = {}): Promise<string> {
  const templateId = await templateWithSheet(server, token, csv, EMAIL_PLACEHOLDERS, 'Letter.pdf');
  const saved = await server.inject('PATCH', `/templates/${templateId}/email`, {
    token,
    body: {
      isActive: true,
      senderId,
      fromName: 'Billing Team',
      subject: 'Your letter, {{First}} {{Last}}',
      content: '<p>Dear {{First}},</p><p>your letter is attached. <a href="https://example.com/info?a=1&amp;b=2">Read more</a></p>',
      recipientsColumn: 'Email',
      ...settings,
    },
  });
  expect(saved.status, JSON.stringify(saved.json)).toBe(200);
  return templateId;
}

export async function startEmailMerge(server: TestServer, token: string, templateId: string, overrides: Record<string, unknown> = {}) {
  const request = mergeRequest({ email: { isActive: true }, ...overrides });
  const response = await server.inject('POST', `/templates/${templateId}/merge`, { token, body: request });
  return { mergeId: request.mergeId, response };
}

export async function mailingReport(server: MergeServer, token: string, templateId: string, mergeId: string): Promise<MailingReport> {
  const response = await server.inject('GET', `/templates/${templateId}/email/${mergeId}`, { token });
  expect(response.status, JSON.stringify(response.json)).toBe(200);
  return response.json as MailingReport;
}

/** Waits until the merge's mailing has ended (completed, cancelled or error). */
export async function waitForMailing(server: MergeServer, token: string, templateId: string, mergeId: string, until: (merge: Merge) => boolean = (merge) => ['completed', 'cancelled', 'error'].includes(merge.mailingStatus ?? ''), timeout = 60_000): Promise<Merge> {
  return waitForMerge(server, token, templateId, mergeId, until, timeout);
}

/** Waits for a condition on the report (e.g. a status a bounce brings). */
export async function waitForReport(server: MergeServer, token: string, templateId: string, mergeId: string, until: (report: MailingReport) => boolean, timeout = 30_000): Promise<MailingReport> {
  return vi.waitFor(async () => {
    const report = await mailingReport(server, token, templateId, mergeId);
    if (!until(report)) throw new Error(`report not there yet: ${JSON.stringify(report.eventCounts)}`);
    return report;
  }, { timeout, interval: 50 });
}

export async function parseMail(raw: Buffer): Promise<ParsedMail> {
  return simpleParser(raw);
}

/** The text of a PDF (poppler's pdftotext), after qpdf --check. */
export function pdfText(pdf: Buffer): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'sheaf-mail-pdf-'));
  try {
    const file = path.join(dir, 'doc.pdf');
    writeFileSync(file, pdf);
    execFileSync('qpdf', ['--check', file]);
    return execFileSync('pdftotext', [file, '-'], { encoding: 'utf8' });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function enterprise(server: TestServer, uid: string): Promise<void> {
  await setPlan(server, uid, 'Enterprise');
}
