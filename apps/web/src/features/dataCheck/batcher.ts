/**
 * Issues arrive a few at a time, possibly thousands a second; the grid is given them in batches
 * (docs/data-check.md#the-dialog): the first batch at once (the skeleton gives way to the first result
 * as soon as it exists), then at most one batch per interval, and whatever is left when the stream ends.
 * 10,000 issues therefore make a handful of renders, not 10,000.
 */

export interface Batcher<T> {
  add(items: readonly T[]): void;
  /** Hands over what is pending now (the stream ended). */
  flush(): void;
  /** Drops what is pending and stops the timer (the dialog closed). */
  cancel(): void;
}

export type Schedule = (run: () => void, ms: number) => () => void;

const timeout: Schedule = (run, ms) => {
  const timer = setTimeout(run, ms);
  return () => clearTimeout(timer);
};

export const BATCH_INTERVAL_MS = 250;

export function createBatcher<T>(deliver: (items: T[]) => void, options: { intervalMs?: number; schedule?: Schedule } = {}): Batcher<T> {
  const intervalMs = options.intervalMs ?? BATCH_INTERVAL_MS;
  const schedule = options.schedule ?? timeout;
  let pending: T[] = [];
  let delivered = false;
  let cancelTimer: (() => void) | null = null;

  function flush(): void {
    cancelTimer?.();
    cancelTimer = null;
    if (pending.length === 0) return;
    const items = pending;
    pending = [];
    delivered = true;
    deliver(items);
  }

  return {
    add(items) {
      if (items.length === 0) return;
      for (const item of items) pending.push(item);
      if (!delivered) flush();
      else cancelTimer ??= schedule(flush, intervalMs);
    },
    flush,
    cancel() {
      cancelTimer?.();
      cancelTimer = null;
      pending = [];
    },
  };
}
