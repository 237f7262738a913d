// @vitest-environment node
/** The monthly/yearly choice: yearly by default, remembered under one key shared by /billing and /offline. */
import { describe, expect, it } from 'vitest';
import { BILLING_CYCLE_STORAGE_KEY } from '@sheaf/shared';
import { readBillingCycle, writeBillingCycle, type CycleStorage } from './billingCycle.ts';

function memory(initial: Record<string, string> = {}): CycleStorage & { values: Record<string, string> } {
  const values = { ...initial };
  return { values, getItem: (key) => values[key] ?? null, setItem: (key, value) => void (values[key] = value) };
}

const blocked: CycleStorage = {
  getItem: () => {
    throw new Error('SecurityError');
  },
  setItem: () => {
    throw new Error('SecurityError');
  },
};

describe('billing cycle storage', () => {
  it('opens on yearly when nothing was chosen', () => {
    expect(readBillingCycle(memory())).toBe('year');
  });

  it('keeps the choice under the shared key', () => {
    const storage = memory();
    writeBillingCycle('month', storage);
    expect(storage.values).toEqual({ [BILLING_CYCLE_STORAGE_KEY]: 'month' });
    expect(readBillingCycle(storage)).toBe('month');
    writeBillingCycle('year', storage);
    expect(readBillingCycle(storage)).toBe('year');
  });

  it('reads a foreign or old value as the default', () => {
    expect(readBillingCycle(memory({ [BILLING_CYCLE_STORAGE_KEY]: 'weekly' }))).toBe('year');
    expect(readBillingCycle(memory({ [BILLING_CYCLE_STORAGE_KEY]: '' }))).toBe('year');
  });

  it('remembers the choice for the page when storage is blocked', () => {
    expect(readBillingCycle(blocked)).toBe('year');
    writeBillingCycle('month', blocked);
    expect(readBillingCycle(blocked)).toBe('month');
    expect(readBillingCycle(null)).toBe('month');
    writeBillingCycle('year', null);
  });
});
