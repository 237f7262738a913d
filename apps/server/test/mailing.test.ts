/**
 * Sending for real: an smtp sender verified against a local SMTP sink, a merge that emails each row's
 * document, and the sink's answers per recipient (accept; 451 then accept; 550 at RCPT; 554 at DATA;
 * connection cut after the data, then accept). The report shows each outcome, and what the sink
 * accepted proves every message went once, with its own row's PDF and the row's values filled in.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { forEachDatabase, startTestServer, type TestAccount, type TestDatabase, type TestServer } from './harness.ts';
import {
  emailingTemplate, enterprise, mailingReport, waitForReport, parseMail, pdfText, recipientsCsv, smtpSender, startEmailMerge, startMailSink, waitForMailing,
  type MailSink,
} from './mail-support.ts';
import { outboxMails } from './senders-support.ts';

const ROWS = 12;
/** Row n's address: a few rows get the sink's special treatment. */
const address = (n: number) => ({ 3: 'temp3@example.com', 5: 'unknown5@example.com', 7: 'spam7@example.com', 9: 'drop9@example.com', 11: 'not an address' } as Record<number, string>)[n] ?? `person${n}@example.com`;

forEachDatabase((database: TestDatabase) => {
  describe('mailing', () => {
    let server: TestServer;
    let sink: MailSink;
    let user: TestAccount;
    let senderId: string;

    beforeAll(async () => {
      sink = await startMailSink();
      server = await startTestServer({ database, config: { SMTP_ALLOW_PRIVATE_HOSTS: true, MAIL_RETRY_BASE_MS: 100, MAIL_CONCURRENCY: 3 } });
      user = await server.signUp();
      await enterprise(server, user.uid);
      senderId = await smtpSender(server, user.token, sink);
    });
    afterAll(async () => {
      await server?.close();
      await sink?.close();
    });

    it('sends each row its own document once, and the report tells what happened to each', async () => {
      const templateId = await emailingTemplate(server, user.token, senderId, recipientsCsv(ROWS, address), { ccColumn: null, bccColumn: null });
      const { mergeId, response } = await startEmailMerge(server, user.token, templateId);
      expect(response.status, JSON.stringify(response.json)).toBe(202);
      expect(response.json.mailingStatus).toBe('queued');
      const merge = await waitForMailing(server, user.token, templateId, mergeId);
      expect(merge).toMatchObject({ status: 'completed', mailingStatus: 'completed' });

      const report = await mailingReport(server, user.token, templateId, mergeId);
      expect(report).toMatchObject({ service: 'smtp', isCancelled: false, mailingStatus: 'completed', error: null });
      const statusOf = (row: number) => report.events.find((event) => event.rowNumber === row + 1)!;
      expect(report.events).toHaveLength(ROWS);
      expect(statusOf(3)).toMatchObject({ status: 'accepted', recipient: 'temp3@example.com' });
      expect(statusOf(5)).toMatchObject({ status: 'hardBounce' });
      expect(statusOf(5).detail).toMatch(/User unknown/);
      expect(statusOf(7)).toMatchObject({ status: 'failed' });
      expect(statusOf(7).detail).toMatch(/refused as spam/);
      expect(statusOf(9)).toMatchObject({ status: 'accepted' });
      expect(statusOf(11)).toMatchObject({ status: 'failed', recipient: 'not an address' });
      expect(statusOf(11).detail).toMatch(/Not a valid email address/);
      expect(statusOf(1)).toMatchObject({ status: 'accepted', subject: 'Your letter, Given1 Family1' });
      expect(statusOf(1).detail).toMatch(/^250 2\.0\.0 Ok/);
      expect(report.eventCounts).toMatchObject({ total: ROWS, accepted: ROWS - 3, hardBounce: 1, failed: 2, queued: 0, cancelled: 0 });

      // The sink's side: the retried and the cut messages were refused once and accepted once; nothing twice.
      expect(sink.refusedData.get('temp3@example.com')).toBe(1);
      expect(sink.refusedData.get('drop9@example.com')).toBe(1);
      const mine = sink.accepted.filter((mail) => report.events.some((event) => mail.messageId.startsWith(`${event.messageId}@`)));
      expect(mine).toHaveLength(ROWS - 3);
      expect(new Set(mine.map((mail) => mail.messageId)).size).toBe(mine.length);

      // Each message: its row's values in the subject, its own row's PDF with the name it has in the ZIP.
      for (const mail of mine) {
        const parsed = await parseMail(mail.raw);
        const row = Number(/Given(\d+)/.exec(parsed.subject ?? '')![1]);
        expect(parsed.subject).toBe(`Your letter, Given${row} Family${row}`);
        expect(mail.rcptTo).toEqual([address(row)]);
        expect(parsed.from?.value[0]).toMatchObject({ name: 'Billing Team', address: 'sender@example.com' });
        expect(mail.envelopeFrom).toBe('sender@example.com');
        const pdfs = parsed.attachments.filter((attachment) => attachment.contentType === 'application/pdf');
        expect(pdfs).toHaveLength(1);
        expect(pdfs[0]!.filename).toMatch(/\.pdf$/);
        const text = pdfText(pdfs[0]!.content);
        expect(text).toContain(`Given${row}`);
        expect(text).toContain(`Family${row}`);
        expect(parsed.text).toContain(`Dear Given${row},`);
        expect(parsed.html).toContain(`Dear Given${row},`);
        // Delivery reports asked for: success, failure and delay.
        expect(JSON.stringify(mail.dsn)).toMatch(/SUCCESS.*FAILURE.*DELAY/);
      }

      // Something failed: the owner gets a summary (the sender's notifications are 'failed').
      const summaries = (await outboxMails(server)).filter((mail) => mail.to === user.email && /Your mailing/.test(mail.subject));
      expect(summaries).toHaveLength(1);
      expect(summaries[0]!.text).toMatch(/Messages: 12\nSent: 9\nFailed: 2\nBounced: 1/);
    });

    it('records opens and clicks from the tracking URLs, and refuses forged ones', async () => {
      const templateId = await emailingTemplate(server, user.token, senderId, recipientsCsv(2));
      const { mergeId } = await startEmailMerge(server, user.token, templateId);
      await waitForMailing(server, user.token, templateId, mergeId);
      const report = await mailingReport(server, user.token, templateId, mergeId);
      const event = report.events[0]!;
      const mail = sink.accepted.find((received) => received.messageId.startsWith(`${event.messageId}@`))!;
      const html = (await parseMail(mail.raw)).html as string;
      const pixel = /<img src="([^"]+\/t\/o\/[^"]+)"/.exec(html)![1]!.replace(/&amp;/g, '&');
      const link = /<a href="([^"]+\/t\/c\/[^"]+)"/.exec(html)![1]!.replace(/&amp;/g, '&');
      expect(new URL(pixel).origin).toBe(new URL(server.url).origin);
      // The target of the link is not visible unsigned: changing it or the signature gets nowhere.
      const forgedTarget = link.replace(encodeURIComponent('https://example.com/info?a=1&b=2'), encodeURIComponent('https://evil.example/'));
      const forgedSignature = link.replace(/\/t\/c\/([a-z0-9]+)\/([^?]+)/, (_m, id: string, sig: string) => `/t/c/${id}/${sig.slice(0, -2)}AA`);
      for (const forged of [forgedTarget, forgedSignature]) {
        const response = await fetch(forged, { redirect: 'manual' });
        expect(response.status).toBe(404);
        expect(response.headers.get('location')).toBeNull();
      }
      const forgedPixel = await fetch(pixel.replace(/\/([^/]+)\.gif$/, '/AAAA.gif'));
      expect(forgedPixel.headers.get('content-type')).toBe('image/gif');
      expect((await mailingReport(server, user.token, templateId, mergeId)).events[0]!.status).toBe('accepted');

      const opened = await fetch(pixel);
      expect(opened.status).toBe(200);
      expect(opened.headers.get('content-type')).toBe('image/gif');
      expect((await waitForReport(server, user.token, templateId, mergeId, (r) => r.events[0]!.status === 'opened')).eventCounts.opened).toBe(1);
      const clicked = await fetch(link, { redirect: 'manual' });
      expect(clicked.status).toBe(302);
      expect(clicked.headers.get('location')).toBe('https://example.com/info?a=1&b=2');
      await waitForReport(server, user.token, templateId, mergeId, (r) => r.events[0]!.status === 'clicked');
      // A later open does not take the status back down.
      await fetch(pixel);
      expect((await mailingReport(server, user.token, templateId, mergeId)).events[0]!.status).toBe('clicked');

      const history = await server.inject('GET', `/email-report/messages/${event.messageId}`, { token: user.token });
      expect(history.status).toBe(200);
      expect(history.json.events.map((entry: { status: string }) => entry.status)).toEqual(['queued', 'accepted', 'opened', 'clicked']);
      // Tracking URLs are not pages of the web app.
      const unknown = await fetch(new URL('/t/x', server.url), { headers: { accept: 'text/html' } });
      expect(unknown.headers.get('content-type')).toMatch(/json/);
    });

    it('stops at the next message when the merge is cancelled: queued messages are cancelled, none is lost or sent later', async () => {
      const rows = 40;
      const templateId = await emailingTemplate(server, user.token, senderId, recipientsCsv(rows, (n) => `cancel${n}@example.com`));
      sink.pause();
      const { mergeId } = await startEmailMerge(server, user.token, templateId);
      try {
        await waitForMailing(server, user.token, templateId, mergeId, (merge) => merge.mailingStatus === 'sending');
        // Messages are in flight (held by the sink); cancel, and let them finish once the run has stopped taking new ones.
        const cancelling = server.inject('PATCH', `/templates/${templateId}/merges/${mergeId}/cancel`, { token: user.token });
        await vi.waitFor(async () => {
          const [job] = await server.ctx.db.query<{ status: string }>('SELECT status FROM jobs WHERE id = $1', [`${mergeId}.m0`]);
          if (job?.status !== 'cancelled') throw new Error(`job is ${job?.status}`);
        }, { timeout: 20_000, interval: 20 });
        sink.release();
        const cancelled = await cancelling;
        expect(cancelled.status).toBe(200);
        expect(cancelled.json.mailingStatus).toBe('cancelled');
      } finally {
        sink.release();
      }
      const report = await mailingReport(server, user.token, templateId, mergeId);
      expect(report).toMatchObject({ isCancelled: true, mailingStatus: 'cancelled' });
      const { accepted, cancelled, total, queued } = report.eventCounts;
      expect(total).toBe(rows);
      expect(queued).toBe(0);
      expect(accepted + cancelled).toBe(rows);
      expect(cancelled).toBeGreaterThan(0);
      // Only what was in flight went out.
      expect(accepted).toBeLessThanOrEqual(3);
      const delivered = sink.accepted.filter((mail) => mail.rcptTo[0]!.startsWith('cancel'));
      expect(delivered).toHaveLength(accepted);
      expect(new Set(report.events.filter((event) => event.status === 'cancelled').map((event) => event.recipient)).size).toBe(cancelled);
    });

    it('sends Cc and Bcc from the row, the static attachments, and a test email of one row to the user', async () => {
      const csv = 'First,Last,Email,Copy,Hidden\nAda,Lovelace,ada@example.com,"boss@example.com; office@example.com",audit@example.com\n';
      const templateId = await emailingTemplate(server, user.token, senderId, csv, { ccColumn: 'Copy', bccColumn: 'Hidden', replyTo: 'replies@example.com' });
      const terms = Buffer.from('%PDF-1.4 terms and conditions');
      expect((await server.inject('POST', `/templates/${templateId}/attachments`, { token: user.token, file: { name: 'Terms.pdf', bytes: terms, type: 'application/pdf' } })).status).toBe(201);
      const { mergeId } = await startEmailMerge(server, user.token, templateId);
      await waitForMailing(server, user.token, templateId, mergeId);
      const [event] = (await mailingReport(server, user.token, templateId, mergeId)).events;
      expect(event).toMatchObject({ status: 'accepted', recipient: 'ada@example.com' });
      const mail = sink.accepted.find((received) => received.messageId.startsWith(`${event!.messageId}@`))!;
      expect(mail.rcptTo.sort()).toEqual(['ada@example.com', 'audit@example.com', 'boss@example.com', 'office@example.com']);
      const parsed = await parseMail(mail.raw);
      expect(parsed.cc).toMatchObject({ text: 'boss@example.com, office@example.com' });
      expect(parsed.bcc).toBeUndefined();
      expect(mail.raw.toString('latin1')).not.toMatch(/audit@example\.com/);
      expect(parsed.replyTo?.value[0]?.address).toBe('replies@example.com');
      expect(parsed.attachments.map((attachment) => attachment.filename)).toEqual([expect.stringMatching(/\.pdf$/), 'Terms.pdf']);
      expect(parsed.attachments[1]!.content.equals(terms)).toBe(true);

      // The test email's attachment is named by the saved file-name pattern, as the mailing's would be.
      const named = await server.inject('PATCH', `/templates/${templateId}`, { token: user.token, body: { output: { fileNamePattern: 'Letter-{{Last}}-{{First}}' } } });
      expect(named.status, JSON.stringify(named.json)).toBe(200);
      const before = sink.accepted.length;
      const test = await server.inject('POST', `/templates/${templateId}/email/test`, { token: user.token, body: {} });
      expect(test.status, JSON.stringify(test.json)).toBe(200);
      expect(test.json).toEqual({ message: `A test email was sent to ${user.email}.`, to: user.email });
      const sent = sink.accepted.slice(before);
      expect(sent).toHaveLength(1);
      expect(sent[0]!.rcptTo).toEqual([user.email]);
      const testMail = await parseMail(sent[0]!.raw);
      expect(testMail.subject).toBe('Your letter, Ada Lovelace');
      expect(pdfText(testMail.attachments[0]!.content)).toContain('Lovelace');
      expect(testMail.attachments[0]!.filename).toBe('Letter-Lovelace-Ada.pdf');
      expect(testMail.html).not.toMatch(/\/t\/o\//);
    });
  });
});
