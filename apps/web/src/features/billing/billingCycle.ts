/**
 * The monthly/yearly choice of the pricing tables (docs/billing.md#the-billing-pages): yearly unless the
 * visitor chose otherwise on this device; /billing and /offline share it (one localStorage key).
 */
import { useCallback, useState } from 'react';
import { BILLING_CYCLES, BILLING_CYCLE_STORAGE_KEY, DEFAULT_BILLING_CYCLE, type BillingCycle } from '@sheaf/shared';

export interface CycleStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
}

/** Used when localStorage is unavailable (private modes): the choice lasts until the page reloads. */
let remembered: BillingCycle | null = null;

function browserStorage(): CycleStorage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
}

export const isBillingCycle = (value: unknown): value is BillingCycle => (BILLING_CYCLES as readonly unknown[]).includes(value);

/** The stored cycle; anything else (nothing stored, an old or foreign value) is the default. */
export function readBillingCycle(storage: CycleStorage | null = browserStorage()): BillingCycle {
  if (storage) {
    try {
      const stored = storage.getItem(BILLING_CYCLE_STORAGE_KEY);
      return isBillingCycle(stored) ? stored : DEFAULT_BILLING_CYCLE;
    } catch {
      // blocked storage: what this page remembers
    }
  }
  return remembered ?? DEFAULT_BILLING_CYCLE;
}

export function writeBillingCycle(cycle: BillingCycle, storage: CycleStorage | null = browserStorage()): void {
  try {
    if (storage) return storage.setItem(BILLING_CYCLE_STORAGE_KEY, cycle);
  } catch {
    // blocked storage: remembered below for this page
  }
  remembered = cycle;
}

/** The cycle shown and its setter, which remembers the choice. */
export function useBillingCycle(): [BillingCycle, (cycle: BillingCycle) => void] {
  const [cycle, setCycle] = useState<BillingCycle>(() => readBillingCycle());
  const choose = useCallback((next: BillingCycle) => {
    writeBillingCycle(next);
    setCycle(next);
  }, []);
  return [cycle, choose];
}
