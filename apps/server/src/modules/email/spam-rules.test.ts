/** The spam rules one by one (each fires on its case and not on a near miss), and the score they add up to. */
import { describe, expect, it } from 'vitest';
import { SPAM_CATEGORIES, formatErrorMessage } from '@sheaf/shared';
import type { SpamMessage, SpamSender } from './spam-message.ts';
import { SPAM_RULES, scoreMessage } from './spam-rules.ts';

const VERIFIED: SpamSender = { method: 'smtp', address: 'anna@acme-tools.com', isVerified: true, isDkimVerified: false };
const OPT_OUT_LINE = '<p style="font-size:12px;color:#666">You receive this email as a customer of Acme Tools. To stop these emails, <a href="https://www.acme-tools.com/unsubscribe">unsubscribe here</a>.</p>';
const BODY = '<p>Dear Ms. Berg,</p><p>please find attached your invoice for March. The amount will be collected from your account on the 15th. '
  + 'If you have any questions, simply reply to this email.</p><p>Kind regards,<br>Anna Weber<br><a href="https://www.acme-tools.com">www.acme-tools.com</a></p>'
  + OPT_OUT_LINE;

/** A plain business email from a verified sender: nothing to find. */
const clean = (overrides: Partial<SpamMessage> = {}): SpamMessage => ({
  subject: 'Your invoice for March',
  html: BODY,
  fromName: 'Anna Weber',
  replyTo: '',
  attachmentNames: [],
  sender: VERIFIED,
  tagsFilled: true,
  ...overrides,
});
const codes = (message: SpamMessage) => scoreMessage(message).findings.map((finding) => finding.code);
const words = (count: number) => Array.from({ length: count }, (_, index) => `word${index}`).join(' ');

describe('the score', () => {
  it('gives a plain business email from a verified sender 10 and nothing to fix', () => {
    const result = scoreMessage(clean());
    expect(result.findings).toEqual([]);
    expect(result.spamScore).toBe(10);
    expect(result.suggestions).toEqual({ clarity: [], engagement: [], indicators: [], legitimacy: [] });
  });

  it('gives a shouting, link-stuffed, image-only message with an .exe from an unverified sender 1 to 3', () => {
    const result = scoreMessage({
      subject: 'FREE MONEY WAITING!!!',
      html: '<img src="https://cdn.example.com/offer.png"><p>AMAZING OFFER WAITING <a href="https://bit.ly/a1">CLICK</a> <a href="https://bit.ly/a2">BUY</a> <a href="https://tinyurl.com/x">www.paypal.com</a></p>',
      fromName: 'BEST DEALS',
      replyTo: 'claims@prize-office.biz',
      attachmentNames: ['setup.exe'],
      sender: { method: 'smtp', address: 'deals@shop.example', isVerified: false, isDkimVerified: false },
      tagsFilled: true,
    });
    expect(result.spamScore).toBeGreaterThanOrEqual(1);
    expect(result.spamScore).toBeLessThanOrEqual(3);
    expect(result.findings.map((finding) => finding.code)).toEqual(expect.arrayContaining([
      'spam/shouting', 'spam/link-ratio', 'spam/image-only', 'spam/risky-attachment', 'spam/link-shortener', 'spam/link-mismatch', 'spam/sender-unverified',
    ]));
  });

  it('takes each finding\'s points off 10, rounds half up and never goes below 1', () => {
    // subject-long takes 0.5: 9.5 rounds to 10; subject-caps takes 1.5: 8.5 rounds to 9.
    expect(scoreMessage(clean({ subject: `Your invoice ${'and more '.repeat(9)}`.trim() })).spamScore).toBe(10);
    expect(scoreMessage(clean({ subject: 'YOUR INVOICE FOR MARCH' })).spamScore).toBe(9);
    expect(scoreMessage(clean({ sender: { ...VERIFIED, isVerified: false } })).spamScore).toBe(7);
    const worst = scoreMessage({ subject: '', html: '', fromName: '', replyTo: '', attachmentNames: ['a.exe'], sender: null, tagsFilled: false });
    expect(worst.spamScore).toBe(1);
  });

  it('lists findings largest first with the suggestion texts of the catalogue, per category', () => {
    const result = scoreMessage(clean({ subject: 'Act now!!!', sender: { ...VERIFIED, isVerified: false } }));
    expect(result.findings).toEqual([
      { code: 'spam/sender-unverified', category: 'legitimacy', points: 3 },
      { code: 'spam/punctuation', category: 'indicators', points: 1.5, params: { example: '!!!' } },
      { code: 'spam/trigger-phrases', category: 'indicators', points: 1, params: { phrases: '"act now"' } },
    ]);
    expect(Object.keys(result.suggestions).sort()).toEqual([...SPAM_CATEGORIES].sort());
    expect(result.suggestions.indicators).toEqual([
      'Runs of punctuation or currency signs such as "!!!" look like spam.',
      'Spam filters look for phrases like these: "act now". Say it in your own words.',
    ]);
    expect(result.suggestions.legitimacy).toEqual([formatErrorMessage('spam/sender-unverified')]);
  });

  it('counts each trigger phrase, in any of the languages, up to three', () => {
    const one = scoreMessage(clean({ subject: 'Cliquez ici' })).findings[0];
    expect(one).toMatchObject({ code: 'spam/trigger-phrases', points: 1 });
    const many = scoreMessage(clean({ html: `${BODY}<p>Jetzt kaufen, haga clic aquí, order now, 100% free.</p>` })).findings[0];
    expect(many).toMatchObject({ code: 'spam/trigger-phrases', points: 3 });
    expect(String(many!.params!.phrases).split(', ')).toHaveLength(4);
  });
});

