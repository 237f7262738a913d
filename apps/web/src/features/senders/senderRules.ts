/**
 * The sender rules the dialog and the pages apply on the client (spec sections 3, 5, 6): form checks
 * in the spec's order with the server's error names, how a sender is shown, which senders can be
 * verified again and which methods a plan may use. The server checks everything again.
 */
import {
  cleanWhitespace, entitlements, isValidEmail, senderMethodRefusal, SMTP_PORT_RANGE,
  type BillingPlan, type Edition, type ErrorCode, type Sender, type SenderErrorName, type SenderMethod,
} from '@sheaf/shared';

export type SenderField = 'email' | 'identifier' | 'subdomain' | 'server' | 'port' | 'username' | 'password';

export interface SenderFormValues {
  email: string;
  identifier: string;
  subdomain: string;
  server: string;
  /** As typed: the field accepts digits only but may be empty. */
  port: string;
  username: string;
  password: string;
}

/** Field -> catalogue code ('sender/<ErrorName>'), in the order the spec checks them. */
export type SenderFieldErrors = Partial<Record<SenderField, ErrorCode>>;

const code = (name: SenderErrorName): ErrorCode => `sender/${name}` as ErrorCode;

/** Letters, digits, spaces and . , ' - _ & only; at most 64 characters (the server's IdentifierError). */
const IDENTIFIER = /^[\p{L}\p{N} .,'_&-]{1,64}$/u;
/** Letters, digits, dots and hyphens only (spec section 5). */
const SUBDOMAIN = /^[A-Za-z0-9.-]+$/;
const HOST_LABEL = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/;
const IPV4 = /^(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;

/** A host name (labels of letters, digits and hyphens), an IPv4 address or an IPv6 address. */
export function isValidServerName(value: string): boolean {
  const host = value.trim();
  if (host === '' || host.length > 253) return false;
  if (IPV4.test(host)) return true;
  if (host.includes(':')) return /^\[?[0-9A-Fa-f:.]+\]?$/.test(host) && (host.match(/:/g) ?? []).length >= 2;
  // All-numeric names with dots would be mistyped IPv4 addresses.
  if (/^[\d.]+$/.test(host)) return false;
  return host.replace(/\.$/, '').split('.').every((label) => HOST_LABEL.test(label));
}

/** The port as a number when it is a whole number from 1 to 99999, else null. */
export function parsePort(value: string): number | null {
  if (!/^\d{1,5}$/.test(value.trim())) return null;
  const port = Number(value.trim());
  return port >= SMTP_PORT_RANGE.min && port <= SMTP_PORT_RANGE.max ? port : null;
}

/**
 * An address already among the user's senders of this method: verified, or added and waiting. An
 * unverified spoof sender may be added again (its code may have expired; the server knows).
 */
function duplicateProblem(email: string, method: SenderMethod, senders: readonly Sender[]): ErrorCode | null {
  const address = cleanWhitespace(email).toLowerCase();
  const same = senders.filter((sender) => sender.method === method && sender.email.toLowerCase() === address);
  if (same.some((sender) => sender.isVerified)) return code('EmailAlreadyVerifiedError');
  if (method !== 'spoof' && same.length > 0) return code('EmailAlreadyAddedError');
  return null;
}

/**
 * The problems of the add-sender form, keyed by field, in the spec's order (section 5):
 * spoof: email, identifier (empty, invalid), already added, already verified;
 * domain: email, subdomain; smtp: email, server, port, username, password.
 */
export function validateSenderForm(method: SenderMethod, values: SenderFormValues, senders: readonly Sender[] = [], editingId?: string): SenderFieldErrors {
  const errors: SenderFieldErrors = {};
  const email = cleanWhitespace(values.email);
  if (email === '') errors.email = code('EmptyEmailError');
  else if (!isValidEmail(email)) errors.email = code('EmailError');

  if (method === 'spoof') {
    const identifier = cleanWhitespace(values.identifier);
    if (identifier === '') errors.identifier = code('EmptyIdentifierError');
    else if (!IDENTIFIER.test(identifier)) errors.identifier = code('IdentifierError');
  }
  if (method === 'domain') {
    const subdomain = cleanWhitespace(values.subdomain);
    if (subdomain === '' || !SUBDOMAIN.test(subdomain) || subdomain.startsWith('.') || subdomain.endsWith('.') || subdomain.includes('..')) {
      errors.subdomain = code('SubdomainError');
    }
  }
  if (method === 'smtp') {
    if (!isValidServerName(values.server)) errors.server = code('ServerError');
    if (parsePort(values.port) === null) errors.port = code('PortError');
    if (values.username.trim() === '') errors.username = code('UsernameError');
    // An existing smtp sender keeps its stored password when the field is left empty.
    if (values.password === '' && editingId === undefined) errors.password = code('PasswordError');
  }
  if (!errors.email && editingId === undefined) {
    const duplicate = duplicateProblem(email, method, senders);
    if (duplicate) errors.email = duplicate;
  }
  return errors;
}

/** The first field with a problem (focused on submit), or null. */
export function firstErrorField(errors: SenderFieldErrors): SenderField | null {
  const order: SenderField[] = ['email', 'identifier', 'subdomain', 'server', 'port', 'username', 'password'];
  return order.find((field) => errors[field] !== undefined) ?? null;
}

/**
 * How a sender is named (spec section 3): a spoof sender by its identifier (or the part of its
 * address before the @) with the spoof address; others by their address.
 */
export function senderDisplay(sender: Pick<Sender, 'method' | 'email' | 'identifier' | 'spoofAddress' | 'server' | 'port'>): { primary: string; secondary: string | null } {
  if (sender.method === 'spoof') {
    const name = sender.identifier?.trim() || sender.email.split('@')[0] || sender.email;
    return { primary: name, secondary: sender.spoofAddress ?? sender.email };
  }
  if (sender.method === 'smtp' && sender.server) return { primary: sender.email, secondary: `${sender.server}:${sender.port ?? ''}` };
  return { primary: sender.email, secondary: null };
}

/** One line for pickers and messages: "Identifier <spoof@address>" or the address. */
export function senderLabel(sender: Parameters<typeof senderDisplay>[0]): string {
  const { primary, secondary } = senderDisplay(sender);
  return sender.method === 'spoof' && secondary ? `${primary} <${secondary}>` : primary;
}

/** Domain and smtp senders can be verified again later; a spoof sender's code cannot be re-entered (spec section 4). */
export const canReopen = (sender: Pick<Sender, 'method' | 'isVerified'>): boolean => !sender.isVerified && sender.method !== 'spoof';

/** Whether the plan may use the method, and the catalogue text that says why not (spec section 6). */
export function methodAvailability(method: SenderMethod, plan: BillingPlan, edition: Edition): { allowed: boolean; hint: ErrorCode | null } {
  const hint = senderMethodRefusal(method, entitlements(plan, edition));
  return { allowed: hint === null, hint };
}
