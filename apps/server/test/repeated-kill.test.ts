/**
 * Bad luck, repeated: a real `sheaf serve` (embedded defaults) is killed with SIGKILL at random points
 * of one emailed merge, once while the documents are being made and twice while the mail goes out, and
 * started again on the same data each time. In the end the merge is complete with every row's own
 * document once, every recipient got the message (duplicates at most what was in flight at each kill),
 * the owner is charged once, and nothing is left in DATA_DIR/tmp. The kill points come from a seed
 * (printed; KILL_SEED=N repeats a run).
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { freePort } from './free-port.ts';
import { EMAIL_PLACEHOLDERS, recipientsCsv, startMailSink, SINK_USER, type MailSink } from './mail-support.ts';
import { download, getMerge, inTempDir, mergeRequest, TEMPLATE_PDF } from './merge-support.ts';
import { httpServer, startSheaf, type SheafProcess } from './process-support.ts';

const mark = (what: string) => console.info(`repeated-kill: ${what} at ${Math.round(performance.now())} ms`);

const ROWS = 200;
const CONCURRENCY = 3;
const SEED = Number(process.env.KILL_SEED ?? randomBytes(2).readUInt16LE(0));

/** A small seeded generator (mulberry32): the same seed, the same kill points. */
function seeded(seed: number) {
  let state = seed >>> 0;
  return (low: number, high: number) => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    const unit = ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    return low + Math.floor(unit * (high - low + 1));
  };
}

