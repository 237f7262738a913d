/**
 * POST /templates/:id/calculateSpamScore through the HTTP API on a real database: the template's saved
 * email settings, its spreadsheet's first row and the chosen sender make the message that is judged.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_EMAIL_SETTINGS, type DnsRecord, type SpamScore, type TemplateDetail, type TemplateEmailSettings } from '@sheaf/shared';
import { newId } from '../src/ids.ts';
import { insertSender, markSpoofVerified, saveDnsCheck, saveSmtpVerified } from '../src/modules/senders/repository.ts';
import { forEachDatabase, startTestServer, type TestAccount, type TestServer } from './harness.ts';
import { csv, makePdf } from './library-support.ts';

const OPT_OUT = '<p>To stop receiving these emails, <a href="https://www.acme-tools.com/unsubscribe">unsubscribe here</a>.</p>';
const INVOICE = `<p>Dear {{First}},</p><p>please find attached your invoice for March. The amount will be collected from your account on the 15th.
  If you have any questions, simply reply to this email.</p><p>Kind regards,<br>Anna Weber</p>${OPT_OUT}`;
const PEOPLE = csv([['First', 'Email', 'Offer'], ['Berta', 'berta@example.com', 'Act now!!!'], ['Carl', 'carl@example.com', 'Nothing']]);

const codesOf = (score: SpamScore) => score.findings.map((finding) => finding.code).sort();

forEachDatabase((database) => {
  describe('spam score', () => {
    let server: TestServer;
    let owner: TestAccount;
    let smtpSender: string;

    beforeAll(async () => {
      server = await startTestServer({ database });
      owner = await server.signUp();
      smtpSender = await addSender('smtp', 'anna@acme-tools.com', true);
    });
    afterAll(async () => {
      await server.close();
    });

    async function newTemplate(options: { sheet?: boolean; email?: Partial<TemplateEmailSettings> } = {}): Promise<string> {
      const upload = await server.inject('POST', '/templates', { token: owner.token, file: { name: 'Letter.pdf', bytes: await makePdf(), type: 'application/pdf' } });
      expect(upload.status, JSON.stringify(upload.json)).toBe(201);
      const { id } = upload.json as TemplateDetail;
      if (options.sheet !== false) {
        const sheet = await server.inject('POST', `/templates/${id}/excel`, { token: owner.token, file: { name: 'people.csv', bytes: PEOPLE, type: 'text/csv' } });
        expect(sheet.status, JSON.stringify(sheet.json)).toBe(201);
      }
      if (options.email) await setEmail(id, options.email);
      return id;
    }

    /** Saves the template's email settings: a composed invoice email from the verified smtp sender, changed by `email`. */
    async function setEmail(id: string, email: Partial<TemplateEmailSettings>): Promise<void> {
      const settings = { ...DEFAULT_EMAIL_SETTINGS, isActive: true, fromName: 'Anna Weber', subject: 'Your invoice, {{First}}', content: INVOICE, recipientsColumn: 'Email', senderId: smtpSender, ...email };
      await server.ctx.db.query('UPDATE templates SET email = $3::jsonb WHERE owner_id = $1 AND id = $2', [owner.uid, id, JSON.stringify(settings)]);
    }

    /** A sender of the owner; `verified` as the senders module records a passed check. */
    async function addSender(method: 'spoof' | 'domain' | 'smtp', email: string, verified: boolean, dnsRecords: DnsRecord[] = []): Promise<string> {
      const id = newId();
      const domain = email.split('@')[1]!;
      await insertSender(server.ctx.db, {
        id, ownerId: owner.uid, method, email, notifications: 'failed',
        ...(method === 'spoof' ? { identifier: 'Anna from Acme' } : {}),
        ...(method === 'domain' ? { domain, subdomain: 'sheaf', dnsRecords } : {}),
      });
      if (!verified) return id;
      if (method === 'spoof') await markSpoofVerified(server.ctx.db, owner.uid, id);
      if (method === 'smtp') await saveSmtpVerified(server.ctx.db, owner.uid, id, { server: 'smtp.acme-tools.com', port: 465, username: email, password: 'x' });
      if (method === 'domain') await saveDnsCheck(server.ctx.db, owner.uid, id, dnsRecords, true);
      return id;
    }

    async function score(id: string, token = owner.token) {
      return server.inject('POST', `/templates/${id}/calculateSpamScore`, { token });
    }
    async function scoreOf(id: string): Promise<SpamScore> {
      const response = await score(id);
      expect(response.status, JSON.stringify(response.json)).toBe(200);
      return response.json as SpamScore;
    }

    it('gives a plain invoice email from a verified sender 10 with nothing to fix', async () => {
      const result = await scoreOf(await newTemplate({ email: {} }));
      expect(result).toEqual({ spamScore: 10, suggestions: { clarity: [], engagement: [], indicators: [], legitimacy: [] }, findings: [] });
    });

    it('rates a template nobody composed an email for as high risk, with tips in every category that applies', async () => {
      const result = await scoreOf(await newTemplate());
      expect(codesOf(result)).toEqual(['spam/from-name-missing', 'spam/no-unsubscribe', 'spam/sender-missing', 'spam/subject-missing', 'spam/text-missing']);
      expect(result.spamScore).toBe(2);
      expect(result.suggestions.clarity).toEqual(['The message has no text. Write a few sentences for the recipient.', 'Add a subject.']);
      expect(result.suggestions.legitimacy).toContain('No sender is chosen. Mail from a verified sender is trusted more.');
    });

    it('judges the first row\'s message: its values filled in, tags naming no heading shown', async () => {
      const id = await newTemplate({ email: { subject: 'Hello {{first}}: {{Frist}}', content: `<p>{{Offer}}</p>${INVOICE}` } });
      const result = await scoreOf(id);
      // Row 1's Offer cell says "Act now!!!"; {{first}} finds the First heading ignoring case, {{Frist}} finds none.
      expect(codesOf(result)).toEqual(['spam/punctuation', 'spam/trigger-phrases', 'spam/unfilled-tags']);
      expect(result.findings.find((finding) => finding.code === 'spam/unfilled-tags')!.params).toEqual({ tags: '{{Frist}}' });
      expect(result.spamScore).toBe(6);
    });

    it('leaves tags as written without a spreadsheet, and does not count them as unfilled', async () => {
      const result = await scoreOf(await newTemplate({ sheet: false, email: { subject: 'Hello {{Frist}}' } }));
      expect(result.findings).toEqual([]);
      expect(result.spamScore).toBe(10);
    });

    it('looks at the sender: none, unverified, gone, and a domain sender without DKIM', async () => {
      const pendingSpoof = await addSender('spoof', 'pending@acme-tools.com', false);
      const dkimPending: DnsRecord = { purpose: 'dkim', type: 'TXT', name: 'sheaf._domainkey.acme-mail.com', value: 'v=DKIM1; p=x', status: 'pending', checkedAt: null };
      const domain = await addSender('domain', 'anna@acme-mail.com', true, [dkimPending]);
      const id = await newTemplate();
      const codesFor = async (senderId: string | null) => {
        await setEmail(id, { senderId });
        return codesOf(await scoreOf(id));
      };
      expect(await codesFor(null)).toEqual(['spam/sender-missing']);
      expect(await codesFor(pendingSpoof)).toEqual(['spam/sender-unverified']);
      expect(await codesFor('NoSuchSender00000000')).toEqual(['spam/sender-unverified']);
      expect(await codesFor(domain)).toEqual(['spam/dkim-missing']);
      // The same domain sender once its DKIM record is found: nothing left to find.
      await saveDnsCheck(server.ctx.db, owner.uid, domain, [{ ...dkimPending, status: 'success' }], true);
      expect(await codesFor(domain)).toEqual([]);
    });

    it('uses the spoof sender\'s name when the from name is empty, and checks reply-to against the sender\'s domain', async () => {
      const spoof = await addSender('spoof', 'anna@acme-tools.com', true);
      const id = await newTemplate({ email: { senderId: spoof, fromName: '', replyTo: 'anna@acme-tools.com' } });
      // Spoof mail leaves from the product's domain with the user's address to reply to: not a mismatch.
      expect(codesOf(await scoreOf(id))).toEqual([]);
      await setEmail(id, { fromName: '', replyTo: 'claims@other-company.org' });
      const result = await scoreOf(id);
      expect(codesOf(result)).toEqual(['spam/from-name-missing', 'spam/reply-to-mismatch']);
      expect(result.suggestions.legitimacy).toContain('Replies go to other-company.org, another domain than the sender\'s (acme-tools.com).');
    });

    it('flags risky static attachments and text hidden in the content as sent', async () => {
      const id = await newTemplate({ email: {
        content: `${INVOICE}<p style="color:#ffffff">cheap pills cheap pills</p>`,
        staticAttachments: [{ name: 'terms.pdf', size: 1000 }, { name: 'setup.exe', size: 1000 }],
      } });
      const result = await scoreOf(id);
      expect(codesOf(result)).toEqual(['spam/hidden-text', 'spam/risky-attachment']);
      expect(result.suggestions.indicators).toContain('Mail filters block attachments of this type: setup.exe.');
      expect(result.spamScore).toBe(4);
    });

    it('answers 404 for another account\'s template and 401 without a session', async () => {
      const id = await newTemplate({ email: {} });
      const stranger = await server.signUp();
      const response = await score(id, stranger.token);
      expect(response.status).toBe(404);
      expect(response.json).toMatchObject({ code: 'template/not-found' });
      expect((await server.inject('POST', `/templates/${id}/calculateSpamScore`)).status).toBe(401);
    });
  });
});
