/**
 * Support requests over HTTP, on PGlite and on PostgreSQL (docs/support.md): stored with a reference,
 * mailed to SUPPORT_EMAIL with the attachment and, only with the user's consent, the recent errors;
 * size caps and the rate limit; a user reads only their own requests. Then error reports (SENTRY_DSN)
 * against a local endpoint that receives Sentry envelopes: an unexpected server error and a crashed job
 * reach it with the request id and release and without the Authorization header, the email or the body;
 * a catalogue 4xx does not; with no DSN nothing is sent.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';
import { simpleParser, type ParsedMail } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { SUPPORT_ATTACHMENT_MAX_BYTES, SUPPORT_MESSAGE_MAX, SUPPORT_REFERENCE_PATTERN, SUPPORT_SUBJECT_MAX, type SupportDiagnostics } from '@sheaf/shared';
import { readOutbox, readOutboxMail } from '../src/adapters/mail/outbox.ts';
import { productVersion } from '../src/http/meta.ts';
import { supportReport, supportRequestText } from '../src/modules/support/index.ts';
import { forEachDatabase, startTestServer, type InjectResponse, type TestServer } from './harness.ts';

const OPERATOR = 'helpdesk@operator.example';

interface FormFile {
  name: string;
  bytes: Uint8Array;
  type: string;
}

/** A multipart body of text fields and an optional file (field "file"), as the web app sends it. */
function multipart(fields: Record<string, string>, file?: FormFile): { body: Buffer; contentType: string } {
  const boundary = `----sheaf${randomBytes(8).toString('hex')}`;
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n`), Buffer.from(value, 'utf8'), Buffer.from('\r\n'));
  }
  if (file) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\nContent-Type: ${file.type}\r\n\r\n`), Buffer.from(file.bytes), Buffer.from('\r\n'));
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}

async function sendRequest(server: TestServer, token: string, fields: Record<string, string>, file?: FormFile): Promise<InjectResponse> {
  const { body, contentType } = multipart(fields, file);
  const response = await server.app.inject({ method: 'POST', url: '/v1/support/requests', headers: { authorization: `Bearer ${token}`, 'content-type': contentType }, payload: body });
  const raw = response.rawPayload;
  return {
    status: response.statusCode,
    json: String(response.headers['content-type'] ?? '').includes('json') && raw.length ? JSON.parse(raw.toString('utf8')) : undefined,
    body: new Uint8Array(raw),
    headers: response.headers,
  };
}

const diagnostics: SupportDiagnostics = {
  appVersion: '1.2.3',
  userAgent: 'Mozilla/5.0 (X11; Linux x86_64) TestBrowser/1',
  errors: [
    { at: '2026-01-02T03:04:05.000Z', kind: 'api', code: 'generic/something-wrong', status: 500, call: 'mergeTemplate', requestId: 'req-diag-0001', page: '/wizard/abc' },
    { at: '2026-01-02T03:05:00.000Z', kind: 'render', code: 'TypeError', message: 'x is undefined', page: '/' },
  ],
};

/** Every mail in the outbox to `to`, parsed (attachments included). */
async function mailsTo(server: TestServer, to: string): Promise<ParsedMail[]> {
  const dir = server.config.OUTBOX_DIR;
  const mails: ParsedMail[] = [];
  for (const entry of await readOutbox(dir)) if (entry.to === to) mails.push(await simpleParser(await readOutboxMail(dir, entry)));
  return mails;
}

/** Waits for the operator's mail of `reference` (the job runs after the commit). */
async function operatorMail(server: TestServer, reference: string): Promise<ParsedMail> {
  return vi.waitFor(
    async () => {
      const mail = (await mailsTo(server, OPERATOR)).find((item) => item.subject?.includes(reference));
      expect(mail, `the operator's mail of ${reference}`).toBeDefined();
      return mail!;
    },
    { timeout: 15_000, interval: 50 },
  );
}

