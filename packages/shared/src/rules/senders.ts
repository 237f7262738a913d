/**
 * The add-sender form's field rules (docs/email.md#sender-form-rules), each answering the catalogue's
 * error name (docs/email.md#sender-form-rules). The dialog shows them while the user types; the server
 * applies the same functions before it looks anything up (already added, domain claimed and the SMTP
 * login are its own).
 */
import { SMTP_PORT_MAX, SMTP_PORT_MIN } from '../constants.ts';
import { cleanWhitespace } from '../api/common.ts';
import { DEFAULT_SENDER_SUBDOMAIN, type SenderErrorName } from '../api/senders.ts';
import { isValidEmail } from '../api/users.ts';

export function senderEmailProblem(email: string): SenderErrorName | null {
  const value = cleanWhitespace(email);
  if (value === '') return 'EmptyEmailError';
  if (!isValidEmail(value)) return 'EmailError';
  return null;
}

/**
 * A spoof sender's display name: letters (with their combining marks, so "José" typed as e + U+0301
 * passes like the precomposed é), digits, spaces and . , ' - _ &; at most 64 characters.
 */
export const SENDER_IDENTIFIER_PATTERN = /^[\p{L}\p{M}\p{N} .,'\-_&]{1,64}$/u;

export function identifierProblem(identifier: string): SenderErrorName | null {
  const value = cleanWhitespace(identifier);
  if (value === '') return 'EmptyIdentifierError';
  if (!SENDER_IDENTIFIER_PATTERN.test(value)) return 'IdentifierError';
  return null;
}

/** One DNS label: letters, digits and inner hyphens, 1 to 63 characters. */
const DNS_LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

/**
 * The MAIL FROM subdomain, lower-cased (absent: the default), or the error: letters, digits, dots
 * and hyphens only (docs/email.md#sender-form-rules), each part a DNS label, and the whole name under
 * `domain` at most 253 characters. `domain` may be '' while the address is not typed yet.
 */
export function parseSubdomain(subdomain: string | undefined, domain: string): { subdomain: string } | { error: SenderErrorName } {
  const value = cleanWhitespace(subdomain ?? DEFAULT_SENDER_SUBDOMAIN).toLowerCase().replace(/\.$/, '');
  const valid = /^[a-z0-9.-]+$/.test(value) && value.split('.').every((label) => DNS_LABEL.test(label)) && value.length + 1 + domain.length <= 253;
  return valid ? { subdomain: value } : { error: 'SubdomainError' };
}

const IPV4 = /^\d{1,3}(?:\.\d{1,3}){3}$/;

/**
 * An SMTP server as typed: a host name (international names allowed, stored as punycode), an IPv4
 * address (in any spelling the URL parser and resolvers accept: 127.1 is 127.0.0.1) or an IPv6
 * address, bracketed or not. Returns the normalised host, or null. No port, path or user part.
 */
export function parseServerName(input: string): string | null {
  let text = input.trim();
  if (text === '' || text.length > 255 || /[\s%/?#@\\]/.test(text)) return null;
  if (text.includes(':') && !text.startsWith('[')) text = `[${text}]`;
  let host: string;
  try {
    host = new URL(`http://${text}/`).hostname;
  } catch {
    return null;
  }
  if (host.startsWith('[')) return host;
  host = host.replace(/\.$/, '');
  if (IPV4.test(host)) return host;
  return host.length <= 253 && host.split('.').every((label) => DNS_LABEL.test(label)) ? host : null;
}

export const isValidServerName = (input: string): boolean => parseServerName(input) !== null;

/** A port as a number or as typed (1 to 5 digits, spaces around allowed) from 1 to 99999, else null. */
export function parsePort(port: number | string): number | null {
  const value = typeof port === 'number' ? port : /^\d{1,5}$/.test(port.trim()) ? Number(port.trim()) : Number.NaN;
  return Number.isInteger(value) && value >= SMTP_PORT_MIN && value <= SMTP_PORT_MAX ? value : null;
}

/**
 * The smtp method's fields in the documented order (docs/email.md#sender-form-rules): server, port,
 * username, password. An existing sender keeps its stored password when the field is left empty
 * (`passwordOptional`).
 */
export function smtpFieldProblems(
  input: { server: string; port: number | string; username: string; password: string },
  passwordOptional = false,
): Partial<Record<'server' | 'port' | 'username' | 'password', SenderErrorName>> {
  const problems: Partial<Record<'server' | 'port' | 'username' | 'password', SenderErrorName>> = {};
  if (!isValidServerName(input.server)) problems.server = 'ServerError';
  if (parsePort(input.port) === null) problems.port = 'PortError';
  if (input.username.trim() === '') problems.username = 'UsernameError';
  if (input.password === '' && !passwordOptional) problems.password = 'PasswordError';
  return problems;
}
