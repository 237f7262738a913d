/**
 * The poll loop of the merge progress and the mailing report: call `step` after `firstDelayMs`, then
 * again after the delay each call returns (null: stop), never two calls at once; when the browser is
 * back online, ask at once rather than wait out the delay. `step` handles its own errors. Returns
 * the stop function, which also aborts the call in flight through its signal.
 */
export function startPolling(step: (signal: AbortSignal) => Promise<number | null>, firstDelayMs: number, target: EventTarget = window): () => void {
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let inFlight = false;
  const schedule = (ms: number) => {
    clearTimeout(timer);
    timer = setTimeout(() => void run(), ms);
  };
  async function run() {
    if (inFlight || controller.signal.aborted) return;
    inFlight = true;
    let next: number | null;
    try {
      next = await step(controller.signal);
    } finally {
      inFlight = false;
    }
    if (next !== null && !controller.signal.aborted) schedule(next);
  }
  const onOnline = () => schedule(0);
  target.addEventListener('online', onOnline);
  schedule(firstDelayMs);
  return () => {
    controller.abort();
    clearTimeout(timer);
    target.removeEventListener('online', onOnline);
  };
}
