/**
 * Buying needs two ticks (docs/billing.md#checkout): the terms and privacy policy, and the waiver of
 * the right of withdrawal. An unticked box gets its catalogue message under it and nothing is sent.
 */
import type { ErrorCode } from '@sheaf/shared';

export interface Consent {
  acceptTerms: boolean;
  waiveWithdrawal: boolean;
}

export const NO_CONSENT: Consent = { acceptTerms: false, waiveWithdrawal: false };

export type ConsentErrors = Partial<Record<keyof Consent, ErrorCode>>;

/** The message code under each unticked box; empty when both are ticked. */
export function consentErrors(consent: Consent): ConsentErrors {
  const errors: ConsentErrors = {};
  if (!consent.acceptTerms) errors.acceptTerms = 'billing/terms-required';
  if (!consent.waiveWithdrawal) errors.waiveWithdrawal = 'billing/waiver-required';
  return errors;
}

/** The body fields a checkout request carries once both boxes are ticked. */
export function consentBody(consent: Consent): { acceptTerms: true; waiveWithdrawal: true } | null {
  return consent.acceptTerms && consent.waiveWithdrawal ? { acceptTerms: true, waiveWithdrawal: true } : null;
}
