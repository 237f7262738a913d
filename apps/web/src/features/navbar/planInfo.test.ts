import { describe, expect, it } from 'vitest';
import { offersUpgrade, renewalDate, showsRenewal } from './planInfo.ts';

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

describe('upgrade offer (plan chip, menu badge)', () => {
  it('is made to Free users of the web and to a user not loaded yet, never on the desktop', () => {
    expect(offersUpgrade({ billingPlan: 'Free' }, 'web')).toBe(true);
    expect(offersUpgrade(undefined, 'web')).toBe(true);
    expect(offersUpgrade({ billingPlan: 'Pro' }, 'web')).toBe(false);
    expect(offersUpgrade({ billingPlan: 'Free' }, 'desktop')).toBe(false);
    expect(offersUpgrade({ billingPlan: 'Unlicensed' }, 'desktop')).toBe(false);
  });
});
