/**
 * Builds each message of a mailing: prepared once per run (sender, static attachments encoded once,
 * the shared-prefix encoder of the rows' PDFs), then per message only the row's own parts.
 */
import { Readable } from 'node:stream';
import { isValidEmail } from '@sheaf/shared';
import type { AppContext } from '../../context.ts';
import type { SenderDelivery } from '../senders/index.ts';
import { blobLayout } from '../../adapters/blobs/layout.ts';
import { loadDkim } from '../../adapters/mail/nodemailer.ts';
import { decodeTagName, fillHtml, fillText, plainText } from './content.ts';
import { oneLine } from './document-index.ts';
import type { MessageRow } from './message-repository.ts';
import { SharedPrefixEncoder, base64Lines, buildMime, formatAddress, type MimeAttachment } from './mime.ts';
import type { MailingSnapshot } from './snapshot.ts';
import { addTracking } from './tracking-links.ts';

export interface ComposedMessage {
  /** MAIL FROM: the VERP return path, or the sender's own address. */
  envelopeFrom: string;
  /** RCPT TO: To, Cc and Bcc, each once. */
  recipients: string[];
  raw: Buffer;
}

export type Composable = Pick<MessageRow, 'id' | 'to_addresses' | 'cc_addresses' | 'bcc_addresses' | 'subject' | 'vars' | 'file_name'>;

export interface Composer {
  compose(message: Composable, pdf: Buffer): Promise<ComposedMessage>;
  /** How many PDFs reused the shared prefix's encoding. */
  readonly reusedPrefixes: number;
}

export interface ComposerOptions {
  mailDomain: string;
  /** Where tracking URLs point (PUBLIC_URL). */
  trackingBaseUrl: string;
  trackingKey: Uint8Array;
  /** Static attachments: name and bytes. */
  attachments: { name: string; bytes: Uint8Array }[];
  /** Open pixel and click redirects (off for a test email, whose message is not stored). */
  tracking?: boolean;
}

/** The VERP return path of a message: bounces name the message they are about. */
export function returnPath(messageId: string, domain: string): string {
  return `bounce+${messageId}@${domain}`;
}

export function messageIdHeader(messageId: string, mailDomain: string): string {
  return `${messageId}@${mailDomain}`;
}

function contentTypeOf(name: string): string {
  const extension = name.toLowerCase().split('.').pop() ?? '';
  const types: Record<string, string> = {
    pdf: 'application/pdf', png: 'image/png', jpg: 'image/jpeg', jpeg: 'image/jpeg', gif: 'image/gif', txt: 'text/plain',
    csv: 'text/csv', doc: 'application/msword', docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', xls: 'application/vnd.ms-excel', zip: 'application/zip',
  };
  return types[extension] ?? 'application/octet-stream';
}

async function dkimSign(raw: Buffer, dkim: NonNullable<SenderDelivery['dkim']>): Promise<Buffer> {
  const Dkim = loadDkim();
  const signer = new Dkim({ domainName: dkim.domainName, keySelector: dkim.keySelector, privateKey: dkim.privateKey });
  const chunks: Buffer[] = [];
  for await (const chunk of signer.sign(Readable.from([raw]))) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

export function createComposer(snapshot: MailingSnapshot, delivery: SenderDelivery, options: ComposerOptions): Composer {
  const encoder = new SharedPrefixEncoder();
  const statics: MimeAttachment[] = options.attachments.map((attachment) => ({
    fileName: attachment.name,
    contentType: contentTypeOf(attachment.name),
    encoded: [base64Lines(attachment.bytes)],
  }));
  const from = formatAddress(snapshot.fromName || delivery.from.name, delivery.from.address);
  // The text part is converted once, tags and all, then filled per row like the subject (html-to-text
  // per message would cost more than the rest of the message together).
  const textTemplate = plainText(snapshot.content);
  return {
    get reusedPrefixes() {
      return encoder.reused;
    },
    async compose(message, pdf) {
      const valueOf = (column: string) => message.vars[column] ?? '';
      const filled = fillHtml(snapshot.content, valueOf);
      const html = `<!doctype html><html><head><meta charset="utf-8"></head><body>${options.tracking === false ? filled : addTracking(filled, options.trackingBaseUrl, options.trackingKey, message.id)}</body></html>`;
      const replyToAddress = snapshot.replyTo ? oneLine(fillText(snapshot.replyTo, valueOf)) : '';
      const replyTo = isValidEmail(replyToAddress) ? replyToAddress : delivery.replyTo;
      const chunks = buildMime(
        {
          from,
          to: message.to_addresses,
          cc: message.cc_addresses,
          replyTo,
          subject: message.subject,
          messageId: messageIdHeader(message.id, options.mailDomain),
          date: new Date(),
        },
        fillText(textTemplate, (column) => valueOf(decodeTagName(column))),
        html,
        [{ fileName: message.file_name, contentType: 'application/pdf', encoded: encoder.encode(pdf) }, ...statics],
        `=_sheaf_${message.id}`,
      );
      let raw: Buffer = Buffer.concat(chunks);
      if (delivery.dkim) raw = await dkimSign(raw, delivery.dkim);
      const recipients = [...new Set([...message.to_addresses, ...message.cc_addresses, ...message.bcc_addresses])];
      return {
        envelopeFrom: delivery.returnPathDomain ? returnPath(message.id, delivery.returnPathDomain) : delivery.from.address,
        recipients,
        raw,
      };
    },
  };
}

/** Loads the static attachments a mailing froze when its merge started. */
export async function loadFrozenAttachments(ctx: AppContext, mergeId: string, snapshot: MailingSnapshot): Promise<{ name: string; bytes: Uint8Array }[]> {
  return Promise.all(snapshot.attachments.map(async (attachment) => ({ name: attachment.name, bytes: await ctx.blobs.get(blobLayout.merge.attachment(mergeId, attachment.name)) })));
}
