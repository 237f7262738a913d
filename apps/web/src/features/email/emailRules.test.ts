import { describe, expect, it } from 'vitest';
import { DEFAULT_EMAIL_SETTINGS, type RecipientsCheck, type Sender, type TemplateEmailSettings } from '@sheaf/shared';
import { insertColumnTag } from '../wizard/outputRules.ts';
import { attachmentProblem, isRichTextEmpty, liveProblems, recipientsToSend, replyToProblem, sendProblems } from './emailRules.ts';

const HEADINGS = ['First', 'Email', 'Invoice no'];
const sender = (isVerified: boolean) => ({ id: 's1', isVerified }) as Sender;
const check = (valid: number, invalid = 0): RecipientsCheck => ({ rows: 20, valid, invalid, rowsWithoutRecipient: invalid, invalidExamples: [] });
const complete: TemplateEmailSettings = {
  ...DEFAULT_EMAIL_SETTINGS, isActive: true, senderId: 's1', fromName: 'Ada', subject: 'Invoice {{Invoice no}}', content: '<p>Dear {{First}},</p>', recipientsColumn: 'Email',
};
const context = { headings: HEADINGS, sender: sender(true), check: check(20), isCombinedOutput: false };

describe('email composition checks', () => {
  it('lets a complete composition go', () => {
    expect(sendProblems(complete, context)).toEqual({});
  });

  it('asks for a sender (formErrors.fromEmail), a verified one', () => {
    expect(sendProblems({ ...complete, senderId: null }, context).fromEmail).toEqual({ code: 'email/no-sender' });
    expect(sendProblems(complete, { ...context, sender: undefined }).fromEmail).toEqual({ code: 'email/no-sender' });
    expect(sendProblems(complete, { ...context, sender: sender(false) }).fromEmail).toEqual({ code: 'sender/not-verified' });
  });

  it('lists the problems in the order of the form', () => {
    const problems = sendProblems({ ...DEFAULT_EMAIL_SETTINGS, isActive: true }, { ...context, check: null });
    expect(Object.keys(problems)).toEqual(['fromEmail', 'subject', 'content', 'recipientsColumn']);
    expect(problems.recipientsColumn).toEqual({ code: 'email/no-recipients-column' });
  });

  it('refuses a column nobody has, no valid address, and combined output', () => {
    expect(sendProblems({ ...complete, recipientsColumn: 'Mail' }, context).recipientsColumn).toEqual({ code: 'email/column-unknown', params: { column: 'Mail' } });
    expect(sendProblems(complete, { ...context, check: check(0, 20) }).recipientsColumn).toEqual({ code: 'email/no-valid-recipients' });
    expect(sendProblems(complete, { ...context, check: check(15, 5) })).toEqual({});
    expect(sendProblems(complete, { ...context, isCombinedOutput: true }).general).toEqual({ code: 'merge/email-combined' });
  });

  it('says while typing when a tag names no heading or the from name is too long', () => {
    expect(liveProblems({ ...complete, subject: 'Hi {{Frist}}' }, HEADINGS).subject).toEqual({ code: 'email/tag-unknown', params: { column: 'Frist' } });
    expect(liveProblems({ ...complete, content: '<p>Hi <strong>{{Nmae}}</strong></p>' }, HEADINGS).content).toEqual({ code: 'email/tag-unknown', params: { column: 'Nmae' } });
    expect(liveProblems({ ...complete, fromName: 'x'.repeat(51) }, HEADINGS).fromName).toEqual({ code: 'email/from-name-too-long', params: { max: 50 } });
    expect(liveProblems({ ...complete, fromName: 'x'.repeat(50) }, HEADINGS)).toEqual({});
  });

  it('treats rich text of blank blocks as empty', () => {
    expect(isRichTextEmpty('')).toBe(true);
    expect(isRichTextEmpty('<p></p>')).toBe(true);
    expect(isRichTextEmpty('<p> <br></p><p>&nbsp;</p>\n<ul><li><p></p></li></ul>')).toBe(true);
    expect(isRichTextEmpty('<p>Hi</p>')).toBe(false);
    expect(sendProblems({ ...complete, content: '<p><br></p>' }, context).content).toEqual({ code: 'email/content-empty' });
  });

  it('counts an image-only message as content, as the mailing does', () => {
    expect(isRichTextEmpty('<p><img src="https://example.com/logo.png" alt=""></p>')).toBe(false);
    expect(sendProblems({ ...complete, content: '<p><img src="https://example.com/logo.png"><br></p>' }, context).content).toBeUndefined();
  });

  it('matches tags and columns to headings as the merge does: case and spaces aside', () => {
    expect(liveProblems({ ...complete, subject: 'Invoice {{invoice NO}}', content: '<p>Dear {{ first }},</p>', replyTo: '{{EMAIL}}' }, HEADINGS)).toEqual({});
    expect(sendProblems({ ...complete, recipientsColumn: 'email' }, context)).toEqual({});
  });

  it('takes a reply-to address or one column tag', () => {
    expect(replyToProblem('', HEADINGS)).toBeNull();
    expect(replyToProblem('help@example.com', HEADINGS)).toBeNull();
    expect(replyToProblem('{{Email}}', HEADINGS)).toBeNull();
    expect(replyToProblem('{{Mail}}', HEADINGS)).toEqual({ code: 'email/tag-unknown', params: { column: 'Mail' } });
    expect(replyToProblem('help@', HEADINGS)).toEqual({ code: 'email/reply-to-invalid' });
  });

  it('counts the recipients of "Send to N recipients": valid addresses for the whole sheet, else documents', () => {
    expect(recipientsToSend(20, true, check(19, 1))).toBe(19);
    expect(recipientsToSend(5, false, check(19, 1))).toBe(5);
    expect(recipientsToSend(20, true, null)).toBe(20);
  });

  it('inserts a column tag into the subject at the cursor or over the selection', () => {
    expect(insertColumnTag('Invoice ', 'Invoice no', 8)).toEqual({ text: 'Invoice {{Invoice no}}', cursor: 22 });
    expect(insertColumnTag('Dear X, hi', 'First', 5, 6)).toEqual({ text: 'Dear {{First}}, hi', cursor: 14 });
  });
});

