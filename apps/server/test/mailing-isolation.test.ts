/**
 * Tenant isolation of email: another account cannot read or change a template's email settings, a
 * mailing's report, a message's history, nor see the messages in its own email report. An admin's
 * scope=all report covers their child users, and only an admin's.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { forEachDatabase, startTestServer, type TestAccount, type TestDatabase, type TestServer } from './harness.ts';
import { emailingTemplate, enterprise, mailingReport, recipientsCsv, smtpSender, startEmailMerge, startMailSink, waitForMailing, type MailSink } from './mail-support.ts';

interface Mailed {
  account: TestAccount;
  templateId: string;
  mergeId: string;
  messageId: string;
}

forEachDatabase((database: TestDatabase) => {
  describe('email isolation', () => {
    let server: TestServer;
    let sink: MailSink;
    let admin: Mailed;
    let child: Mailed;
    let stranger: Mailed;

    async function mailingOf(account: TestAccount, tag: string): Promise<Mailed> {
      await enterprise(server, account.uid);
      const senderId = await smtpSender(server, account.token, sink, `${tag}@example.com`);
      const templateId = await emailingTemplate(server, account.token, senderId, recipientsCsv(2, (n) => `${tag}${n}@example.com`));
      const { mergeId } = await startEmailMerge(server, account.token, templateId);
      await waitForMailing(server, account.token, templateId, mergeId);
      const report = await mailingReport(server, account.token, templateId, mergeId);
      return { account, templateId, mergeId, messageId: report.events[0]!.messageId };
    }

    beforeAll(async () => {
      sink = await startMailSink();
      server = await startTestServer({ database, config: { SMTP_ALLOW_PRIVATE_HOSTS: true } });
      const adminAccount = await server.signUp();
      const childAccount = await server.signUp();
      await server.ctx.db.query('UPDATE users SET parent_uid = $1 WHERE id = $2', [adminAccount.uid, childAccount.uid]);
      admin = await mailingOf(adminAccount, 'admin');
      child = await mailingOf(childAccount, 'child');
      stranger = await mailingOf(await server.signUp(), 'stranger');
    });
    afterAll(async () => {
      await server?.close();
      await sink?.close();
    });

    it('keeps one account out of another\'s email settings, reports and message histories', async () => {
      const token = stranger.account.token;
      const { templateId, mergeId, messageId } = admin;
      const calls: [string, string, Record<string, unknown>?][] = [
        ['GET', `/templates/${templateId}/email/${mergeId}`],
        ['PATCH', `/templates/${templateId}/email`, { subject: 'hijacked' }],
        ['GET', `/templates/${templateId}/email/recipients`],
        ['DELETE', `/templates/${templateId}/attachments/x.pdf`],
        ['PATCH', `/templates/${templateId}/merges/${mergeId}/cancel`],
        ['GET', `/email-report/messages/${messageId}`],
      ];
      for (const [method, path, body] of calls) {
        const response = await server.inject(method, path, { token, ...(body ? { body } : {}) });
        expect(response.status, `${method} ${path}`).toBe(404);
      }
      // The stranger's own report on someone else's template id: still not found.
      expect((await server.inject('GET', `/templates/${templateId}/email/${stranger.mergeId}`, { token })).status).toBe(404);
      const own = await mailingReport(server, admin.account.token, templateId, mergeId);
      expect(own.events.map((event) => event.subject)).toEqual(['Your letter, Given1 Family1', 'Your letter, Given2 Family2']);
    });

    it('shows each account its own messages, and an admin those of their users with scope=all', async () => {
      const report = async (who: Mailed, scope: 'me' | 'all') => {
        const response = await server.inject('GET', '/email-report', { token: who.account.token, query: { scope } });
        expect(response.status).toBe(200);
        return (response.json.events as { recipient: string; owner?: string }[]).map((event) => event.recipient).sort();
      };
      expect(await report(admin, 'me')).toEqual(['admin1@example.com', 'admin2@example.com']);
      expect(await report(admin, 'all')).toEqual(['admin1@example.com', 'admin2@example.com', 'child1@example.com', 'child2@example.com']);
      // A child user is no admin: scope=all gives their own.
      expect(await report(child, 'all')).toEqual(['child1@example.com', 'child2@example.com']);
      expect(await report(stranger, 'all')).toEqual(['stranger1@example.com', 'stranger2@example.com']);
      const all = await server.inject('GET', '/email-report', { token: admin.account.token, query: { scope: 'all', days: 30 } });
      expect(all.json.eventCounts).toMatchObject({ total: 4, accepted: 4 });
      expect(all.json.events.find((event: { recipient: string }) => event.recipient === 'child1@example.com').owner).toBe(child.account.email);
      // The admin may open a child's message history; the child not the admin's.
      expect((await server.inject('GET', `/email-report/messages/${child.messageId}`, { token: admin.account.token })).status).toBe(200);
      expect((await server.inject('GET', `/email-report/messages/${admin.messageId}`, { token: child.account.token })).status).toBe(404);
      expect((await server.inject('GET', '/email-report', { token: admin.account.token, query: { days: 31 } })).json.code).toBe('generic/invalid-input');
    });
  });
});
