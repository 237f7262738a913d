/**
 * SMTP senders: the user's own server, proven by a live connection and login. The host is checked by
 * the SSRF guard first (adapters/net/safe-host.ts) and the test connects to the checked address.
 * Outcomes (docs/email.md#smtp-senders, VerificationError): the server refused (its reply text as
 * {response}) or the connection failed ('Connection to the SMTP server failed').
 */
import { SheafError, SheafFieldErrors, formatErrorMessage } from '@sheaf/shared';
import type { AppContext } from '../../context.ts';
import { checkHost, UnsafeHostError, type CheckedHost } from '../../adapters/net/safe-host.ts';
import { probeSmtp } from '../../adapters/net/smtp-probe.ts';
import { senderFieldError, type SmtpFields } from './validation.ts';

/** Connect, greeting and each reply may take this long. */
export const SMTP_TEST_TIMEOUT_MS = 15_000;

/** The host's address to connect to; a refused network is the server field's error. */
export async function checkedSmtpHost(ctx: AppContext, server: string): Promise<CheckedHost | 'unresolvable'> {
  try {
    return await checkHost(server, { allowPrivate: ctx.config.SMTP_ALLOW_PRIVATE_HOSTS });
  } catch (error) {
    if (!(error instanceof UnsafeHostError)) throw error;
    if (error.problem === 'invalid') throw senderFieldError('ServerError');
    if (error.problem === 'forbidden') throw new SheafFieldErrors({ server: 'sender/host-forbidden' });
    return 'unresolvable';
  }
}

/** What a failed test leaves: the error to answer and the text kept as the sender's lastError. */
export interface SmtpTestFailure {
  error: SheafError;
  lastError: string;
}

/**
 * Runs the live test. Throws field errors for an invalid or forbidden host (nothing is tried then);
 * answers null when the server accepted the login, else the failure. `senderId` goes into the error's
 * params so the dialog can retry the same sender with corrected fields (POST /senders/verify).
 */
export async function testSmtp(ctx: AppContext, fields: SmtpFields, senderId: string): Promise<SmtpTestFailure | null> {
  const host = await checkedSmtpHost(ctx, fields.server);
  const failed = (): SmtpTestFailure => ({ error: new SheafError('sender/smtp-failed', { senderId }), lastError: formatErrorMessage('sender/smtp-failed') });
  if (host === 'unresolvable') return failed();
  const result = await probeSmtp(
    { address: host.address, port: fields.port, servername: host.servername, user: fields.username, pass: fields.password },
    { heloName: ctx.config.MAIL_DOMAIN, timeoutMs: SMTP_TEST_TIMEOUT_MS },
  );
  if (result.ok) return null;
  if (result.rejected) return { error: new SheafError('sender/smtp-rejected', { response: result.response, senderId }), lastError: result.response };
  // The cause stays in the log (never the credentials); the user sees the catalogue's words.
  ctx.log.info({ senderId, detail: result.detail }, 'SMTP sender test failed');
  return failed();
}
