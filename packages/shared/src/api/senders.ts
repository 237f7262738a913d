/**
 * Verified senders (docs/email.md#senders). A sender is an address the user has proven is theirs, by one
 * of three methods:
 *  - spoof:  an address on the product's mail domain (local part of the user's own address @ MAIL_DOMAIN)
 *            shown with the identifier as display name; a 4-digit code mailed to the user's real address
 *            proves it; replies go to the real address.
 *  - domain: the user's own domain; the server generates a DKIM key pair and lists DNS records (DKIM, SPF
 *            and two MX on the MAIL FROM subdomain, CNAME for tracking) that real DNS look-ups verify.
 *  - smtp:   the user's own SMTP server; a live connection and login proves it.
 */
import { z } from 'zod';
import { SMTP_DEFAULT_PORT, SMTP_PORT_MAX, SMTP_PORT_MIN, VERIFICATION_CODE_LENGTH } from '../constants.ts';
import { SENDER_METHODS } from '../plans.ts';
import { cleanWhitespace } from './common.ts';

export const SenderMethodSchema = z.enum(SENDER_METHODS);

export const SENDER_NOTIFICATIONS = ['failed', 'all'] as const;
export const SenderNotificationsSchema = z.enum(SENDER_NOTIFICATIONS);

/** Default MAIL FROM subdomain of a domain sender: the product's name (docs/limits.md#senders-and-email). */
export const DEFAULT_SENDER_SUBDOMAIN = 'sheaf';

export const DNS_RECORD_PURPOSES = ['dkim', 'spf', 'mxa', 'mxb', 'cname'] as const;
export const DnsRecordSchema = z.object({
  /** What the record proves; maps to isDkimVerified, isSpfVerified, isMxaVerified, isMxbVerified, isCnameVerified. */
  purpose: z.enum(DNS_RECORD_PURPOSES),
  type: z.enum(['TXT', 'MX', 'CNAME']),
  /** Fully qualified name to create. */
  name: z.string(),
  /** The value to give it (for MX: "10 mx.example.com"). */
  value: z.string(),
  status: z.enum(['pending', 'success']),
  /** ISO time of the last look-up, null before the first. */
  checkedAt: z.string().nullable(),
});
export type DnsRecord = z.infer<typeof DnsRecordSchema>;

/** A sender as the client sees it. Secrets (SMTP password, DKIM private key) never leave the server. */
export const SenderSchema = z.object({
  id: z.string(),
  email: z.string(),
  method: SenderMethodSchema,
  isVerified: z.boolean(),
  isDkimVerified: z.boolean(),
  isSpfVerified: z.boolean(),
  isCnameVerified: z.boolean(),
  isMxaVerified: z.boolean(),
  isMxbVerified: z.boolean(),
  /** spoof: the display name; null otherwise. */
  identifier: z.string().nullable(),
  /** spoof: the address mail is sent from (local part @ the product's mail domain); otherwise null. */
  spoofAddress: z.string().nullable(),
  /** domain: the MAIL FROM subdomain (default 'sheaf'); null otherwise. */
  subdomain: z.string().nullable(),
  dnsRecords: z.array(DnsRecordSchema),
  notifications: SenderNotificationsSchema,
  /** smtp only. */
  server: z.string().nullable(),
  port: z.number().int().nullable(),
  username: z.string().nullable(),
  /** smtp: true when a password is stored (it is never returned). */
  hasPassword: z.boolean(),
  /** smtp: the last verification error (the server's reply text), null when none. */
  lastError: z.string().nullable(),
  createdAt: z.string(),
  verifiedAt: z.string().nullable(),
});
export type Sender = z.infer<typeof SenderSchema>;

export const SenderListSchema = z.object({ senders: z.array(SenderSchema) });

const trimmed = (max: number) => z.string().max(max).transform((value) => cleanWhitespace(value));

/**
 * POST /senders. Validation happens in the service so each problem gets its error name of
 * docs/email.md#sender-form-rules (EmptyEmailError, ServerError, ...) as a field error; the schema only
 * bounds sizes.
 */
export const CreateSenderSchema = z.discriminatedUnion('method', [
  z.object({ method: z.literal('spoof'), email: trimmed(254), identifier: trimmed(100), notifications: SenderNotificationsSchema.optional() }),
  z.object({ method: z.literal('domain'), email: trimmed(254), subdomain: trimmed(63).optional(), notifications: SenderNotificationsSchema.optional() }),
  z.object({
    method: z.literal('smtp'),
    email: trimmed(254),
    server: trimmed(253),
    port: z.union([z.number(), z.string()]).optional().default(SMTP_DEFAULT_PORT),
    username: z.string().max(254),
    password: z.string().max(1024),
    notifications: SenderNotificationsSchema.optional(),
  }),
]);
export type CreateSender = z.input<typeof CreateSenderSchema>;

/** POST /senders answers with the new sender and the whole list. */
export const CreateSenderResponseSchema = z.object({ sender: SenderSchema, senders: z.array(SenderSchema) });

/**
 * POST /senders/verify: spoof sends the code; domain re-checks DNS; smtp runs the live test again
 * (optionally with corrected connection fields, which are saved when the test passes).
 */
export const VerifySenderSchema = z.object({
  id: z.string(),
  code: z.string().regex(new RegExp(`^[0-9]{${VERIFICATION_CODE_LENGTH}}$`)).optional(),
  server: trimmed(253).optional(),
  port: z.union([z.number(), z.string()]).optional(),
  username: z.string().max(254).optional(),
  password: z.string().max(1024).optional(),
});
export const VerifySenderResponseSchema = z.object({ sender: SenderSchema, senders: z.array(SenderSchema) });

export const UpdateSenderSchema = z.object({ notifications: SenderNotificationsSchema });
export const SenderParamsSchema = z.object({ senderId: z.string().min(1).max(40) });

/** Range of the SMTP port field (docs/email.md#sender-form-rules: 1 to 99999; a real TCP port is at most 65535). */
export const SMTP_PORT_RANGE = { min: SMTP_PORT_MIN, max: SMTP_PORT_MAX } as const;

/**
 * The sender error names (docs/email.md#sender-form-rules) and the field each is shown under. The server
 * answers { code: 'sender/<name>', fields: { <field>: code } } so the dialog puts the text under the
 * field.
 */
export const SENDER_FIELD_ERRORS = {
  EmptyEmailError: 'email',
  EmailError: 'email',
  EmailAlreadyAddedError: 'email',
  EmailAlreadyVerifiedError: 'email',
  EmptyIdentifierError: 'identifier',
  IdentifierError: 'identifier',
  DomainAlreadyInUse: 'email',
  SubdomainError: 'subdomain',
  ServerError: 'server',
  PortError: 'port',
  UsernameError: 'username',
  PasswordError: 'password',
} as const;
export type SenderErrorName = keyof typeof SENDER_FIELD_ERRORS;
