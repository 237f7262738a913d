import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startPolling } from './polling.ts';

describe('startPolling', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('waits the first delay, then each delay the step returns, and stops on null', async () => {
    const delays = [100, 50, null];
    const step = vi.fn(async () => delays.shift() ?? null);
    startPolling(step, 1_000, new EventTarget());
    await vi.advanceTimersByTimeAsync(999);
    expect(step).toHaveBeenCalledTimes(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(step).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(100);
    expect(step).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(50);
    expect(step).toHaveBeenCalledTimes(3);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(step).toHaveBeenCalledTimes(3);
  });

  it('asks at once when back online, never while a call is in flight, and aborts on stop', async () => {
    const online = new EventTarget();
    let finish: (value: number) => void = () => undefined;
    const signals: AbortSignal[] = [];
    const step = vi.fn((signal: AbortSignal) => {
      signals.push(signal);
      return new Promise<number>((resolve) => (finish = resolve));
    });
    const stop = startPolling(step, 10_000, online);
    online.dispatchEvent(new Event('online'));
    await vi.advanceTimersByTimeAsync(0);
    expect(step).toHaveBeenCalledTimes(1);
    online.dispatchEvent(new Event('online'));
    await vi.advanceTimersByTimeAsync(0);
    expect(step).toHaveBeenCalledTimes(1); // the first call has not answered yet
    finish(10_000);
    stop();
    expect(signals[0]!.aborted).toBe(true);
    await vi.advanceTimersByTimeAsync(20_000);
    online.dispatchEvent(new Event('online'));
    await vi.advanceTimersByTimeAsync(0);
    expect(step).toHaveBeenCalledTimes(1);
  });
});
