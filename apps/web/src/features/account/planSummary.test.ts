import { describe, expect, it } from 'vitest';
import { renewalDate, usageOf } from './planSummary.ts';

describe('plan summary', () => {
  it('renews one month after the billing date, at the end of a shorter month', () => {
    expect(renewalDate('2026-03-15T10:00:00.000Z').toISOString()).toBe('2026-04-15T10:00:00.000Z');
    expect(renewalDate('2026-01-31T00:00:00.000Z').toISOString()).toBe('2026-02-28T00:00:00.000Z');
    expect(renewalDate('2026-12-05T00:00:00.000Z').toISOString()).toBe('2027-01-05T00:00:00.000Z');
  });

  it('shows documents used against the quota', () => {
    expect(usageOf({ counter: 25, quota: 100 })).toEqual({ kind: 'limited', used: 25, quota: 100, percent: 25 });
    expect(usageOf({ counter: 150, quota: 100 })).toMatchObject({ percent: 100 });
    expect(usageOf({ counter: 7, quota: null })).toEqual({ kind: 'unlimited', used: 7 });
    expect(usageOf({ counter: -1, quota: 100 })).toEqual({ kind: 'unknown' });
  });
});
