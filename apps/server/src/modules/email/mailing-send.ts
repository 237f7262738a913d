/**
 * The sending loop of one run: messages claimed from the database in small batches and handed out to
 * MAIL_CONCURRENCY workers, each with its own SMTP connection (or the local outbox). Each outcome is
 * written as soon as it is known, so at most the messages in flight can be sent twice after a crash.
 */
import type { BlobReader } from '../../adapters/blobs/types.ts';
import { saveRawMail } from '../../adapters/mail/outbox.ts';
import type { Db } from '../../adapters/db/types.ts';
import type { SenderDelivery } from '../senders/index.ts';
import type { Composer } from './compose.ts';
import { claimDueMessages, recordSendOutcome, releaseMessage, type MessageRow } from './message-repository.ts';
import { SmtpChannel, type WireOutcome } from './smtp-channel.ts';
import { readStoredEntry } from './zip-documents.ts';

/** Times a message is handed to SMTP (first try included) before it is given up as failed. */
export const MAX_SEND_ATTEMPTS = 5;
export const OUTBOX_DETAIL = 'Kept in the local outbox: no mail relay is configured on this server';

export interface SendRunOptions {
  db: Db;
  mergeId: string;
  delivery: SenderDelivery;
  composer: Composer;
  zip: BlobReader;
  concurrency: number;
  retryBaseMs: number;
  mailDomain: string;
  outboxDir: string;
  signal: AbortSignal;
}

/** The wait before try `attempts + 1`: retryBaseMs, doubled per try. */
export function retryDelay(baseMs: number, attempts: number): number {
  return baseMs * 2 ** Math.max(0, attempts - 1);
}

type Transport = (message: MessageRow, envelope: { from: string; to: string[] }, raw: Buffer) => Promise<WireOutcome>;

function transportFor(options: SendRunOptions): { transport: () => Transport; close: () => void } {
  const { route } = options.delivery;
  if (route.kind === 'outbox') {
    const transport: Transport = async (message, _envelope, raw) => {
      const entry = await saveRawMail(options.outboxDir, raw, { to: message.to_addresses.join(', '), subject: message.subject });
      return { kind: 'accepted', reply: `${OUTBOX_DETAIL} (${entry.file})`, rejected: [] };
    };
    return { transport: () => transport, close: () => undefined };
  }
  const channels: SmtpChannel[] = [];
  return {
    transport: () => {
      const channel = new SmtpChannel(route, options.mailDomain);
      channels.push(channel);
      return (message, envelope, raw) => channel.send({ ...envelope, envelopeId: message.id }, raw);
    },
    close: () => channels.forEach((channel) => channel.close()),
  };
}

async function record(options: SendRunOptions, message: MessageRow, outcome: WireOutcome): Promise<void> {
  if (outcome.kind === 'accepted') {
    const refused = outcome.rejected.length ? ` (refused: ${outcome.rejected.join(', ')})` : '';
    return recordSendOutcome(options.db, message.id, { status: 'accepted', detail: `${outcome.reply}${refused}` });
  }
  if (outcome.kind === 'retry') {
    if (message.attempts >= MAX_SEND_ATTEMPTS) {
      return recordSendOutcome(options.db, message.id, { status: 'failed', detail: `Gave up after ${message.attempts} tries: ${outcome.reply}` });
    }
    const retryAt = new Date(Date.now() + retryDelay(options.retryBaseMs, message.attempts));
    return recordSendOutcome(options.db, message.id, { status: 'queued', detail: `Will try again: ${outcome.reply}`, retryAt });
  }
  return recordSendOutcome(options.db, message.id, { status: outcome.kind, detail: outcome.reply });
}

/** Sends every message that is due now; returns how many were handed over. Stops at the next message once aborted. */
export async function sendDueMessages(options: SendRunOptions): Promise<number> {
  const { transport, close } = transportFor(options);
  const waiting: MessageRow[] = [];
  let exhausted = false;
  let claiming: Promise<void> | undefined;
  let handed = 0;

  const refill = () =>
    (claiming ??= claimDueMessages(options.db, options.mergeId, options.concurrency * 4, MAX_SEND_ATTEMPTS)
      .then((rows) => {
        if (rows.length === 0) exhausted = true;
        waiting.push(...rows);
      })
      .finally(() => (claiming = undefined)));

  let failure: unknown;
  const stopped = () => options.signal.aborted || failure !== undefined;
  const next = async (): Promise<MessageRow | undefined> => {
    while (waiting.length === 0 && !exhausted && !stopped()) await refill();
    return stopped() ? undefined : waiting.shift();
  };

  const worker = async () => {
    const send = transport();
    try {
      for (let message = await next(); message; message = await next()) {
        const pdf = await readStoredEntry(options.zip, Number(message.zip_offset), Number(message.zip_size), message.file_name);
        const composed = await options.composer.compose(message, pdf);
        handed += 1;
        const outcome = await send(message, { from: composed.envelopeFrom, to: composed.recipients }, composed.raw);
        await record(options, message, outcome);
      }
    } catch (error) {
      failure ??= error; // the other workers stop at their next message
    }
  };

  try {
    await Promise.all(Array.from({ length: options.concurrency }, worker));
    if (failure !== undefined) throw failure;
  } finally {
    close();
    // Claimed but never handed over (a stop, or a failure): due again, not counted as a try.
    for (const message of waiting.splice(0)) await releaseMessage(options.db, message.id).catch(() => undefined);
  }
  return handed;
}