/** [code, a message it fires on, a near miss it must not fire on]. */
const CASES: Array<[string, SpamMessage, SpamMessage]> = [
  ['spam/subject-missing', clean({ subject: '  ' }), clean({ subject: 'Hi' })],
  ['spam/subject-long', clean({ subject: 'a'.repeat(80) }), clean({ subject: 'a'.repeat(79) })],
  ['spam/text-missing', clean({ html: '<p> &nbsp; </p>' }), clean({ html: '<p>Hello</p>' })],
  ['spam/text-short', clean({ html: '<p>Your invoice is attached.</p>' }), clean({ html: `<p>${words(10)}</p>` })],
  ['spam/unfilled-tags', clean({ subject: 'Invoice for {{Frist}}' }), clean({ subject: 'Invoice for {{Frist}}', tagsFilled: false })],
  ['spam/html-large', clean({ html: BODY + `<p>${'lorem '.repeat(17_500)}</p>` }), clean({ html: BODY + `<p>${'lorem '.repeat(16_000)}</p>` })],
  ['spam/link-ratio', clean({ html: `<p>${words(20)} <a href="https://a.example">a</a> <a href="https://b.example">b</a> <a href="https://c.example">c</a></p>` }),
    clean({ html: `<p>${words(60)} <a href="https://a.example">a</a> <a href="https://b.example">b</a> <a href="mailto:x@y.example">x</a> <a href="tel:123">t</a></p>` })],
  ['spam/image-only', clean({ html: '<img src="a.png"><p>See the offer below</p>' }), clean({ html: `<img src="a.png"><p>${words(30)}</p>` })],
  ['spam/many-images', clean({ html: BODY + '<img src="a.png">'.repeat(6) }), clean({ html: BODY + '<img src="a.png">'.repeat(5) })],
  ['spam/no-unsubscribe', clean({ html: BODY.replace(OPT_OUT_LINE, '') }), clean({ html: BODY.replace(OPT_OUT_LINE, '<p>Sie möchten keine E-Mails mehr? Hier abmelden.</p>') })],
  ['spam/shouting', clean({ html: `<p>PLEASE READ THIS IMPORTANT MESSAGE ABOUT YOUR ACCOUNT RIGHT NOW. Thank you.</p>${OPT_OUT_LINE}` }),
    clean({ html: `${BODY}<p>The VAT ID and the IBAN of ACME GmbH are printed on the PDF.</p>` })],
  ['spam/trigger-phrases', clean({ subject: 'Act now: your invoice' }), clean({ subject: 'Our contract now covers March' })],
  ['spam/punctuation', clean({ html: `${BODY}<p>Save $$$ today</p>` }), clean({ subject: 'Great news!', html: `${BODY}<p>Only $5?!</p>` })],
  ['spam/subject-caps', clean({ subject: 'YOUR INVOICE IS READY' }), clean({ subject: 'Invoice for ACME GmbH' })],
  ['spam/link-shortener', clean({ html: `${BODY}<p><a href="https://bit.ly/3xYz">Details</a></p>` }), clean({ html: `${BODY}<p><a href="https://example.com/bit.ly">Details</a></p>` })],
  ['spam/link-mismatch', clean({ html: `${BODY}<p><a href="https://login.evil.example">www.mybank.com</a></p>` }),
    clean({ html: `${BODY}<p><a href="https://portal.mybank.com/login">www.mybank.com</a> <a href="https://files.example.net/x">invoice.pdf</a></p>` })],
  ['spam/risky-attachment', clean({ attachmentNames: ['terms.pdf', 'invoice.pdf.exe'] }), clean({ attachmentNames: ['invoice.pdf', 'exe notes.txt', 'report.xlsx'] })],
  ['spam/risky-attachment', clean({ attachmentNames: ['report.xlsm'] }), clean({ attachmentNames: ['report.xls'] })],
  ['spam/hidden-text', clean({ html: `${BODY}<span style="font-size:0px">cheap pills</span>` }), clean({ html: `${BODY}<span style="font-size:10px">small print</span>` })],
  ['spam/hidden-text', clean({ html: `${BODY}<p style="color: #FFFFFF">cheap pills</p>` }),
    clean({ html: `${BODY}<table><tr><td style="background-color:#003366"><span style="color:#fff">Pay your invoice</span></td></tr></table>` })],
  ['spam/from-name-missing', clean({ fromName: ' ' }), clean({ fromName: 'Anna' })],
  ['spam/from-name-caps', clean({ fromName: 'ACME CORP' }), clean({ fromName: 'ACME GmbH' })],
  ['spam/from-name-noreply', clean({ fromName: 'No-Reply' }), clean({ fromName: 'Nora Reply' })],
  ['spam/from-name-noreply', clean({ sender: { ...VERIFIED, address: 'noreply@acme-tools.com' } }), clean({ sender: { ...VERIFIED, address: 'replies@acme-tools.com' } })],
  ['spam/reply-to-mismatch', clean({ replyTo: 'Billing <billing@other-company.org>' }), clean({ replyTo: 'billing@mail.acme-tools.com' })],
  ['spam/reply-to-mismatch', clean({ replyTo: 'billing@other-company.org' }),
    clean({ replyTo: 'billing@other-company.org', sender: { method: 'spoof', address: 'anna@sheaf.localhost', isVerified: true, isDkimVerified: false } })],
  ['spam/sender-missing', clean({ sender: null }), clean()],
  ['spam/sender-unverified', clean({ sender: { ...VERIFIED, isVerified: false } }), clean()],
  ['spam/dkim-missing', clean({ sender: { method: 'domain', address: 'anna@acme-tools.com', isVerified: true, isDkimVerified: false } }),
    clean({ sender: { method: 'domain', address: 'anna@acme-tools.com', isVerified: true, isDkimVerified: true } })],
];

describe('each rule', () => {
  it.each(CASES)('%s fires on its case and not on a near miss', (code, fires, nearMiss) => {
    expect(codes(fires)).toContain(code);
    expect(codes(nearMiss)).not.toContain(code);
  });

  it('has a case here for every rule of the table', () => {
    expect(new Set(CASES.map(([code]) => code))).toEqual(new Set(SPAM_RULES.map((rule) => rule.code)));
  });

  it('fills the suggestion texts with what it found', () => {
    const result = scoreMessage(clean({
      subject: 'Invoice for {{Frist}}',
      html: `${BODY}<p><a href="https://login.evil.example">www.mybank.com</a></p>`,
      replyTo: 'billing@other-company.org',
      attachmentNames: ['setup.exe', 'macros.docm'],
    }));
    const text = Object.values(result.suggestions).flat();
    expect(text).toContain('These column tags are not headings of the spreadsheet and would be sent as written: {{Frist}}.');
    expect(text).toContain('A link shows mybank.com but leads to login.evil.example. Let the link text show where it leads.');
    expect(text).toContain('Replies go to other-company.org, another domain than the sender\'s (acme-tools.com).');
    expect(text).toContain('Mail filters block attachments of this type: setup.exe, macros.docm.');
  });
});