describe('SIGKILL at random points of an emailed merge', () => {
  let sink: MailSink;
  let dataDir: string;
  let env: Record<string, string>;
  let current: SheafProcess | undefined;

  beforeAll(async () => {
    sink = await startMailSink();
    dataDir = await mkdtemp(path.join(tmpdir(), 'sheaf-kills-'));
    env = {
      DATA_DIR: dataDir, HOST: '127.0.0.1', SECRET_KEY: randomBytes(32).toString('base64url'), LOG_LEVEL: 'warn', MIN_RESPONSE_MS: '0',
      SMTP_ALLOW_PRIVATE_HOSTS: 'true', MAIL_CONCURRENCY: String(CONCURRENCY), INBOUND_SMTP_PORT: 'off', MAIL_RETRY_BASE_MS: '100',
    };
  });
  afterAll(async () => {
    if (current && current.child.exitCode === null) current.child.kill('SIGKILL');
    sink?.release();
    await sink?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  async function serve() {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    current = startSheaf(['serve'], { ...env, PORT: String(port), PUBLIC_URL: url }, { compiled: true });
    const server = httpServer(url);
    await vi.waitFor(async () => {
      if (current!.child.exitCode !== null) throw new Error(`sheaf serve exited:\n${current!.output()}`);
      const response = await fetch(`${url}/readyz`).catch(() => undefined);
      if (!response?.ok) throw new Error('not ready yet');
    }, { timeout: 120_000, interval: 100 });
    mark('ready');
    return server;
  }

  async function kill() {
    mark('kill');
    current!.child.kill('SIGKILL');
    await current!.exited;
  }

  it('ends complete: each row once in the ZIP, each recipient mailed, charged once, tmp empty', { timeout: 600_000 }, async () => {
    console.info(`repeated-kill: KILL_SEED=${SEED}`);
    const pick = seeded(SEED);
    let server = await serve();
    const email = `kills-${randomBytes(4).toString('hex')}@example.com`;
    const registered = await server.inject('POST', '/users/register', { body: { firstName: 'K', lastName: 'S', email, password: 'Sheaf-test-passw0rd!', confirmPassword: 'Sheaf-test-passw0rd!' } });
    expect(registered.status, JSON.stringify(registered.json)).toBe(201);
    const token = registered.json.token as string;
    // The embedded database is the running server's: `sheaf users` reaches it through its admin socket.
    const setPlan = startSheaf(['users', 'set-plan', email, 'Enterprise'], env, { compiled: true });
    expect(await setPlan.exited, setPlan.output()).toBe(0);

    const sender = await server.inject('POST', '/senders', { token, body: { method: 'smtp', email: 'sender@example.com', server: '127.0.0.1', port: sink.port, username: SINK_USER.user, password: SINK_USER.pass } });
    expect(sender.json.sender?.isVerified, JSON.stringify(sender.json)).toBe(true);
    const template = await server.inject('POST', '/templates', { token, file: { name: 'Letter.pdf', bytes: TEMPLATE_PDF, type: 'application/pdf' } });
    const templateId = template.json.id as string;
    expect((await server.inject('PATCH', `/templates/${templateId}/placeholders`, { token, body: { placeholders: EMAIL_PLACEHOLDERS } })).status).toBe(200);
    const sheet = await server.inject('POST', `/templates/${templateId}/excel`, { token, file: { name: 'people.csv', bytes: Buffer.from(recipientsCsv(ROWS, (n) => `kill${n}@example.com`)), type: 'text/csv' } });
    expect(sheet.status).toBe(201);
    expect((await server.inject('PATCH', `/templates/${templateId}/email`, {
      token, body: { isActive: true, senderId: sender.json.sender.id, subject: 'Letter {{First}}', content: '<p>Dear {{First}}</p>', recipientsColumn: 'Email' },
    })).status).toBe(200);
    // An owner password: every document costs a key derivation, so the making takes long enough to be hit.
    const request = mergeRequest({ email: { isActive: true }, fileNamePattern: 'Row-{{First}}', passwordProtection: { readPassword: '', modifyPassword: 'Owner123' } });
    const started = await server.inject('POST', `/templates/${templateId}/merge`, { token, body: request });
    expect(started.status, JSON.stringify(started.json)).toBe(202);
    mark('merge started');

    // Kill 1: while the documents are being made.
    const whileMaking = pick(10, ROWS / 2);
    await vi.waitFor(async () => {
      const merge = await getMerge(server, token, templateId, request.mergeId);
      if (merge.status === 'completed') return; // made before the point: the kill lands in the mailing instead
      if (!(merge.status === 'generating' && merge.done >= whileMaking)) throw new Error(`at ${merge.status} ${merge.done}`);
    }, { timeout: 120_000, interval: 10 });
    await kill();
    server = await serve();

    // Kills 2 and 3: while the mail goes out, with messages held in flight at the sink.
    const received = () => sink.accepted.filter((mail) => mail.rcptTo[0]!.startsWith('kill'));
    let mailingKills = 0;
    for (const share of [pick(5, 45), pick(50, 90)]) {
      const point = Math.floor((ROWS * share) / 100);
      await vi.waitFor(() => expect(received().length).toBeGreaterThanOrEqual(point), { timeout: 180_000, interval: 10 });
      sink.pause();
      if (received().length >= ROWS) break;
      await kill();
      mailingKills++;
      sink.release();
      server = await serve();
    }
    sink.release();

    await vi.waitFor(async () => {
      const merge = await getMerge(server, token, templateId, request.mergeId);
      if (merge.mailingStatus !== 'completed') throw new Error(`mailing is ${merge.mailingStatus}, merge ${merge.status} ${merge.done}`);
    }, { timeout: 240_000, interval: 200 });

    mark('mailing completed');
    const merge = await getMerge(server, token, templateId, request.mergeId);
    expect(merge).toMatchObject({ status: 'completed', total: ROWS, done: ROWS });
    const report = await server.inject('GET', `/templates/${templateId}/email/${request.mergeId}`, { token });
    expect(report.json.eventCounts).toMatchObject({ total: ROWS, accepted: ROWS, queued: 0, failed: 0 });
    const perRecipient = new Map<string, number>();
    for (const mail of received()) perRecipient.set(mail.rcptTo[0]!, (perRecipient.get(mail.rcptTo[0]!) ?? 0) + 1);
    expect(perRecipient.size, 'no recipient lost').toBe(ROWS);
    expect(received().length - ROWS, 'duplicates: at most the messages in flight at each kill').toBeLessThanOrEqual(CONCURRENCY * mailingKills);

    // The ZIP: every row's document once (named after its row), and a sample holds its own row's values.
    const zip = await download(server, merge.downloadUrl!);
    expect(zip.status).toBe(200);
    inTempDir((dir) => {
      const file = path.join(dir, 'out.zip');
      writeFileSync(file, zip.bytes);
      const names = execFileSync('unzip', ['-Z1', file], { encoding: 'utf8' }).split('\n').filter(Boolean).sort();
      expect(names).toEqual(Array.from({ length: ROWS }, (_, n) => `Row-Given${n + 1}.pdf`).sort());
      execFileSync('unzip', ['-tq', file]);
      for (const row of [1, pick(2, ROWS - 1), pick(2, ROWS - 1), ROWS]) {
        const pdf = path.join(dir, `Row-Given${row}.pdf`);
        writeFileSync(pdf, execFileSync('unzip', ['-p', file, `Row-Given${row}.pdf`], { maxBuffer: 64 * 1024 * 1024 }));
        execFileSync('qpdf', ['--check', pdf]);
        expect(execFileSync('pdftotext', [pdf, '-'], { encoding: 'utf8' })).toContain(`Given${row}`);
      }
    });

    const me = await server.inject('GET', '/users/me', { token });
    expect(me.json.counter, 'charged once').toBe(ROWS);
    expect(await readdir(path.join(dataDir, 'tmp')).catch(() => [])).toEqual([]);
    expect(await current!.stop()).toBe(0);
  });
});
