/** How a failed sender call is told: field errors under their fields, SMTP replies as such, else a general text. */
import type { TFunction } from 'i18next';
import { SENDER_FIELD_ERRORS, type SenderErrorName } from '@sheaf/shared';
import { ApiError } from '../../api/client.ts';
import { translateCode, translateError, translateFields } from '../../i18n/errors.ts';
import type { SenderField } from './senderRules.ts';

export interface SenderFailure {
  fields: Partial<Record<SenderField, string>>;
  general: string | null;
}

/** Codes the server may send without a field, and the field they belong under. */
const CODE_FIELDS: Record<string, SenderField> = { 'sender/host-forbidden': 'server' };

export function senderFailure(error: unknown, t: TFunction): SenderFailure {
  if (error instanceof ApiError && error.isCancelled) return { fields: {}, general: null };
  const fields = translateFields(error, t) as Partial<Record<SenderField, string>>;
  if (error instanceof ApiError && Object.keys(fields).length === 0) {
    const name = error.code.startsWith('sender/') ? error.code.slice('sender/'.length) : '';
    const field = (SENDER_FIELD_ERRORS as Record<string, SenderField | undefined>)[name as SenderErrorName] ?? CODE_FIELDS[error.code];
    if (field) fields[field] = translateCode(error.code, error.params, t) || error.message;
  }
  return { fields, general: Object.keys(fields).length > 0 ? null : translateError(error, t) };
}

/**
 * A failed SMTP test (docs/email.md#smtp-senders): the server's own reply when it sent one, else
 * 'Connection to the SMTP server failed'; anything that is not a verification error is "something went
 * wrong".
 */
export function smtpFailureText(error: unknown, t: TFunction): string {
  if (error instanceof ApiError && (error.code === 'sender/smtp-rejected' || error.code === 'sender/smtp-failed' || error.code === 'sender/host-forbidden')) {
    return translateCode(error.code, error.params, t) || error.message;
  }
  return translateError(error, t);
}

/**
 * A failed spoof code (docs/email.md#spoof-senders): 'Invalid verification code', or expiry and rate
 * limits as the server says.
 */
export function codeFailureText(error: unknown, t: TFunction): string {
  return translateError(error, t);
}
