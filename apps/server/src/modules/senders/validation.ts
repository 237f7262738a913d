/**
 * The sender form rules of spec section 5, in the spec's order, each failing with the spec's error name
 * (section 8) shown under its field. Checks that need the database (already added, already verified,
 * domain claimed) are the service's; these are the pure ones.
 */
import {
  DEFAULT_SENDER_SUBDOMAIN, SENDER_FIELD_ERRORS, SMTP_PORT_RANGE, SheafFieldErrors, cleanWhitespace, isValidEmail,
  type SenderErrorName,
} from '@sheaf/shared';
import { parseHost } from '../../adapters/net/safe-host.ts';

/** The spec's error as a field error: { code: 'sender/<name>', fields: { <field>: 'sender/<name>' } }. */
export function senderFieldError(name: SenderErrorName): SheafFieldErrors {
  return new SheafFieldErrors({ [SENDER_FIELD_ERRORS[name]]: `sender/${name}` });
}

export function fail(name: SenderErrorName | null): void {
  if (name) throw senderFieldError(name);
}

export const normaliseEmail = (email: string) => cleanWhitespace(email).toLowerCase();

export function emailProblem(email: string): SenderErrorName | null {
  if (email === '') return 'EmptyEmailError';
  if (!isValidEmail(email)) return 'EmailError';
  return null;
}

// Letters, digits, spaces and . , ' - _ & (the catalogue's wording); no line breaks reach a header.
const IDENTIFIER_PATTERN = /^[\p{L}\p{M}\p{N} .,'\-_&]{1,64}$/u;

export function identifierProblem(identifier: string): SenderErrorName | null {
  if (identifier === '') return 'EmptyIdentifierError';
  if (!IDENTIFIER_PATTERN.test(identifier)) return 'IdentifierError';
  return null;
}

const SUBDOMAIN_LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

/** The MAIL FROM subdomain, lower-cased (default 'sheaf'), or the error. */
export function parseSubdomain(subdomain: string | undefined, domain: string): { subdomain: string } | { error: SenderErrorName } {
  const value = (subdomain ?? DEFAULT_SENDER_SUBDOMAIN).toLowerCase().replace(/\.$/, '');
  // Letters, digits, dots and hyphens (spec section 5), and each part a valid DNS label.
  const valid = /^[a-z0-9.-]+$/.test(value) && value.split('.').every((label) => SUBDOMAIN_LABEL.test(label)) && value.length + 1 + domain.length <= 253;
  return valid ? { subdomain: value } : { error: 'SubdomainError' };
}

export function serverProblem(server: string): SenderErrorName | null {
  return server !== '' && parseHost(server) ? null : 'ServerError';
}

/** 1 to 99999 as the spec's form allows (a real TCP port is at most 65535: a test of 65536+ fails to connect). */
export function parsePort(port: number | string): number | null {
  const value = typeof port === 'number' ? port : /^\s*\d{1,6}\s*$/.test(port) ? Number(port) : Number.NaN;
  return Number.isInteger(value) && value >= SMTP_PORT_RANGE.min && value <= SMTP_PORT_RANGE.max ? value : null;
}

export interface SmtpFields {
  server: string;
  port: number;
  username: string;
  password: string;
}

/** server, port, username, password, checked in that order (spec section 5). */
export function checkSmtpFields(input: { server: string; port: number | string; username: string; password: string }): SmtpFields {
  fail(serverProblem(input.server));
  const port = parsePort(input.port);
  if (port === null) fail('PortError');
  if (input.username.trim() === '') fail('UsernameError');
  if (input.password === '') fail('PasswordError');
  return { server: input.server.trim(), port: port!, username: input.username, password: input.password };
}
