import { describe, expect, it } from 'vitest';
import {
  BILLING_PLANS, billingPlanOf, EDITIONS, entitlements, INITIAL_PLAN, OFFLINE_PRICE_READINGS, PLAN_CATALOGUE, planPrice,
  sendEmailRefusal, senderMethodRefusal, type BillingPlan, type Edition,
} from './plans.ts';

/**
 * Every plan on every edition, one row each, to check against docs/plans.md: what each plan may do (Free cannot
 * send emails, spoof needs Pro, smtp and domain need Enterprise, integrations on Pro and Enterprise, the
 * desktop allows only smtp senders), the watermark and the editions (the Free plan and the desktop trial add
 * watermarks, the offline edition is PDF only with unlimited PDFs), the plans table (1 or 5 users).
 * Columns: docs/month, users, watermark, send email, sender methods, DKIM, integrations, template kinds, support.
 */
const TABLE: Record<`${BillingPlan}/${Edition}`, [number | null, 1 | 5, boolean, boolean, string, boolean, boolean, string, string]> = {
  'Free/web': [100, 1, true, false, '', false, false, 'pdf sfdt', 'standard'],
  'Pro/web': [1_000, 1, false, true, 'spoof', false, true, 'pdf sfdt', 'standard'],
  'Enterprise/web': [10_000, 5, false, true, 'spoof domain smtp', true, true, 'pdf sfdt', 'priority'],
  'Offline/web': [null, 1, false, true, 'smtp', false, false, 'pdf sfdt', 'priority'],
  'Unlicensed/web': [100, 1, true, false, '', false, false, 'pdf sfdt', 'standard'],
  'Free/desktop': [100, 1, true, false, '', false, false, 'pdf', 'standard'],
  'Pro/desktop': [1_000, 1, false, true, 'smtp', false, false, 'pdf', 'standard'],
  'Enterprise/desktop': [10_000, 5, false, true, 'smtp', false, false, 'pdf', 'priority'],
  'Offline/desktop': [null, 1, false, true, 'smtp', false, false, 'pdf', 'priority'],
  'Unlicensed/desktop': [100, 1, true, false, '', false, false, 'pdf', 'standard'],
};

describe('entitlements(plan, edition)', () => {
  for (const edition of EDITIONS) {
    for (const plan of BILLING_PLANS) {
      it(`${plan} on the ${edition} edition`, () => {
        const e = entitlements(plan, edition);
        expect([
          e.documentsPerMonth, e.users, e.watermark, e.sendEmail, e.senderMethods.join(' '), e.dkim, e.integrations,
          e.templateKinds.join(' '), e.support,
        ]).toEqual(TABLE[`${plan}/${edition}`]);
        expect(e.individualFileNames).toBe(true);
        expect(e.reusableTemplates).toBe(true);
      });
    }
  }

  it('lets neither Free nor the desktop trial send email on the desktop (before: every plan could)', () => {
    expect(entitlements('Free', 'desktop').sendEmail).toBe(false);
    expect(entitlements('Unlicensed', 'desktop').sendEmail).toBe(false);
    expect(entitlements('Offline', 'desktop').sendEmail).toBe(true);
  });

  it('offers an upgrade on the web Free plan only', () => {
    const offering = EDITIONS.flatMap((edition) => BILLING_PLANS.filter((plan) => entitlements(plan, edition).offersUpgrade).map((plan) => `${plan}/${edition}`));
    expect(offering).toEqual(['Free/web']);
  });

  it('starts new accounts on Free on the web and on the trial on the desktop', () => {
    expect(INITIAL_PLAN).toEqual({ web: 'Free', desktop: 'Unlicensed' });
  });

  it('reads an unknown stored plan name as Free', () => {
    expect(billingPlanOf('Gold')).toBe('Free');
    expect(billingPlanOf('Enterprise')).toBe('Enterprise');
  });
});

describe('refusals', () => {
  it('names the plan a sender method needs on the web, and the licence on the desktop', () => {
    expect(senderMethodRefusal('spoof', entitlements('Free', 'web'))).toBe('sender/needs-pro');
    expect(senderMethodRefusal('smtp', entitlements('Pro', 'web'))).toBe('sender/needs-enterprise');
    expect(senderMethodRefusal('domain', entitlements('Pro', 'web'))).toBe('sender/needs-enterprise');
    expect(senderMethodRefusal('spoof', entitlements('Pro', 'web'))).toBeNull();
    expect(senderMethodRefusal('domain', entitlements('Enterprise', 'desktop'))).toBe('sender/desktop-smtp-only');
    expect(senderMethodRefusal('smtp', entitlements('Unlicensed', 'desktop'))).toBe('email/licence-required');
    expect(senderMethodRefusal('smtp', entitlements('Offline', 'desktop'))).toBeNull();
  });

  it('refuses sending with an upgrade on the web and a licence on the desktop', () => {
    expect(sendEmailRefusal(entitlements('Free', 'web'))).toBe('email/plan-required');
    expect(sendEmailRefusal(entitlements('Free', 'desktop'))).toBe('email/licence-required');
    expect(sendEmailRefusal(entitlements('Pro', 'web'))).toBeNull();
  });
});

describe('prices (USD, excluding VAT)', () => {
  it('bills a year as 12 times the discounted monthly price', () => {
    for (const plan of BILLING_PLANS) {
      const price = planPrice(plan);
      if (price) expect(price.yearly).toBe(12 * price.yearlyMonthly);
    }
    expect(planPrice('Pro')).toEqual({ monthly: 24, yearlyMonthly: 20, yearly: 240 });
    expect(planPrice('Enterprise')).toEqual({ monthly: 36, yearlyMonthly: 30, yearly: 360 });
    expect(planPrice('Free')).toEqual({ monthly: 0, yearlyMonthly: 0, yearly: 0 });
    expect(planPrice('Unlicensed')).toBeNull();
  });

  it('prices the offline licence in the per-licence reading by default, the other on request', () => {
    expect(planPrice('Offline')).toEqual({ monthly: 129, yearlyMonthly: 107, yearly: 1_284 });
    expect(planPrice('Offline', 'billedYearly79')?.yearly).toBe(948);
    expect(OFFLINE_PRICE_READINGS.perLicence.additionalLicence.yearlyMonthly * 12).toBe(228);
  });

  it('gives the online plans a 30-day guarantee and the offline licence none', () => {
    expect(BILLING_PLANS.filter((plan) => PLAN_CATALOGUE[plan].refundDays === 30)).toEqual(['Pro', 'Enterprise']);
  });
});
