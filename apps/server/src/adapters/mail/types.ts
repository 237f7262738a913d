/** Mail the platform itself sends to account holders (password resets; verification codes later). */
export interface AccountMail {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** Where replies go (a support request's mail: the user who wrote it). */
  replyTo?: string;
  /** Files sent with it (a support request's attachment). */
  attachments?: Array<{ filename: string; content: Buffer; contentType?: string }>;
}

export interface AccountMailer {
  send(mail: AccountMail): Promise<void>;
  /** True when mail is captured in the local outbox (embedded defaults) instead of being relayed. */
  readonly isOutbox: boolean;
}
