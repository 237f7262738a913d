// @vitest-environment node
/** What each card of /billing offers: upgrade from Free, switch for subscribers, the current plan marked. */
import { describe, expect, it } from 'vitest';
import type { BillingStatus } from '@sheaf/shared';
import { cardAction, checkoutReturn, chosenPlan, hasSubscription } from './planActions.ts';

const free = { plan: 'Free', cycle: null, subscription: null } as const;
const subscription = (extra: Partial<NonNullable<BillingStatus['subscription']>> = {}) => ({
  status: 'active' as const, cancelAtPeriodEnd: false, currentPeriodEnd: '2026-01-01T00:00:00Z', paymentFailedAt: null, ...extra,
});
const proYearly = { plan: 'Pro' as const, cycle: 'year' as const, subscription: subscription() };

describe('pricing table actions', () => {
  it('offers a Free account an upgrade to each paid plan', () => {
    expect(cardAction({ plan: 'Free', kind: 'free' }, 'year', free)).toEqual({ kind: 'current' });
    expect(cardAction({ plan: 'Pro', kind: 'subscription' }, 'year', free)).toEqual({ kind: 'upgrade', plan: 'Pro' });
    expect(cardAction({ plan: 'Enterprise', kind: 'subscription' }, 'month', free)).toEqual({ kind: 'upgrade', plan: 'Enterprise' });
  });

  it('offers a subscriber a switch of plan or cycle, never a second checkout', () => {
    expect(cardAction({ plan: 'Pro', kind: 'subscription' }, 'year', proYearly)).toEqual({ kind: 'current' });
    expect(cardAction({ plan: 'Pro', kind: 'subscription' }, 'month', proYearly)).toEqual({ kind: 'switch', plan: 'Pro', cycleOnly: true });
    expect(cardAction({ plan: 'Enterprise', kind: 'subscription' }, 'month', proYearly)).toEqual({ kind: 'switch', plan: 'Enterprise', cycleOnly: false });
    expect(cardAction({ plan: 'Free', kind: 'free' }, 'year', proYearly)).toEqual({ kind: 'none' });
  });

  it('treats an ended subscription as none', () => {
    const ended = { ...proYearly, plan: 'Free' as const, subscription: subscription({ status: 'canceled' }) };
    expect(hasSubscription(ended)).toBe(false);
    expect(cardAction({ plan: 'Pro', kind: 'subscription' }, 'year', ended)).toEqual({ kind: 'upgrade', plan: 'Pro' });
    expect(hasSubscription({ ...proYearly, subscription: subscription({ status: 'past_due' }) })).toBe(true);
  });

  it('reads the plan chosen before signing up and the return from Stripe Checkout', () => {
    expect(chosenPlan(new URLSearchParams('plan=Pro'))).toBe('Pro');
    expect(chosenPlan(new URLSearchParams('plan=enterprise'))).toBe('Enterprise');
    expect(chosenPlan(new URLSearchParams('plan=Offline'))).toBeNull();
    expect(chosenPlan(new URLSearchParams(''))).toBeNull();
    expect(checkoutReturn(new URLSearchParams('checkout=success'))).toBe('success');
    expect(checkoutReturn(new URLSearchParams('checkout=cancelled'))).toBe('cancelled');
    expect(checkoutReturn(new URLSearchParams('checkout=maybe'))).toBeNull();
  });
});
