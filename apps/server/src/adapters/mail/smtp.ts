/** Account mail relayed through an SMTP server (SMTP_URL) with nodemailer. */
import nodemailer, { type Transporter } from 'nodemailer';
import type { AccountMail, AccountMailer } from './types.ts';

export class SmtpMailer implements AccountMailer {
  readonly isOutbox = false;
  private readonly transport: Transporter;

  constructor(smtpUrl: string, private readonly from: string) {
    // nodemailer's logger stays off (its default): its debug output would include reset links.
    this.transport = nodemailer.createTransport(smtpUrl);
  }

  async send(mail: AccountMail): Promise<void> {
    await this.transport.sendMail({ from: this.from, ...mail });
  }

  close(): void {
    this.transport.close();
  }
}