forEachDatabase((database) => {
  describe('support requests', () => {
    let server: TestServer;
    beforeAll(async () => {
      server = await startTestServer({ database, config: { SUPPORT_EMAIL: OPERATOR } });
    });
    afterAll(async () => server?.close());

    it('stores a request with a reference and mails the operator the text, the attachment and the consented diagnostics', async () => {
      const user = await server.signUp();
      await server.inject('PATCH', '/users/me', { token: user.token, body: { language: 'de' } });
      const attachment = new TextEncoder().encode('line 1\nthe screenshot would be here\n');
      const sent = await sendRequest(
        server,
        user.token,
        { topic: 'support', subject: 'Merge fails', message: 'My merge stops at row 12.\nWhat can I do?', diagnostics: JSON.stringify(diagnostics) },
        { name: 'notes.txt', bytes: attachment, type: 'text/plain' },
      );
      expect(sent.status, JSON.stringify(sent.json)).toBe(201);
      expect(sent.json.reference).toMatch(SUPPORT_REFERENCE_PATTERN);
      expect(sent.json).toMatchObject({ topic: 'support', subject: 'Merge fails', attachment: { name: 'notes.txt', size: attachment.byteLength }, withDiagnostics: true });

      const mail = await operatorMail(server, sent.json.reference);
      expect(mail.replyTo?.text).toBe(user.email);
      expect(mail.subject).toContain('Merge fails');
      const text = mail.text ?? '';
      expect(text).toContain(`user ${user.uid}`);
      expect(text).toContain(user.email);
      expect(text).toContain('Language: de');
      expect(text).toContain('My merge stops at row 12.');
      expect(text).toContain('req-diag-0001');
      expect(text).toContain('TestBrowser/1');
      expect(mail.attachments).toHaveLength(1);
      expect(mail.attachments[0]!.filename).toBe('notes.txt');
      expect(Buffer.from(mail.attachments[0]!.content).toString('utf8')).toBe('line 1\nthe screenshot would be here\n');

      // Read back: the user's own list and by reference; the operator's command shows it too.
      const list = await server.inject('GET', '/support/requests', { token: user.token });
      expect(list.json.requests.map((request: { reference: string }) => request.reference)).toEqual([sent.json.reference]);
      const one = await server.inject('GET', `/support/requests/${sent.json.reference.toLowerCase()}`, { token: user.token });
      expect(one.status).toBe(200);
      expect(one.json.message).toBe('My merge stops at row 12.\nWhat can I do?');
      expect(await supportReport(server.ctx.db)).toContain(sent.json.reference);
      const shown = await supportRequestText(server.ctx.db, sent.json.reference);
      expect(shown).toContain('req-diag-0001');
      expect(shown).toMatch(/Mailed: \d{4}-/);
    });

    it('sends no diagnostics without consent, and a suggestion keeps its topic and the UI language it was written in', async () => {
      const user = await server.signUp();
      const sent = await sendRequest(server, user.token, { topic: 'improvement', subject: 'Dark mode', message: 'Please add a dark mode.', language: 'fr' });
      expect(sent.status, JSON.stringify(sent.json)).toBe(201);
      expect(sent.json).toMatchObject({ topic: 'improvement', attachment: null, withDiagnostics: false });
      const mail = await operatorMail(server, sent.json.reference);
      expect(mail.subject).toContain('Suggestion');
      expect(mail.text).toContain('Language: fr');
      expect(mail.text).toContain('did not send details of recent errors');
      expect(mail.text).not.toMatch(/request id req-|App version|Browser:/);
      expect(mail.attachments).toHaveLength(0);
    });

    it('refuses texts over their limits, an attachment over 5 MB and blank fields, with catalogue codes', async () => {
      const user = await server.signUp();
      const longSubject = await sendRequest(server, user.token, { subject: 's'.repeat(SUPPORT_SUBJECT_MAX + 1), message: 'hello' });
      expect(longSubject.status).toBe(400);
      expect(longSubject.json).toMatchObject({ code: 'support/subject-too-long', params: { max: SUPPORT_SUBJECT_MAX } });
      // Exactly at the limits is fine.
      const atLimits = await sendRequest(server, user.token, { subject: 's'.repeat(SUPPORT_SUBJECT_MAX), message: 'm'.repeat(SUPPORT_MESSAGE_MAX) });
      expect(atLimits.status, JSON.stringify(atLimits.json)).toBe(201);
      const longMessage = await sendRequest(server, user.token, { subject: 'Hi', message: 'm'.repeat(SUPPORT_MESSAGE_MAX + 1) });
      expect(longMessage.json).toMatchObject({ code: 'support/message-too-long', params: { max: SUPPORT_MESSAGE_MAX } });
      // Past the multipart field limit (64 KB) the message is cut short: still "too long", not a server error.
      const hugeMessage = await sendRequest(server, user.token, { subject: 'Hi', message: 'm'.repeat(100_000) });
      expect(hugeMessage.json).toMatchObject({ code: 'support/message-too-long' });
      const blank = await sendRequest(server, user.token, { subject: '   ', message: 'hello' });
      expect(blank.json).toMatchObject({ code: 'support/subject-required' });
      const noMessage = await sendRequest(server, user.token, { subject: 'Hi', message: '' });
      expect(noMessage.json).toMatchObject({ code: 'support/message-required' });
      const badDiagnostics = await sendRequest(server, user.token, { subject: 'Hi', message: 'hello', diagnostics: '{"errors": "all of them"}' });
      expect(badDiagnostics.status).toBe(400);
      expect(badDiagnostics.json.code).toBe('generic/invalid-input');
      const big = await sendRequest(server, user.token, { subject: 'Hi', message: 'hello' }, { name: 'big.bin', bytes: new Uint8Array(SUPPORT_ATTACHMENT_MAX_BYTES + 1), type: 'application/octet-stream' });
      expect(big.status).toBe(413);
      expect(big.json).toMatchObject({ code: 'support/attachment-too-large', params: { maxMb: 5 } });
      // Only the one accepted request was stored.
      const list = await server.inject('GET', '/support/requests', { token: user.token });
      expect(list.json.requests).toHaveLength(1);
    });

    it('limits each user to 5 requests an hour (429), refused forms not counted, other users unaffected', async () => {
      const user = await server.signUp();
      // Refused for their fields: not counted.
      for (let index = 0; index < 3; index += 1) expect((await sendRequest(server, user.token, { subject: '', message: 'hello' })).status).toBe(400);
      for (let index = 0; index < 5; index += 1) {
        const sent = await sendRequest(server, user.token, { subject: `Question ${index}`, message: 'hello' });
        expect(sent.status, JSON.stringify(sent.json)).toBe(201);
      }
      const refused = await sendRequest(server, user.token, { subject: 'One more', message: 'hello' });
      expect(refused.status).toBe(429);
      expect(refused.json.code).toBe('support/too-many-requests');
      const other = await server.signUp();
      expect((await sendRequest(server, other.token, { subject: 'Mine', message: 'hello' })).status).toBe(201);
      expect((await server.inject('GET', '/support/requests', { token: user.token })).json.requests).toHaveLength(5);
    });

    it('lets a user read only their own requests; another user gets 404', async () => {
      const owner = await server.signUp();
      const stranger = await server.signUp();
      const sent = await sendRequest(server, owner.token, { subject: 'Private', message: 'only mine' });
      expect(sent.status).toBe(201);
      const peek = await server.inject('GET', `/support/requests/${sent.json.reference}`, { token: stranger.token });
      expect(peek.status).toBe(404);
      expect(peek.json.code).toBe('support/not-found');
      expect((await server.inject('GET', '/support/requests', { token: stranger.token })).json.requests).toEqual([]);
      expect((await server.inject('GET', '/support/requests')).status).toBe(401);
      expect((await sendRequest(server, 'not-a-token', { subject: 'x', message: 'y' })).status).toBe(401);
    });
  });

  describe('support requests without SUPPORT_EMAIL', () => {
    let server: TestServer;
    beforeAll(async () => {
      server = await startTestServer({ database });
    });
    afterAll(async () => server?.close());

    it('are stored for `sheaf support` and mailed to nobody', async () => {
      const user = await server.signUp();
      const sent = await sendRequest(server, user.token, { subject: 'Stored only', message: 'hello' });
      expect(sent.status).toBe(201);
      expect(await supportRequestText(server.ctx.db, sent.json.reference)).toContain('Mailed: no');
      const jobs = await server.ctx.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM jobs WHERE kind = 'support-mail'`);
      expect(jobs[0]!.n).toBe(0);
      expect((await readOutbox(server.config.OUTBOX_DIR)).filter((entry) => entry.to !== user.email)).toEqual([]);
    });
  });
});

/** A local stand-in for a Sentry-compatible service: keeps every envelope posted to it. */
interface EnvelopeSink {
  dsn: string;
  envelopes: Array<{ url: string; raw: string; items: unknown[] }>;
  close(): Promise<void>;
}

async function startEnvelopeSink(): Promise<EnvelopeSink> {
  const envelopes: EnvelopeSink['envelopes'] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      let body = Buffer.concat(chunks);
      if (request.headers['content-encoding'] === 'gzip') body = gunzipSync(body);
      const raw = body.toString('utf8');
      const items = raw.split('\n').filter((line) => line.trim()).map((line) => {
        try {
          return JSON.parse(line) as unknown;
        } catch {
          return line;
        }
      });
      envelopes.push({ url: request.url ?? '', raw, items });
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    dsn: `http://publickey@127.0.0.1:${port}/1`,
    envelopes,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A Sentry event as the tests read it. */
interface SentEvent {
  release?: string;
  user?: { id?: string };
  tags?: Record<string, string | number>;
  request?: unknown;
  exception: { values: Array<{ value?: string }> };
}

/** The event items of the envelopes received (Sentry's "event" items). */
function events(sink: EnvelopeSink): Array<{ raw: string; event: SentEvent }> {
  const found: Array<{ raw: string; event: SentEvent }> = [];
  for (const envelope of sink.envelopes) {
    for (let index = 1; index < envelope.items.length; index += 2) {
      const header = envelope.items[index] as { type?: string };
      if (header?.type === 'event') found.push({ raw: envelope.raw, event: envelope.items[index + 1] as SentEvent });
    }
  }
  return found;
}

describe('error reports (SENTRY_DSN)', () => {
  let sink: EnvelopeSink;
  let server: TestServer;
  beforeAll(async () => {
    sink = await startEnvelopeSink();
    server = await startTestServer({ database: 'pglite', config: { SENTRY_DSN: sink.dsn, SUPPORT_EMAIL: OPERATOR } });
  });
  afterAll(async () => {
    await server?.close();
    await sink?.close();
  });

  it('reports an unexpected server error with its request id, release and user id, without the token, email or body', async () => {
    const user = await server.signUp();
    expect(server.ctx.reporter.enabled).toBe(true);
    const put = server.ctx.blobs.put.bind(server.ctx.blobs);
    server.ctx.blobs.put = async () => {
      throw new Error('the disk exploded');
    };
    let response: InjectResponse;
    try {
      response = await sendRequest(
        server,
        user.token,
        { subject: 'Secret subject words', message: 'the body text must stay here' },
        { name: 'contract.txt', bytes: new TextEncoder().encode('FILE-CONTENT-MARKER'), type: 'text/plain' },
      );
    } finally {
      server.ctx.blobs.put = put;
    }
    expect(response.status).toBe(500);
    const requestId = String(response.headers['x-request-id']);
    const [reported] = await vi.waitFor(() => {
      const found = events(sink).filter(({ event }) => event.tags?.request_id === requestId);
      expect(found).toHaveLength(1);
      return found;
    }, { timeout: 10_000, interval: 50 });
    const { raw, event } = reported!;
    expect(sink.envelopes[0]!.url).toContain('/api/1/envelope/');
    expect(event.release).toBe(productVersion());
    expect(event.user).toEqual({ id: user.uid });
    expect(event.tags?.route).toBe('POST /v1/support/requests');
    expect(event.exception.values[0]!.value).toBe('the disk exploded');
    for (const secret of [user.token, user.email, 'Bearer', 'Secret subject words', 'the body text must stay here', 'FILE-CONTENT-MARKER', 'authorization']) {
      expect(raw.toLowerCase(), secret).not.toContain(secret.toLowerCase());
    }
    expect(event.request).toBeUndefined();
  });

  it('reports a job that crashes (the operator mail failing), with the request id that queued it', async () => {
    const user = await server.signUp();
    const send = server.ctx.mailer.send.bind(server.ctx.mailer);
    server.ctx.mailer.send = async () => {
      throw new Error('the relay is down');
    };
    try {
      const sent = await sendRequest(server, user.token, { subject: 'Job crash', message: 'hello' });
      expect(sent.status).toBe(201);
      const requestId = String(sent.headers['x-request-id']);
      await vi.waitFor(() => {
        const found = events(sink).filter(({ event }) => event.tags?.job_kind === 'support-mail' && event.tags?.request_id === requestId);
        expect(found.length).toBeGreaterThan(0);
        expect(found[0]!.event.exception.values[0]!.value).toBe('the relay is down');
      }, { timeout: 15_000, interval: 50 });
    } finally {
      server.ctx.mailer.send = send;
    }
  });

  it('does not report a catalogue error a user can act on (4xx)', async () => {
    const user = await server.signUp();
    await server.ctx.reporter.flush();
    const before = sink.envelopes.length;
    const refused = await sendRequest(server, user.token, { subject: '', message: 'hello' });
    expect(refused.status).toBe(400);
    const missing = await server.inject('GET', '/support/requests/SUP-ZZZZZZ', { token: user.token });
    expect(missing.status).toBe(404);
    expect(await server.ctx.reporter.flush(5000)).toBe(true);
    expect(sink.envelopes.slice(before).filter((envelope) => envelope.raw.includes('"type":"event"'))).toEqual([]);
  });

  it('hands the browser its own DSN through GET /config (null when unset)', async () => {
    expect((await server.inject('GET', '/config')).json.sentryDsnWeb).toBeNull();
  });
});

describe('error reports without SENTRY_DSN', () => {
  let sink: EnvelopeSink;
  let reporting: TestServer;
  let silent: TestServer;
  beforeAll(async () => {
    sink = await startEnvelopeSink();
    // A server that reports runs in the same process: the silent one must not borrow its reporter.
    reporting = await startTestServer({ database: 'pglite', config: { SENTRY_DSN: sink.dsn } });
    silent = await startTestServer({ database: 'pglite', config: { SENTRY_DSN_WEB: 'https://webkey@errors.example.com/7' } });
  });
  afterAll(async () => {
    await silent?.close();
    await reporting?.close();
    await sink?.close();
  });

  it('sends nothing anywhere when a server error happens', async () => {
    expect(silent.ctx.reporter.enabled).toBe(false);
    const user = await silent.signUp();
    const put = silent.ctx.blobs.put.bind(silent.ctx.blobs);
    silent.ctx.blobs.put = async () => {
      throw new Error('the disk exploded');
    };
    try {
      const response = await sendRequest(silent, user.token, { subject: 'x', message: 'y' }, { name: 'a.txt', bytes: new Uint8Array([65]), type: 'text/plain' });
      expect(response.status).toBe(500);
    } finally {
      silent.ctx.blobs.put = put;
    }
    expect(await silent.ctx.reporter.flush()).toBe(true);
    expect(await reporting.ctx.reporter.flush(5000)).toBe(true);
    expect(sink.envelopes).toEqual([]);
  });

  it('gives the browser SENTRY_DSN_WEB and lets the page reach its origin (CSP connect-src)', async () => {
    const config = await silent.inject('GET', '/config');
    expect(config.json.sentryDsnWeb).toBe('https://webkey@errors.example.com/7');
    const page = await silent.app.inject({ method: 'GET', url: '/help', headers: { accept: 'text/html' } });
    const csp = String(page.headers['content-security-policy'] ?? '');
    expect(/connect-src [^;]*https:\/\/errors\.example\.com/.test(csp), csp).toBe(true);
    const reportingPage = await reporting.app.inject({ method: 'GET', url: '/help', headers: { accept: 'text/html' } });
    expect(String(reportingPage.headers['content-security-policy'])).not.toContain('errors.example.com');
  });
});
