/**
 * The bounce listener: an SMTP server that takes mail only for bounce+<id>@<domain> where <id> names
 * a message we sent and <domain> is one we send from (every other recipient is refused at RCPT, so it
 * relays nothing), reads delivery
 * reports out of it and records them. Limits: 2 MB per mail, 20 clients, 60 s idle.
 */
import { SMTPServer } from 'smtp-server';
import type { AppContext } from '../../context.ts';
import { messageIdOfReturnPath, recordDeliveryReport } from './bounces.ts';
import { findMessageById } from './message-repository.ts';
import { findMailing } from './mailing-repository.ts';
import { findSenderRow } from './sender-delivery.ts';
import { mailFromDomain } from '../senders/index.ts';

const MAX_BOUNCE_BYTES = 2 * 1024 * 1024;

export interface InboundListener {
  port: number;
  close(): Promise<void>;
}

function smtpError(message: string, responseCode: number): Error {
  return Object.assign(new Error(message), { responseCode });
}

/**
 * bounce+<id>@<domain> where <id> names a message we sent and <domain> is one we send from: the
 * product's mail domain (spoof senders) or the MAIL FROM domain of the message's domain sender.
 */
async function isOurReturnPath(ctx: AppContext, address: string): Promise<boolean> {
  const id = messageIdOfReturnPath(address);
  const domain = address.split('@').pop()!.toLowerCase();
  const message = id ? await findMessageById(ctx.db, id) : undefined;
  if (!message) return false;
  const mailDomain = ctx.config.MAIL_DOMAIN;
  if (domain === mailDomain || domain.endsWith(`.${mailDomain}`)) return true;
  const mailing = await findMailing(ctx.db, message.owner_id, message.merge_id);
  const sender = mailing ? await findSenderRow(ctx.db, message.owner_id, mailing.sender_id) : undefined;
  return sender?.method === 'domain' && !!sender.subdomain && !!sender.domain && mailFromDomain({ subdomain: sender.subdomain, domain: sender.domain }) === domain;
}

export function createInboundServer(ctx: AppContext): SMTPServer {
  return new SMTPServer({
    name: ctx.config.MAIL_DOMAIN,
    banner: 'Sheaf bounce receiver',
    authOptional: true,
    disabledCommands: ['AUTH', 'STARTTLS'],
    size: MAX_BOUNCE_BYTES,
    maxClients: 20,
    socketTimeout: 60_000,
    closeTimeout: 5_000,
    logger: false,
    async onRcptTo(address, _session, callback) {
      try {
        if (await isOurReturnPath(ctx, address.address)) return callback();
      } catch (error) {
        ctx.log.warn({ err: error }, 'bounce listener: look-up failed');
        return callback(smtpError('Try again later', 451));
      }
      callback(smtpError('No such recipient here', 550));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        if ((stream as unknown as { sizeExceeded?: boolean }).sizeExceeded) return callback(smtpError('Message too large', 552));
        const raw = Buffer.concat(chunks);
        void (async () => {
          // mailparser loads with the first report received, not with every server start.
          const { readDeliveryReport } = await import('./dsn.ts');
          const report = await readDeliveryReport(raw);
          if (report) {
            for (const recipient of session.envelope.rcptTo) {
              const id = messageIdOfReturnPath(recipient.address);
              if (id) await recordDeliveryReport(ctx, id, report);
            }
          }
        })().then(
          () => callback(),
          (error: unknown) => {
            ctx.log.warn({ err: error }, 'bounce listener: report not recorded');
            callback(smtpError('Try again later', 451));
          },
        );
      });
    },
  });
}

/**
 * Starts the listener on INBOUND_SMTP_HOST:INBOUND_SMTP_PORT. A port that is taken does not stop the
 * service (sending works without it; only bounce reports are missed): it is logged as a warning.
 */
export async function startInboundListener(ctx: AppContext): Promise<InboundListener | undefined> {
  const port = ctx.config.INBOUND_SMTP_PORT;
  if (port === null) return undefined;
  const server = createInboundServer(ctx);
  try {
    await new Promise<void>((resolve, reject) => {
      server.server.once('error', reject);
      server.listen(port, ctx.config.INBOUND_SMTP_HOST, () => {
        server.server.removeListener('error', reject);
        resolve();
      });
    });
  } catch (error) {
    ctx.log.warn({ err: error, port, host: ctx.config.INBOUND_SMTP_HOST }, 'bounce listener not started (port in use?): bounce reports will not be received');
    return undefined;
  }
  server.on('error', (error) => ctx.log.warn({ err: error }, 'bounce listener error'));
  const address = server.server.address();
  return {
    port: typeof address === 'object' && address ? address.port : port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
