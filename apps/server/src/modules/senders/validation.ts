/**
 * The sender form rules (docs/email.md#sender-form-rules), in their order, each failing with its error
 * name shown under its field. Checks that need the database (already added, already verified, domain
 * claimed) are the service's; these are the pure ones.
 */
import {
  SENDER_FIELD_ERRORS, SheafFieldErrors, cleanWhitespace, parsePort, smtpFieldProblems,
  type SenderErrorName,
} from '@sheaf/shared';

// The field rules are the shared ones the add-sender dialog applies (packages/shared/src/rules/senders.ts).
export { identifierProblem, parsePort, parseSubdomain, senderEmailProblem as emailProblem } from '@sheaf/shared';

/** A sender error name as a field error: { code: 'sender/<name>', fields: { <field>: 'sender/<name>' } }. */
export function senderFieldError(name: SenderErrorName): SheafFieldErrors {
  return new SheafFieldErrors({ [SENDER_FIELD_ERRORS[name]]: `sender/${name}` });
}

export function fail(name: SenderErrorName | null): void {
  if (name) throw senderFieldError(name);
}

export const normaliseEmail = (email: string) => cleanWhitespace(email).toLowerCase();

export interface SmtpFields {
  server: string;
  port: number;
  username: string;
  password: string;
}

/** server, port, username, password, checked in that order (docs/email.md#sender-form-rules). */
export function checkSmtpFields(input: { server: string; port: number | string; username: string; password: string }): SmtpFields {
  // The first problem in the documented order (docs/email.md#sender-form-rules); 1 to 99999 as the form allows (65536+ then
  // fails to connect).
  const problems = smtpFieldProblems(input);
  for (const field of ['server', 'port', 'username', 'password'] as const) fail(problems[field] ?? null);
  return { server: input.server.trim(), port: parsePort(input.port)!, username: input.username, password: input.password };
}
