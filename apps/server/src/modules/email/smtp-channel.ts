/**
 * One SMTP connection of a mailing, opened on first use and reused for message after message (each
 * message is its own MAIL FROM ... DATA transaction). A connection that failed is dropped and the
 * next message opens a new one. Messages go out as the raw bytes mime.ts built, unchanged.
 */
import type SMTPConnection from 'nodemailer/lib/smtp-connection';
import { loadSmtpConnection } from '../../adapters/mail/nodemailer.ts';
import type { SmtpRoute } from '../senders/index.ts';

export interface SmtpEnvelope {
  from: string;
  to: string[];
  /** Envelope id (ENVID) of the delivery reports. */
  envelopeId: string;
}

/** What happened to one message on the wire. */
export type WireOutcome =
  | { kind: 'accepted'; reply: string; rejected: string[] }
  /** 4xx, or no reply at all (connection refused, dropped, timed out): try again later. */
  | { kind: 'retry'; reply: string }
  /** 5xx about the recipients (RCPT refused): the address will not work. */
  | { kind: 'hardBounce'; reply: string }
  /** 5xx about the message or the sender (MAIL FROM, DATA, login): not retried. */
  | { kind: 'failed'; reply: string };

interface NodemailerErrorLike extends Error {
  code?: string;
  responseCode?: number;
  response?: string;
  command?: string;
}

const TIMEOUTS = { connectionTimeout: 15_000, greetingTimeout: 15_000, socketTimeout: 60_000 };

/** Classifies a send failure (documented in ARCHITECTURE.md, "Mailing"). */
export function classifyFailure(error: NodemailerErrorLike): WireOutcome {
  const reply = (error.response || error.message || 'no reply').replace(/\s+/g, ' ').trim();
  const code = error.responseCode;
  if (!code || code < 500) return { kind: 'retry', reply };
  // RCPT refused: the reply concerns the recipient's address.
  if (error.code === 'EENVELOPE' && /RCPT/i.test(error.command ?? 'RCPT') && !/MAIL FROM/i.test(error.command ?? '')) return { kind: 'hardBounce', reply };
  return { kind: 'failed', reply };
}

export class SmtpChannel {
  private connection: SMTPConnection | undefined;
  private connecting: Promise<SMTPConnection> | undefined;

  constructor(
    private readonly route: SmtpRoute,
    /** The name we greet with (EHLO): the product's mail domain. */
    private readonly clientName: string,
  ) {}

  private open(): Promise<SMTPConnection> {
    this.connecting ??= new Promise<SMTPConnection>((resolve, reject) => {
      const SmtpConnection = loadSmtpConnection();
      const connection = new SmtpConnection({
        host: this.route.address,
        port: this.route.port,
        secure: this.route.secure,
        servername: this.route.servername,
        name: this.clientName,
        tls: { servername: this.route.servername },
        ...TIMEOUTS,
        logger: false,
      });
      const fail = (error: Error) => {
        connection.close();
        reject(error);
      };
      connection.once('error', fail);
      connection.connect(() => {
        const ready = () => {
          connection.removeListener('error', fail);
          // Later errors (a dropped socket between messages) end this connection; the next send reconnects.
          connection.on('error', () => this.drop(connection));
          connection.once('end', () => this.drop(connection));
          this.connection = connection;
          resolve(connection);
        };
        if (!this.route.auth) return ready();
        connection.login({ user: this.route.auth.user, pass: this.route.auth.pass }, (error) => (error ? fail(error) : ready()));
      });
    }).finally(() => {
      this.connecting = undefined;
    });
    return this.connecting;
  }

  private drop(connection: SMTPConnection): void {
    if (this.connection === connection) this.connection = undefined;
    connection.close();
  }

  /** Hands one message to the server; never throws. */
  async send(envelope: SmtpEnvelope, message: Buffer): Promise<WireOutcome> {
    let connection: SMTPConnection;
    try {
      connection = this.connection ?? (await this.open());
    } catch (error) {
      return classifyFailure(error as NodemailerErrorLike);
    }
    return new Promise<WireOutcome>((resolve) => {
      connection.send(
        {
          from: envelope.from,
          to: envelope.to,
          size: message.length,
          dsn: { notify: ['SUCCESS', 'FAILURE', 'DELAY'], ret: 'HDRS', envid: envelope.envelopeId },
        },
        message,
        (error, info) => {
          if (error) {
            const outcome = classifyFailure(error as NodemailerErrorLike);
            // After a failure mid-transaction the connection's state is unknown: start afresh.
            if (outcome.kind === 'retry' || !(error as NodemailerErrorLike).responseCode) {
              this.drop(connection);
              return resolve(outcome);
            }
            // A refused transaction leaves the connection usable once reset.
            return connection.reset((resetError) => {
              if (resetError) this.drop(connection);
              resolve(outcome);
            });
          }
          resolve({ kind: 'accepted', reply: info.response, rejected: info.rejected ?? [] });
        },
      );
    });
  }

  close(): void {
    if (this.connection) {
      const connection = this.connection;
      this.connection = undefined;
      connection.quit();
      // quit waits for the server's answer; make sure the socket goes either way.
      setTimeout(() => connection.close(), 1_000).unref();
    }
  }
}
