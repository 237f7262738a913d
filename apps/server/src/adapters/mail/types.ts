/** Mail the platform itself sends to account holders (password resets; verification codes later). */
export interface AccountMail {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

export interface AccountMailer {
  send(mail: AccountMail): Promise<void>;
  /** True when mail is captured in the local outbox (embedded defaults) instead of being relayed. */
  readonly isOutbox: boolean;
}
