import type { Config } from '../../config.ts';
import { OutboxMailer } from './outbox.ts';
import { SmtpMailer } from './smtp.ts';
import type { AccountMailer } from './types.ts';

/** SMTP when SMTP_URL is set; otherwise the local outbox (read with `sheaf outbox`). */
export function openMailer(config: Pick<Config, 'SMTP_URL' | 'MAIL_FROM' | 'OUTBOX_DIR'>): AccountMailer {
  return config.SMTP_URL ? new SmtpMailer(config.SMTP_URL, config.MAIL_FROM) : new OutboxMailer(config.OUTBOX_DIR, config.MAIL_FROM);
}

export type { AccountMail, AccountMailer } from './types.ts';
