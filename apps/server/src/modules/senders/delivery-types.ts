/**
 * How mail from a sender leaves: the contract between the senders module (which knows the sender's
 * method, secrets and checks) and the mailing module (which builds and sends the messages). The
 * senders module implements `senderDelivery()` (delivery.ts); mailing only reads this shape.
 */

/** Where the SMTP connection goes. The host is already resolved and checked (no private networks). */
export interface SmtpRoute {
  kind: 'smtp';
  /** The checked IP address to connect to (never re-resolved: DNS rebinding cannot move it); for the
   * platform relay (SMTP_URL, trusted operator config) its host as configured. */
  address: string;
  port: number;
  /** Implicit TLS (port 465) or STARTTLS upgrade when offered. */
  secure: boolean;
  /** The name the user gave: TLS servername (SNI and certificate check) and for messages. */
  servername: string;
  auth?: { user: string; pass: string };
}

/** The platform's own relay is not configured: mail is kept in the local outbox (embedded defaults). */
export interface OutboxRoute {
  kind: 'outbox';
}

export interface SenderDelivery {
  senderId: string;
  method: 'spoof' | 'domain' | 'smtp';
  /** The From header: display name (the wizard's "from name", else the spoof identifier) and address. */
  from: { name: string; address: string };
  /** Reply-To for spoof senders (the user's real address); the composition's reply-to wins when set. */
  replyTo: string | null;
  /**
   * The domain of the envelope sender (MAIL FROM). Mailing uses VERP return paths
   * bounce+<messageId>@<returnPathDomain> for spoof and domain senders, so bounces reach the inbound
   * listener; smtp senders keep their own address as envelope sender (returnPathDomain null).
   */
  returnPathDomain: string | null;
  /** DKIM signing for verified domain senders. */
  dkim: { domainName: string; keySelector: string; privateKey: string } | null;
  route: SmtpRoute | OutboxRoute;
  /** Where delivery notifications go ('failed' or 'all' of docs/email.md#senders). */
  notifications: 'failed' | 'all';
  /** The owner's account address, for notifications. */
  ownerEmail: string;
}
