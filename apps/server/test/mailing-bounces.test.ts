/**
 * Spoof senders mail through the platform relay with a VERP return path per message; delivery reports
 * sent to the service's own inbound SMTP listener move the message: 5.x.x -> hardBounce, 4.x.x or
 * delayed -> softBounce and sent again, delivered -> delivered. The listener refuses every other
 * recipient (no relay). Without a relay, mail is kept in the local outbox and reported as such.
 */
import SMTPConnection from 'nodemailer/lib/smtp-connection';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readOutbox } from '../src/adapters/mail/outbox.ts';
import { emailServiceOf } from '../src/modules/email/index.ts';
import { startTestServer, type TestAccount, type TestServer } from './harness.ts';
import { SINK_USER, emailingTemplate, mailingReport, parseMail, recipientsCsv, startEmailMerge, startMailSink, waitForMailing, waitForReport, type MailSink } from './mail-support.ts';
import { setPlan } from './merge-support.ts';
import { latestCode } from './senders-support.ts';

const MAIL_DOMAIN = 'mail.sheaf.test';

/** Sends one mail to the inbound listener; resolves with the accepted recipients or rejects with the reply. */
async function deliverTo(port: number, to: string[], raw: string): Promise<{ accepted: string[]; rejected: string[] }> {
  const connection = new SMTPConnection({ host: '127.0.0.1', port, ignoreTLS: true });
  await new Promise<void>((resolve, reject) => {
    connection.once('error', reject);
    connection.connect(() => resolve());
  });
  try {
    return await new Promise((resolve, reject) => connection.send({ from: '', to }, raw, (error, info) => (error ? reject(error) : resolve(info))));
  } finally {
    connection.quit();
  }
}

function dsn(messageId: string, action: string, status: string, diagnostic: string): string {
  return [
    'From: Mail Delivery System <MAILER-DAEMON@mx.example.com>',
    `To: bounce+${messageId}@${MAIL_DOMAIN}`,
    'Subject: Delivery Status Notification',
    'MIME-Version: 1.0',
    'Content-Type: multipart/report; report-type=delivery-status; boundary="b1"',
    '',
    '--b1',
    'Content-Type: text/plain',
    '',
    'This is a delivery report.',
    '--b1',
    'Content-Type: message/delivery-status',
    '',
    'Reporting-MTA: dns; mx.example.com',
    '',
    'Final-Recipient: rfc822; someone@example.com',
    `Action: ${action}`,
    `Status: ${status}`,
    `Diagnostic-Code: smtp; ${diagnostic}`,
    '',
    '--b1--',
    '',
  ].join('\r\n');
}

