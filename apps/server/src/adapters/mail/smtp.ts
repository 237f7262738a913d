/** Account mail relayed through an SMTP server (SMTP_URL) with nodemailer. */
import type { Transporter } from 'nodemailer';
import { loadNodemailer } from './nodemailer.ts';
import type { AccountMail, AccountMailer } from './types.ts';

export class SmtpMailer implements AccountMailer {
  readonly isOutbox = false;
  /** Made with the first mail (nodemailer loads then, not at start). */
  private transport: Transporter | undefined;

  constructor(
    private readonly smtpUrl: string,
    private readonly from: string,
  ) {}

  async send(mail: AccountMail): Promise<void> {
    // nodemailer's logger stays off (its default): its debug output would include reset links.
    this.transport ??= loadNodemailer().createTransport(this.smtpUrl);
    await this.transport.sendMail({ from: this.from, ...mail });
  }

  close(): void {
    this.transport?.close();
  }
}
