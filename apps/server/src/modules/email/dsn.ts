/**
 * Delivery status notifications (RFC 3464): a multipart/report whose message/delivery-status part has
 * a block per recipient with Action (failed, delayed, delivered, relayed, expanded) and Status
 * (5.x.x permanent, 4.x.x transient, 2.x.x success). What a report means for the message:
 *   failed + 5.x.x          -> hardBounce (not retried)
 *   failed + 4.x.x, delayed -> softBounce (retried with backoff)
 *   delivered / relayed     -> delivered
 */
import { simpleParser } from 'mailparser';

export interface DeliveryReport {
  status: 'hardBounce' | 'softBounce' | 'delivered';
  /** The recipient's status code and the remote server's words, for the report. */
  detail: string;
}

interface Fields {
  action?: string;
  status?: string;
  diagnostic?: string;
  recipient?: string;
}

/** The per-recipient blocks of a delivery-status body (header-like fields, blocks separated by blank lines). */
export function parseDeliveryStatus(text: string): Fields[] {
  const blocks = text.replace(/\r\n/g, '\n').replace(/\n[ \t]+/g, ' ').split(/\n\s*\n/);
  const recipients: Fields[] = [];
  for (const block of blocks) {
    const fields: Fields = {};
    for (const line of block.split('\n')) {
      const match = /^([A-Za-z-]+):\s*(.*)$/.exec(line.trim());
      if (!match) continue;
      const name = match[1]!.toLowerCase();
      const value = match[2]!.trim();
      if (name === 'action') fields.action = value.toLowerCase();
      else if (name === 'status') fields.status = value;
      else if (name === 'diagnostic-code') fields.diagnostic = value.replace(/^smtp;\s*/i, '');
      else if (name === 'final-recipient' || name === 'original-recipient') fields.recipient ??= value.replace(/^rfc822;\s*/i, '');
    }
    if (fields.action) recipients.push(fields);
  }
  return recipients;
}

function meaning(fields: Fields): DeliveryReport | undefined {
  const code = /^([245])\.\d{1,3}\.\d{1,3}/.exec(fields.status ?? '')?.[1];
  const detail = [fields.status, fields.diagnostic].filter(Boolean).join(' ').slice(0, 1000) || (fields.action ?? '');
  if (fields.action === 'delivered' || fields.action === 'relayed' || fields.action === 'expanded') return { status: 'delivered', detail };
  if (fields.action === 'delayed') return { status: 'softBounce', detail };
  if (fields.action === 'failed') return { status: code === '4' ? 'softBounce' : 'hardBounce', detail };
  return undefined;
}

/** Most severe first: one failed recipient makes the message bounced. */
const SEVERITY: Record<DeliveryReport['status'], number> = { hardBounce: 3, softBounce: 2, delivered: 1 };

/**
 * The body of each message/delivery-status part of a multipart/report. mailparser folds such parts
 * into the text, so the parts are found in the raw MIME: after the part's headers, up to the next
 * boundary line. (Delivery-status fields are US-ASCII, RFC 3464.)
 */
function deliveryStatusBodies(raw: string): string[] {
  const bodies: string[] = [];
  const header = /^Content-Type:[ \t]*message\/(?:global-)?delivery-status\b[^\n]*\n(?:[ \t][^\n]*\n)*/gim;
  for (let match = header.exec(raw); match; match = header.exec(raw)) {
    const rest = raw.slice(match.index + match[0].length).replace(/\r\n/g, '\n');
    const start = rest.indexOf('\n\n');
    if (start < 0) continue;
    const body = rest.slice(start + 2);
    const end = body.search(/^--/m);
    bodies.push(end < 0 ? body : body.slice(0, end));
  }
  return bodies;
}

/** What a bounce mail reports, or undefined when it is no delivery report (an auto-reply, spam). */
export async function readDeliveryReport(raw: Buffer): Promise<DeliveryReport | undefined> {
  const mail = await simpleParser(raw, { skipHtmlToText: true, skipTextToHtml: true, skipImageLinks: true });
  if (!/^multipart\/report$/i.test(String(mail.headers.get('content-type') && (mail.headers.get('content-type') as { value?: string }).value))) return undefined;
  const reports = deliveryStatusBodies(raw.toString('latin1')).flatMap(parseDeliveryStatus).map(meaning).filter((report): report is DeliveryReport => !!report);
  reports.sort((a, b) => SEVERITY[b.status] - SEVERITY[a.status]);
  return reports[0];
}
