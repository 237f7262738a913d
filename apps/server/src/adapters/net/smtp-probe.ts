/**
 * A live test of a user's SMTP server: connect (implicit TLS on 465, STARTTLS when offered on other
 * ports), greet and log in, then quit. The caller passes an address already checked by safe-host.ts;
 * the name the user gave is only the TLS servername, so nothing here resolves DNS.
 */
import { loadNodemailer } from '../mail/nodemailer.ts';

export interface SmtpTarget {
  /** A checked IP address. */
  address: string;
  port: number;
  /** SNI and certificate name; null when the user gave an IP address. */
  servername: string | null;
  user: string;
  pass: string;
}

export type ProbeResult =
  | { ok: true }
  /** The server answered with a refusal (535 on AUTH, 554 on connect, ...): its own words. */
  | { ok: false; rejected: true; response: string }
  /** No SMTP conversation: refused, timed out, TLS failed, connection dropped. */
  | { ok: false; rejected: false; detail: string };

export const IMPLICIT_TLS_PORT = 465;
const MAX_RESPONSE_CHARS = 500;

/** nodemailer options shared by the probe and by mail sending (delivery.ts's SmtpRoute). */
export function smtpTransportOptions(target: Omit<SmtpTarget, 'user' | 'pass'> & { auth?: { user: string; pass: string } }, heloName: string, timeoutMs: number) {
  return {
    host: target.address,
    port: target.port,
    secure: target.port === IMPLICIT_TLS_PORT,
    ...(target.servername ? { servername: target.servername, tls: { servername: target.servername } } : {}),
    name: heloName,
    ...(target.auth ? { auth: target.auth } : {}),
    connectionTimeout: timeoutMs,
    greetingTimeout: timeoutMs,
    socketTimeout: timeoutMs,
    dnsTimeout: timeoutMs,
    // Never log: the conversation carries the credentials.
    logger: false,
    debug: false,
  };
}

export async function probeSmtp(target: SmtpTarget, options: { heloName: string; timeoutMs: number }): Promise<ProbeResult> {
  const transport = loadNodemailer().createTransport(
    smtpTransportOptions({ ...target, auth: { user: target.user, pass: target.pass } }, options.heloName, options.timeoutMs),
  );
  try {
    await transport.verify();
    return { ok: true };
  } catch (error) {
    const { code, response, responseCode, message } = error as { code?: string; response?: string; responseCode?: number; message?: string };
    if (typeof response === 'string' && response.trim() && (code === 'EAUTH' || (responseCode ?? 0) >= 400)) {
      return { ok: false, rejected: true, response: response.trim().slice(0, MAX_RESPONSE_CHARS) };
    }
    return { ok: false, rejected: false, detail: `${code ?? 'error'}: ${message ?? ''}`.slice(0, MAX_RESPONSE_CHARS) };
  } finally {
    transport.close();
  }
}
