// @vitest-environment node
/** Buying needs both ticks: an error under each unticked box and no request body. */
import { describe, expect, it } from 'vitest';
import { ERROR_MESSAGES } from '@sheaf/shared';
import { consentBody, consentErrors, NO_CONSENT } from './consent.ts';

describe('consent', () => {
  it('puts the catalogue message under each unticked box', () => {
    expect(consentErrors(NO_CONSENT)).toEqual({ acceptTerms: 'billing/terms-required', waiveWithdrawal: 'billing/waiver-required' });
    expect(consentErrors({ acceptTerms: true, waiveWithdrawal: false })).toEqual({ waiveWithdrawal: 'billing/waiver-required' });
    expect(consentErrors({ acceptTerms: false, waiveWithdrawal: true })).toEqual({ acceptTerms: 'billing/terms-required' });
    expect(ERROR_MESSAGES['billing/terms-required']).toBe('Please accept the terms and the privacy policy.');
  });

  it('has a request body only when both are ticked', () => {
    expect(consentErrors({ acceptTerms: true, waiveWithdrawal: true })).toEqual({});
    expect(consentBody({ acceptTerms: true, waiveWithdrawal: true })).toEqual({ acceptTerms: true, waiveWithdrawal: true });
    expect(consentBody({ acceptTerms: true, waiveWithdrawal: false })).toBeNull();
    expect(consentBody(NO_CONSENT)).toBeNull();
  });
});
