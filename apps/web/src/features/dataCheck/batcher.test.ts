// @vitest-environment node
/** Batching: the first result at once, then one hand-over per interval, the rest at the end. */
import { describe, expect, it } from 'vitest';
import { createBatcher, type Schedule } from './batcher.ts';

/** A clock the test moves by hand. */
function manualClock() {
  let timers: { at: number; run: () => void }[] = [];
  let now = 0;
  const schedule: Schedule = (run, ms) => {
    const timer = { at: now + ms, run };
    timers.push(timer);
    return () => {
      timers = timers.filter((item) => item !== timer);
    };
  };
  const advance = (ms: number) => {
    now += ms;
    const due = timers.filter((timer) => timer.at <= now);
    timers = timers.filter((timer) => timer.at > now);
    due.forEach((timer) => timer.run());
  };
  return { schedule, advance, pending: () => timers.length };
}

describe('createBatcher', () => {
  it('hands over the first items at once, then what arrives within an interval together', () => {
    const clock = manualClock();
    const batches: number[][] = [];
    const batcher = createBatcher<number>((items) => batches.push(items), { intervalMs: 250, schedule: clock.schedule });
    batcher.add([1]);
    expect(batches).toEqual([[1]]);
    batcher.add([2, 3]);
    batcher.add([4]);
    expect(batches).toHaveLength(1);
    clock.advance(249);
    expect(batches).toHaveLength(1);
    clock.advance(1);
    expect(batches).toEqual([[1], [2, 3, 4]]);
    batcher.add([5]);
    batcher.flush();
    expect(batches).toEqual([[1], [2, 3, 4], [5]]);
    expect(clock.pending()).toBe(0);
  });

  it('makes a handful of hand-overs for 10,000 issues arriving in 1,000 chunks', () => {
    const clock = manualClock();
    let delivered = 0;
    let calls = 0;
    const batcher = createBatcher<number>((items) => {
      calls++;
      delivered += items.length;
    }, { intervalMs: 250, schedule: clock.schedule });
    // 1,000 chunks of 10 issues over 3 seconds.
    for (let chunk = 0; chunk < 1000; chunk++) {
      batcher.add(Array.from({ length: 10 }, (_, index) => chunk * 10 + index));
      clock.advance(3);
    }
    batcher.flush();
    expect(delivered).toBe(10_000);
    expect(calls).toBeLessThanOrEqual(14);
  });

  it('ignores empty additions and drops what is pending when cancelled', () => {
    const clock = manualClock();
    const batches: number[][] = [];
    const batcher = createBatcher<number>((items) => batches.push(items), { schedule: clock.schedule });
    batcher.add([]);
    expect(batches).toEqual([]);
    batcher.add([1]);
    batcher.add([2]);
    batcher.cancel();
    clock.advance(10_000);
    batcher.flush();
    expect(batches).toEqual([[1]]);
  });
});
