// @vitest-environment node
/** Price lines of the pricing tables, all from GET /v1/plans (the catalogue's numbers here are test data). */
import { describe, expect, it } from 'vitest';
import { OFFLINE_PRICE_READINGS, PLAN_CATALOGUE, planPrice, type BillingPlan, type PlanInfo } from '@sheaf/shared';
import { changeSettlement, formatUsd, monthsFreeYearly, offlineTotal, parseQuantity, priceIdOf, priceLine, showsPriceIncrease } from './pricing.ts';

/** A plan as GET /plans answers it, built from the catalogue. */
function info(plan: BillingPlan, reading: keyof typeof OFFLINE_PRICE_READINGS = 'perLicence'): PlanInfo {
  const entry = PLAN_CATALOGUE[plan];
  const extra = plan === 'Offline' ? OFFLINE_PRICE_READINGS[reading].additionalLicence : null;
  return {
    ...entry,
    smtp: entry.senderMethods.includes('smtp'),
    price: planPrice(plan, reading),
    priceIds: entry.price ? { month: `price_${plan}_month`, year: `price_${plan}_year` } : null,
    additionalLicence: extra ? { price: { ...extra, yearly: 12 * extra.yearlyMonthly }, priceIds: { month: 'price_extra_month', year: 'price_extra_year' } } : null,
  } as unknown as PlanInfo;
}

describe('price lines', () => {
  it('shows the monthly price, or the discounted one with the yearly bill', () => {
    const pro = info('Pro').price!;
    expect(priceLine(pro, 'month')).toEqual({ perMonth: 24, billedYearly: null });
    expect(priceLine(pro, 'year')).toEqual({ perMonth: 20, billedYearly: 240 });
  });

  it('writes dollars the UI language\'s way, without cents for whole amounts', () => {
    expect(formatUsd(1284, 'en')).toBe('$1,284');
    expect(formatUsd(240, 'en')).toBe('$240');
    expect(formatUsd(1284, 'de')).toMatch(/^1\.284\s\$$/);
    expect(formatUsd(19.5, 'en')).toBe('$19.50');
  });

  it('counts the months a yearly bill saves', () => {
    expect(monthsFreeYearly([info('Free'), info('Pro'), info('Enterprise')])).toBe(2);
    expect(monthsFreeYearly([info('Offline')])).toBe(2);
    expect(monthsFreeYearly([info('Offline', 'billedYearly79')])).toBe(0);
    expect(monthsFreeYearly([info('Free')])).toBe(0);
  });

  it('reads the offline plan in the per-licence reading: $129 or $107 billed yearly ($1,284), each further licence $29 or $19', () => {
    const offline = info('Offline');
    expect(offlineTotal(offline, 'year', 1)).toEqual({ perMonth: 107, billedYearly: 1284 });
    expect(offlineTotal(offline, 'month', 1)).toEqual({ perMonth: 129, billedYearly: null });
    expect(offlineTotal(offline, 'year', 3)).toEqual({ perMonth: 107 + 2 * 19, billedYearly: 1284 + 2 * 228 });
    expect(offlineTotal(offline, 'month', 2)).toEqual({ perMonth: 129 + 29, billedYearly: null });
  });

  it('reads the offline plan in the other reading: $79 a month billed yearly ($948), every licence at that price', () => {
    const offline = info('Offline', 'billedYearly79');
    expect(offlineTotal(offline, 'year', 1)).toEqual({ perMonth: 79, billedYearly: 948 });
    expect(offlineTotal(offline, 'year', 2)).toEqual({ perMonth: 158, billedYearly: 1896 });
  });

  it('gives the Stripe price id of the chosen cycle', () => {
    expect(priceIdOf(info('Offline'), 'year')).toBe('price_Offline_year');
    expect(priceIdOf(info('Offline'), 'month')).toBe('price_Offline_month');
    expect(priceIdOf({ ...info('Free'), priceIds: null }, 'year')).toBeNull();
  });

  it('accepts 1 to 100 whole licences', () => {
    expect(parseQuantity('1')).toBe(1);
    expect(parseQuantity(' 12 ')).toBe(12);
    expect(parseQuantity('100')).toBe(100);
    for (const bad of ['', '0', '101', '1.5', '-2', 'two', '1e2']) expect(parseQuantity(bad), bad).toBeNull();
  });
});

describe('plan changes and notices', () => {
  const pro = info('Pro').price!;
  const enterprise = info('Enterprise').price!;

  it('charges the difference for a dearer plan, credits a cheaper one, starts a new period for a new cycle', () => {
    expect(changeSettlement({ price: pro, cycle: 'year' }, { price: enterprise, cycle: 'year' })).toBe('charge');
    expect(changeSettlement({ price: enterprise, cycle: 'month' }, { price: pro, cycle: 'month' })).toBe('credit');
    expect(changeSettlement({ price: pro, cycle: 'year' }, { price: enterprise, cycle: 'month' })).toBe('newPeriod');
    expect(changeSettlement({ price: pro, cycle: 'month' }, { price: pro, cycle: 'year' })).toBe('newPeriod');
  });

  it('shows the price increase until its day, and never without a date', () => {
    const now = new Date('2025-10-31T23:00:00Z');
    expect(showsPriceIncrease('2025-11-01', now)).toBe(true);
    expect(showsPriceIncrease('2025-11-01', new Date('2025-11-01T00:00:00Z'))).toBe(false);
    expect(showsPriceIncrease(null, now)).toBe(false);
    expect(showsPriceIncrease('someday', now)).toBe(false);
  });
});