describe('static attachment checks', () => {
  const MB = 1_048_576;
  it('refuses names with special characters before uploading', () => {
    expect(attachmentProblem([{ name: 'terms & conditions.pdf', size: 10 }], [])).toEqual({ code: 'email/attachment-name', params: { name: 'terms & conditions.pdf' } });
    expect(attachmentProblem([{ name: 'a/b.pdf', size: 10 }], [])?.code).toBe('email/attachment-name');
    expect(attachmentProblem([{ name: 'Geschäftsbedingungen (2026)_v2-final.pdf', size: 10 }], [])).toBeNull();
    expect(attachmentProblem([{ name: 'notes.txt', size: 0 }], [])).toEqual({ code: 'email/attachment-empty', params: { name: 'notes.txt', extension: 'txt' } });
    expect(attachmentProblem([{ name: 'Setup.EXE', size: 10 }], [])).toEqual({ code: 'email/attachment-blocked-type', params: { name: 'Setup.EXE', extension: 'exe' } });
  });

  it('keeps all attachments within 5 MB together', () => {
    expect(attachmentProblem([{ name: 'b.pdf', size: 2 * MB }], [{ name: 'a.pdf', size: 3 * MB }])).toBeNull();
    expect(attachmentProblem([{ name: 'b.pdf', size: 2 * MB + 1 }], [{ name: 'a.pdf', size: 3 * MB }])).toEqual({ code: 'email/attachments-too-large', params: { maxMb: 5 } });
    expect(attachmentProblem([{ name: 'a.pdf', size: 1 * MB }, { name: 'b.pdf', size: 4.5 * MB }], [])?.code).toBe('email/attachments-too-large');
    // Uploading a file of the same name replaces the attached one.
    expect(attachmentProblem([{ name: 'a.pdf', size: 4 * MB }], [{ name: 'a.pdf', size: 3 * MB }])).toBeNull();
  });
});
