import { describe, expect, it } from 'vitest';
import { renewalDate, showsRenewal } from './planInfo.ts';

describe('counter renewal', () => {
  it('renews one month after the billing date', () => {
    expect(renewalDate('2026-11-03T00:00:00Z')?.toISOString()).toBe('2026-12-03T00:00:00.000Z');
    expect(renewalDate('2026-12-15T10:00:00Z')?.toISOString()).toBe('2027-01-15T10:00:00.000Z');
  });

  it('ends on the last day of a shorter month', () => {
    expect(renewalDate('2027-01-31T00:00:00Z')?.toISOString()).toBe('2027-02-28T00:00:00.000Z');
  });

  it('is shown to Free users and subscribers only', () => {
    expect(showsRenewal({ billingPlan: 'Free', billingCycle: null })).toBe(true);
    expect(showsRenewal({ billingPlan: 'Pro', billingCycle: 'year' })).toBe(true);
    expect(showsRenewal({ billingPlan: 'Offline', billingCycle: null })).toBe(false);
  });
});
