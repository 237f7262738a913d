/** Iteration helpers for long merges run inside the server: stop on abort, let the event loop breathe. */

/** Every this many items the loop yields to the event loop, so HTTP requests (a cancel) get served. */
const YIELD_EVERY = 8;

const nextTick = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Passes items through; throws the signal's reason before the next item once it is aborted. */
export async function* untilAborted<T>(items: Iterable<T> | AsyncIterable<T>, signal: AbortSignal): AsyncGenerator<T> {
  let count = 0;
  for await (const item of items) {
    signal.throwIfAborted();
    yield item;
    if (++count % YIELD_EVERY === 0) await nextTick();
  }
  signal.throwIfAborted();
}

/** Calls `report` with the latest value at most once per `intervalMs`, one call at a time. */
export function throttled(intervalMs: number, report: (value: number) => Promise<void>): { push(value: number): void; flush(): Promise<void> } {
  let last = 0;
  let inFlight: Promise<void> | undefined;
  return {
    push(value: number) {
      const now = Date.now();
      if (inFlight || now - last < intervalMs) return;
      last = now;
      inFlight = report(value).catch(() => undefined).finally(() => (inFlight = undefined));
    },
    async flush() {
      await inFlight;
    },
  };
}
