/**
 * The email part of step 4 on the server: settings saved and checked, static attachments (names,
 * 5 MB in all, copied with the template and gone with it), the recipients check, and every reason a
 * merge that emails is refused at start, each with its catalogue code.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_ATTACHMENTS_TOTAL_BYTES } from '@sheaf/shared';
import { blobLayout } from '../src/adapters/blobs/layout.ts';
import { forEachDatabase, startTestServer, type TestAccount, type TestDatabase, type TestServer } from './harness.ts';
import { emailingTemplate, enterprise, recipientsCsv, smtpSender, startEmailMerge, startMailSink, type MailSink } from './mail-support.ts';
import { setPlan } from './merge-support.ts';

const file = (name: string, size: number) => ({ name, bytes: new Uint8Array(size).fill(65), type: 'application/octet-stream' });

forEachDatabase((database: TestDatabase) => {
  describe('email settings', () => {
    let server: TestServer;
    let sink: MailSink;
    let user: TestAccount;
    let senderId: string;

    beforeAll(async () => {
      sink = await startMailSink();
      server = await startTestServer({ database, config: { SMTP_ALLOW_PRIVATE_HOSTS: true } });
      user = await server.signUp();
      await enterprise(server, user.uid);
      senderId = await smtpSender(server, user.token, sink);
    });
    afterAll(async () => {
      await server?.close();
      await sink?.close();
    });

    const patch = (templateId: string, body: Record<string, unknown>) => server.inject('PATCH', `/templates/${templateId}/email`, { token: user.token, body });

    it('saves the settings, sanitises the content and refuses what cannot work', async () => {
      const templateId = await emailingTemplate(server, user.token, senderId, recipientsCsv(3));
      const saved = await patch(templateId, { content: '<p onclick="x()">Hi {{First}}<script>alert(1)</script><a href="javascript:alert(1)">x</a></p>', replyTo: '{{Email}}' });
      expect(saved.status).toBe(200);
      expect(saved.json.content).toBe('<p>Hi {{First}}<a>x</a></p>');
      const detail = await server.inject('GET', `/templates/${templateId}`, { token: user.token });
      expect(detail.json.email).toMatchObject({ isActive: true, senderId, replyTo: '{{Email}}', recipientsColumn: 'Email', subject: 'Your letter, {{First}} {{Last}}' });

      const refused: [Record<string, unknown>, string][] = [
        [{ fromName: 'x'.repeat(51) }, 'email/from-name-too-long'],
        [{ replyTo: 'not an address' }, 'email/reply-to-invalid'],
        [{ replyTo: '{{Nope}}' }, 'email/tag-unknown'],
        [{ recipientsColumn: 'Nope' }, 'email/column-unknown'],
        [{ ccColumn: 'Nope' }, 'email/column-unknown'],
        [{ senderId: 'AAAAAAAAAAAAAAAAAAAA' }, 'sender/not-found'],
      ];
      for (const [body, code] of refused) {
        const response = await patch(templateId, body);
        expect(response.status, JSON.stringify(body)).toBe(code.endsWith('not-found') ? 404 : 400);
        expect(response.json.code).toBe(code);
      }
      // The English text is the fallback the client shows when it has no translation.
      expect((await patch(templateId, { fromName: 'x'.repeat(51) })).json.message).toBe('The from name may be at most 50 characters.');
    });

    it('keeps static attachments within 5 MB with plain names, copies them with the template and deletes them with it', async () => {
      const templateId = await emailingTemplate(server, user.token, senderId, recipientsCsv(2));
      const upload = (name: string, size: number) => server.inject('POST', `/templates/${templateId}/attachments`, { token: user.token, file: file(name, size) });
      expect((await upload('bad<name>.txt', 10)).json.code).toBe('email/attachment-name');
      const first = await upload('Terms (2024).pdf', 3 * 1024 * 1024);
      expect(first.status).toBe(201);
      expect(first.json.staticAttachments).toEqual([{ name: 'Terms (2024).pdf', size: 3 * 1024 * 1024 }]);
      const tooMuch = await upload('more.pdf', MAX_ATTACHMENTS_TOTAL_BYTES - 3 * 1024 * 1024 + 1);
      expect(tooMuch.status).toBe(400);
      expect(tooMuch.json).toMatchObject({ code: 'email/attachments-too-large', params: { maxMb: 5 } });
      expect((await upload('more.pdf', MAX_ATTACHMENTS_TOTAL_BYTES - 3 * 1024 * 1024)).status).toBe(201);
      // Replacing a file of the same name counts its new size only.
      expect((await upload('Terms (2024).pdf', 3 * 1024 * 1024)).status).toBe(201);

      const copy = await server.inject('POST', `/templates/${templateId}/copy`, { token: user.token });
      expect(copy.status).toBe(201);
      expect(copy.json.email.staticAttachments.map((item: { name: string }) => item.name).sort()).toEqual(['Terms (2024).pdf', 'more.pdf']);
      // Where an attachment's file is: its name's file id in the template row.
      const attachmentKey = async (id: string, name: string) => {
        const [row] = await server.ctx.db.query<{ attachment_files: Record<string, string> }>('SELECT attachment_files FROM templates WHERE id = $1', [id]);
        return blobLayout.template.attachment(id, name, row?.attachment_files[name]);
      };
      const copiedMore = await attachmentKey(copy.json.id, 'more.pdf');
      expect(await server.ctx.blobs.exists(copiedMore)).toBe(true);
      const terms = await attachmentKey(templateId, 'Terms (2024).pdf');

      const removed = await server.inject('DELETE', `/templates/${templateId}/attachments/more.pdf`, { token: user.token });
      expect(removed.json.staticAttachments).toEqual([{ name: 'Terms (2024).pdf', size: 3 * 1024 * 1024 }]);
      expect((await server.inject('DELETE', `/templates/${templateId}/attachments/more.pdf`, { token: user.token })).json.code).toBe('email/attachment-not-found');
      expect(await server.ctx.blobs.exists(copiedMore)).toBe(true);
      expect(await server.ctx.blobs.exists(terms)).toBe(true);
      expect((await server.inject('DELETE', `/templates/${templateId}`, { token: user.token })).status).toBe(200);
      expect(await server.ctx.blobs.exists(terms)).toBe(false);
    });

    it('counts valid and invalid recipients, several per cell', async () => {
      const csv = 'First,Last,Email\nA,B,a@example.com; b@example.org\nC,D,"c@example.com, nope"\nE,F,\nG,H,Ann <g@example.com>\n';
      const templateId = await emailingTemplate(server, user.token, senderId, csv);
      const check = await server.inject('GET', `/templates/${templateId}/email/recipients`, { token: user.token });
      expect(check.status).toBe(200);
      expect(check.json).toMatchObject({ rows: 4, valid: 4, invalid: 1, rowsWithoutRecipient: 1 });
      expect(check.json.invalidExamples).toEqual([{ rowNumber: 3, value: 'nope' }, { rowNumber: 4, value: '' }]);
      expect((await server.inject('GET', `/templates/${templateId}/email/recipients`, { token: user.token, query: { column: 'Nope' } })).json.code).toBe('email/column-unknown');
    });

    it('refuses to start a merge that cannot email, each reason with its code', async () => {
      const templateId = await emailingTemplate(server, user.token, senderId, recipientsCsv(2));
      // Bad settings answer 400; a plan that cannot send answers 402 (the catalogue's status map).
      const refusedWith = async (code: string, overrides: Record<string, unknown> = {}, status = 400) => {
        const { response } = await startEmailMerge(server, user.token, templateId, overrides);
        expect(response.json?.code, JSON.stringify(response.json)).toBe(code);
        expect(response.status).toBe(status);
      };
      await refusedWith('merge/email-combined', { isCombinedOutput: true });
      await patch(templateId, { subject: '  ' });
      await refusedWith('email/subject-empty');
      await patch(templateId, { subject: 'Hi {{Nope}}' });
      await refusedWith('email/tag-unknown');
      await patch(templateId, { subject: 'Hi', content: '<p> </p><p><br></p>' });
      await refusedWith('email/content-empty');
      await patch(templateId, { content: '<p>Dear {{Missing}}</p>' });
      await refusedWith('email/tag-unknown');
      await patch(templateId, { content: '<p>Dear {{First}}</p>', recipientsColumn: null });
      await refusedWith('email/no-recipients-column');
      await patch(templateId, { recipientsColumn: 'Last' });
      await refusedWith('email/no-valid-recipients');
      await patch(templateId, { recipientsColumn: 'Email', senderId: null });
      await refusedWith('email/no-sender');
      // An unverified sender (its SMTP login now fails): not verified.
      const unverified = await server.inject('POST', '/senders', {
        token: user.token, body: { method: 'smtp', email: 'other@example.com', server: '127.0.0.1', port: sink.port, username: 'wrong', password: 'wrong' },
      });
      expect(unverified.json.sender?.isVerified ?? false).toBe(false);
      const unverifiedId = unverified.json.sender?.id ?? (await server.inject('GET', '/senders', { token: user.token })).json.senders.find((s: { email: string }) => s.email === 'other@example.com').id;
      await patch(templateId, { senderId: unverifiedId });
      await refusedWith('sender/not-verified');
      await patch(templateId, { senderId });
      await setPlan(server, user.uid, 'Free');
      await refusedWith('email/plan-required', {}, 402);
      await enterprise(server, user.uid);
      const { response } = await startEmailMerge(server, user.token, templateId);
      expect(response.status).toBe(202);
    });
  });
});
