/**
 * nodemailer (about 40 modules) loaded on first use: a server that sends no mail in its first moments
 * (most never relay any: the outbox is the embedded default) should not parse it at every start. Its
 * CommonJS build is required from node_modules, synchronously, so callers stay as they were.
 */
import { createRequire } from 'node:module';

const requireHere = createRequire(import.meta.url);

// The CommonJS builds export the default itself (module.exports = the class / the package object).
type Nodemailer = typeof import('nodemailer').default;
type SmtpConnectionClass = typeof import('nodemailer/lib/smtp-connection').default;
type DkimClass = typeof import('nodemailer/lib/dkim').default;

/** The package's main export (createTransport...). */
export const loadNodemailer = (): Nodemailer => requireHere('nodemailer') as Nodemailer;
/** The low-level SMTP client a mailing keeps open across messages. */
export const loadSmtpConnection = (): SmtpConnectionClass => requireHere('nodemailer/lib/smtp-connection') as SmtpConnectionClass;
/** The DKIM signer. */
export const loadDkim = (): DkimClass => requireHere('nodemailer/lib/dkim') as DkimClass;
