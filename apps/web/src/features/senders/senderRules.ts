/**
 * The sender rules the dialog and the pages apply on the client (docs/email.md): form checks
 * in the documented order (docs/email.md#sender-form-rules) with the server's error names, how a sender
 * is shown, which senders can be verified again and which methods a plan may use. The server checks
 * everything again.
 */
import {
  cleanWhitespace, entitlements, identifierProblem, parseSubdomain, senderEmailProblem, senderMethodRefusal, smtpFieldProblems,
  type BillingPlan, type Edition, type ErrorCode, type Sender, type SenderErrorName, type SenderMethod,
} from '@sheaf/shared';

// The field rules are the shared ones the server applies (packages/shared/src/rules/senders.ts).
export { isValidServerName, parsePort } from '@sheaf/shared';

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

/** Field -> catalogue code ('sender/<ErrorName>'), in the documented order (docs/email.md#sender-form-rules). */
export type SenderFieldErrors = Partial<Record<SenderField, ErrorCode>>;

const code = (name: SenderErrorName): ErrorCode => `sender/${name}` as ErrorCode;

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
 * The problems of the add-sender form, keyed by field, in the documented order
 * (docs/email.md#sender-form-rules): spoof: email, identifier (empty, invalid), already added, already
 * verified; domain: email, subdomain; smtp: email, server, port, username, password.
 */
export function validateSenderForm(method: SenderMethod, values: SenderFormValues, senders: readonly Sender[] = [], editingId?: string): SenderFieldErrors {
  const errors: SenderFieldErrors = {};
  const email = cleanWhitespace(values.email);
  const emailProblem = senderEmailProblem(email);
  if (emailProblem) errors.email = code(emailProblem);

  if (method === 'spoof') {
    const identifier = identifierProblem(values.identifier);
    if (identifier) errors.identifier = code(identifier);
  }
  if (method === 'domain') {
    const parsed = parseSubdomain(values.subdomain, emailProblem ? '' : email.slice(email.lastIndexOf('@') + 1));
    if ('error' in parsed) errors.subdomain = code(parsed.error);
  }
  if (method === 'smtp') {
    // An existing smtp sender keeps its stored password when the field is left empty.
    const problems = smtpFieldProblems(values, editingId !== undefined);
    for (const field of ['server', 'port', 'username', 'password'] as const) {
      const problem = problems[field];
      if (problem) errors[field] = code(problem);
    }
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
 * How a sender is named (docs/email.md#senders): a spoof sender by its identifier (or the part of its
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

/**
 * Domain and smtp senders can be verified again later; a spoof sender's code cannot be re-entered
 * (docs/email.md#senders).
 */
export const canReopen = (sender: Pick<Sender, 'method' | 'isVerified'>): boolean => !sender.isVerified && sender.method !== 'spoof';

/** Whether the plan may use the method, and the catalogue text that says why not (docs/email.md#sender-methods-by-plan). */
export function methodAvailability(method: SenderMethod, plan: BillingPlan, edition: Edition): { allowed: boolean; hint: ErrorCode | null } {
  const hint = senderMethodRefusal(method, entitlements(plan, edition));
  return { allowed: hint === null, hint };
}
