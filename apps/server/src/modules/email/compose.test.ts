/**
 * The hand-built MIME against independent readers: mailparser reads every part back, the shared
 * prefix's reuse gives the same bytes as encoding each PDF whole, and a DKIM signature verifies with
 * the public key (RFC 6376 relaxed/relaxed, checked here with node:crypto).
 */
import { createHash, createVerify, generateKeyPairSync } from 'node:crypto';
import { simpleParser } from 'mailparser';
import { describe, expect, it } from 'vitest';
import type { SenderDelivery } from '../senders/index.ts';
import { createComposer } from './compose.ts';
import { SharedPrefixEncoder, base64Lines } from './mime.ts';
import type { MailingSnapshot } from './snapshot.ts';

const snapshot: MailingSnapshot = {
  senderId: 's', fromName: 'Zoë Team', subject: '', content: '<p>Dear {{First}} &amp; co, <a href="https://example.com/?q={{First}}">link</a></p>',
  recipientsColumn: 'Email', ccColumn: null, bccColumn: null, replyTo: '', attachments: [],
};
const delivery: SenderDelivery = {
  senderId: 's', method: 'domain', from: { name: '', address: 'billing@example.com' }, replyTo: null, returnPathDomain: 'sheaf.example.com',
  dkim: null, route: { kind: 'outbox' }, notifications: 'failed', ownerEmail: 'owner@example.com',
};
const options = { mailDomain: 'mail.sheaf.test', trackingBaseUrl: 'https://sheaf.test', trackingKey: new Uint8Array(32).fill(7), attachments: [{ name: 'Terms.txt', bytes: Buffer.from('terms') }] };
const message = (id: string, first: string) => ({
  id, to_addresses: ['ann@example.com'], cc_addresses: ['cc@example.com'], bcc_addresses: ['hidden@example.com'], subject: `Grüße, ${first} — Ünïcode`,
  vars: { First: first }, file_name: 'Brief Müller.pdf',
});
const pdf = (tail: string) => Buffer.concat([Buffer.alloc(200_000, 0x25), Buffer.from(tail)]);

describe('compose', () => {
  it('builds a message mailparser reads back part by part, values escaped, Bcc only in the envelope', async () => {
    const composer = createComposer(snapshot, delivery, options);
    const composed = await composer.compose(message('aaaaaaaaaaaaaaaaaaaaaaaa', '<b>Ann</b>'), pdf('row one'));
    expect(composed.envelopeFrom).toBe('bounce+aaaaaaaaaaaaaaaaaaaaaaaa@sheaf.example.com');
    expect(composed.recipients).toEqual(['ann@example.com', 'cc@example.com', 'hidden@example.com']);
    const raw = composed.raw.toString('latin1');
    expect(raw).not.toMatch(/\r?\n\./); // nothing for SMTP to dot-stuff
    expect(raw.replace(/\r\n/g, '')).not.toMatch(/\n/); // CRLF only
    const parsed = await simpleParser(composed.raw);
    expect(parsed.subject).toBe('Grüße, <b>Ann</b> — Ünïcode');
    expect(parsed.from?.value[0]).toEqual({ name: 'Zoë Team', address: 'billing@example.com' });
    expect(parsed.messageId).toBe('<aaaaaaaaaaaaaaaaaaaaaaaa@mail.sheaf.test>');
    expect(parsed.bcc).toBeUndefined();
    expect(parsed.html).toContain('Dear &#60;b&#62;Ann&#60;/b&#62; &amp; co');
    expect(parsed.html).toMatch(/https:\/\/sheaf\.test\/t\/c\/aaaaaaaaaaaaaaaaaaaaaaaa\//);
    expect(parsed.text).toContain('Dear <b>Ann</b> & co');
    expect(parsed.attachments.map((part) => [part.filename, part.contentType])).toEqual([['Brief Müller.pdf', 'application/pdf'], ['Terms.txt', 'text/plain']]);
    expect(parsed.attachments[0]!.content.equals(pdf('row one'))).toBe(true);
  });

  it('encodes the shared PDF prefix once and gives the same bytes as encoding each PDF whole', () => {
    const encoder = new SharedPrefixEncoder();
    for (const tail of ['first row', 'second, longer row', 'third']) {
      const document = pdf(tail);
      expect(Buffer.concat(encoder.encode(document)).equals(base64Lines(document))).toBe(true);
    }
    expect(encoder.reused).toBe(2);
    // A document that does not share the prefix is encoded whole.
    const other = Buffer.from('%PDF-1.7 something else entirely');
    expect(Buffer.concat(encoder.encode(other)).equals(base64Lines(other))).toBe(true);
    expect(encoder.reused).toBe(2);
  });

  it('signs with DKIM so that the signature verifies with the published key', async () => {
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const signed = createComposer(snapshot, { ...delivery, dkim: { domainName: 'example.com', keySelector: 'sheaf', privateKey: privateKey.export({ type: 'pkcs8', format: 'pem' }) as string } }, options);
    const raw = (await signed.compose(message('bbbbbbbbbbbbbbbbbbbbbbbb', 'Ann'), pdf('x'))).raw.toString('latin1');
    const split = raw.indexOf('\r\n\r\n');
    const headerLines = raw.slice(0, split + 2).split(/\r\n(?![ \t])/).filter(Boolean);
    const body = raw.slice(split + 4);
    const signature = headerLines.find((line) => /^DKIM-Signature:/i.test(line))!;
    const tags = Object.fromEntries(signature.slice(signature.indexOf(':') + 1).replace(/\r\n[ \t]/g, '').split(';').map((part) => part.trim()).filter(Boolean).map((part) => [part.slice(0, part.indexOf('=')), part.slice(part.indexOf('=') + 1).replace(/\s+/g, '')]));
    expect(tags).toMatchObject({ d: 'example.com', s: 'sheaf', a: 'rsa-sha256', c: 'relaxed/relaxed' });
    // Relaxed body: trailing blanks off each line, runs of blanks to one, trailing empty lines off.
    const relaxedBody = `${body.split('\r\n').map((line) => line.replace(/[ \t]+/g, ' ').replace(/ $/, '')).join('\r\n').replace(/(\r\n)*$/, '')}\r\n`;
    expect(createHash('sha256').update(relaxedBody, 'latin1').digest('base64')).toBe(tags.bh);
    const relaxedHeader = (line: string) => {
      const colon = line.indexOf(':');
      return `${line.slice(0, colon).trim().toLowerCase()}:${line.slice(colon + 1).replace(/\r\n/g, '').replace(/[ \t]+/g, ' ').trim()}`;
    };
    const used = new Map<string, number>();
    const signedHeaders = tags.h!.split(':').flatMap((name) => {
      const matches = headerLines.filter((line) => line.toLowerCase().startsWith(`${name.toLowerCase()}:`) && !/^DKIM-Signature:/i.test(line));
      const seen = used.get(name.toLowerCase()) ?? 0;
      used.set(name.toLowerCase(), seen + 1);
      const line = matches[matches.length - 1 - seen];
      return line ? [`${relaxedHeader(line)}\r\n`] : [];
    });
    const unsigned = relaxedHeader(signature).replace(/b=[^;]*$/, 'b=').replace(/(;\s*b=)[^;]*/, '$1');
    const verifier = createVerify('RSA-SHA256');
    verifier.update(signedHeaders.join('') + unsigned, 'latin1');
    expect(verifier.verify(publicKey, tags.b!, 'base64')).toBe(true);
  });
});