describe('bounces (pglite)', () => {
  let server: TestServer;
  let relay: MailSink;
  let user: TestAccount;
  let senderId: string;
  let inboundPort: number;

  beforeAll(async () => {
    relay = await startMailSink();
    server = await startTestServer({
      database: 'pglite',
      config: { MAIL_DOMAIN, INBOUND_SMTP_PORT: 0, MAIL_RETRY_BASE_MS: 100, SMTP_URL: `smtp://${SINK_USER.user}:${SINK_USER.pass}@127.0.0.1:${relay.port}` },
    });
    inboundPort = emailServiceOf(server.ctx)!.inboundPort!;
    user = await server.signUp();
    await setPlan(server, user.uid, 'Pro');
    const added = await server.inject('POST', '/senders', { token: user.token, body: { method: 'spoof', email: user.email, identifier: 'Ann Example' } });
    expect(added.status, JSON.stringify(added.json)).toBe(201);
    senderId = added.json.sender.id;
    const codeMail = await parseMail(relay.accepted.at(-1)!.raw);
    const code = /^([0-9]{4})$/m.exec(codeMail.text ?? '')![1]!;
    expect((await server.inject('POST', '/senders/verify', { token: user.token, body: { id: senderId, code } })).json.sender.isVerified).toBe(true);
  });
  afterAll(async () => {
    await server?.close();
    await relay?.close();
  });

  it('records hard bounces, retries soft bounces and marks delivered messages from delivery reports', { timeout: 180_000 }, async () => {
    const templateId = await emailingTemplate(server, user.token, senderId, recipientsCsv(3), { fromName: '' });
    const { mergeId } = await startEmailMerge(server, user.token, templateId);
    await waitForMailing(server, user.token, templateId, mergeId);
    const report = await mailingReport(server, user.token, templateId, mergeId);
    expect(report.eventCounts.accepted).toBe(3);
    const [hard, soft, delivered] = report.events.map((event) => event.messageId) as [string, string, string];

    // Each message left with its own return path on the product's domain; From is the spoof address.
    const sent = (id: string) => relay.accepted.filter((mail) => mail.messageId.startsWith(`${id}@`));
    expect(sent(hard)[0]!.envelopeFrom).toBe(`bounce+${hard}@${MAIL_DOMAIN}`);
    const parsed = await parseMail(sent(hard)[0]!.raw);
    expect(parsed.from?.value[0]).toMatchObject({ name: 'Ann Example', address: `${user.email.split('@')[0]}@${MAIL_DOMAIN}` });
    expect(parsed.replyTo?.value[0]?.address).toBe(user.email);

    await deliverTo(inboundPort, [`bounce+${hard}@${MAIL_DOMAIN}`], dsn(hard, 'failed', '5.1.1', '550 5.1.1 User unknown'));
    await deliverTo(inboundPort, [`bounce+${soft}@${MAIL_DOMAIN}`], dsn(soft, 'delayed', '4.2.2', '452 4.2.2 Mailbox full'));
    await deliverTo(inboundPort, [`bounce+${delivered}@${MAIL_DOMAIN}`], dsn(delivered, 'delivered', '2.0.0', '250 2.0.0 OK'));

    const after = await waitForReport(server, user.token, templateId, mergeId, (r) =>
      r.events[0]!.status === 'hardBounce' && r.events[2]!.status === 'delivered' && sent(soft).length === 2 && r.events[1]!.status === 'accepted' && r.mailingStatus === 'completed');
    expect(after.events[0]!.detail).toMatch(/5\.1\.1/);
    // The soft bounce was sent again by itself (the mailing reopened, then completed again).
    const history = await server.inject('GET', `/email-report/messages/${soft}`, { token: user.token });
    expect(history.json.events.map((event: { status: string }) => event.status)).toEqual(['queued', 'accepted', 'softBounce', 'accepted']);
    expect(history.json.events[2].detail).toMatch(/4\.2\.2/);
    expect(sent(hard)).toHaveLength(1);
    expect(sent(delivered)).toHaveLength(1);
    // A report after a hard bounce does not undo it.
    await deliverTo(inboundPort, [`bounce+${hard}@${MAIL_DOMAIN}`], dsn(hard, 'delivered', '2.0.0', '250 OK'));
    expect((await mailingReport(server, user.token, templateId, mergeId)).events[0]!.status).toBe('hardBounce');
  });

  it('takes mail only for the return paths of messages it sent, on a domain it sends from', async () => {
    const [sent] = await server.ctx.db.query<{ id: string }>('SELECT id FROM mail_messages LIMIT 1');
    expect((await deliverTo(inboundPort, [`bounce+${sent!.id}@${MAIL_DOMAIN}`], 'Subject: x\r\n\r\nnot a report\r\n')).accepted).toHaveLength(1);
    for (const to of ['someone@example.com', `bounce+aaaaaaaaaaaaaaaaaaaaaaaa@${MAIL_DOMAIN}`, `postmaster@${MAIL_DOMAIN}`, `bounce+${sent!.id}@elsewhere.example`]) {
      await expect(deliverTo(inboundPort, [to], 'Subject: x\r\n\r\nhello\r\n')).rejects.toMatchObject({ responseCode: 550 });
    }
  });
});

describe('without a mail relay (pglite)', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer({ database: 'pglite', config: { MAIL_DOMAIN } });
  });
  afterAll(async () => server?.close());

  it('keeps the messages in the local outbox and says so in the report', async () => {
    const user = await server.signUp();
    await setPlan(server, user.uid, 'Pro');
    const added = await server.inject('POST', '/senders', { token: user.token, body: { method: 'spoof', email: user.email, identifier: 'Ann' } });
    const code = await latestCode(server, user.email);
    expect((await server.inject('POST', '/senders/verify', { token: user.token, body: { id: added.json.sender.id, code } })).json.sender.isVerified).toBe(true);
    const templateId = await emailingTemplate(server, user.token, added.json.sender.id, recipientsCsv(2));
    const { mergeId } = await startEmailMerge(server, user.token, templateId);
    await waitForMailing(server, user.token, templateId, mergeId);
    const report = await mailingReport(server, user.token, templateId, mergeId);
    expect(report.eventCounts.accepted).toBe(2);
    for (const event of report.events) expect(event.detail).toMatch(/local outbox/);
    const kept = (await readOutbox(server.config.OUTBOX_DIR)).filter((entry) => entry.subject.startsWith('Your letter'));
    expect(kept.map((entry) => entry.to).sort()).toEqual(['person1@example.com', 'person2@example.com']);
  });
});
