/**
 * Which reports actually reached the error-reporting service: the transport settles each event id with
 * the service's answer (2xx: delivered), and a dropped event (the drop rule, a rate limit, no network)
 * settles false. "Support has been notified" is shown only for a delivered report.
 */
export class DeliveryTracker {
  private readonly settled = new Map<string, boolean>();
  private readonly waiting = new Map<string, Array<(delivered: boolean) => void>>();

  settle(eventId: string | undefined, delivered: boolean): void {
    if (!eventId) return;
    // A second answer for the same event (a retry) only upgrades "not delivered" to "delivered".
    const known = this.settled.get(eventId);
    if (known === true) return;
    this.settled.set(eventId, delivered);
    for (const resolve of this.waiting.get(eventId) ?? []) resolve(delivered);
    this.waiting.delete(eventId);
  }

  /** Resolves with the event's fate, or false when the service has not answered within `timeoutMs`. */
  wait(eventId: string, timeoutMs: number): Promise<boolean> {
    const known = this.settled.get(eventId);
    if (known !== undefined) return Promise.resolve(known);
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(false), timeoutMs);
      const list = this.waiting.get(eventId) ?? [];
      list.push((delivered) => {
        clearTimeout(timer);
        resolve(delivered);
      });
      this.waiting.set(eventId, list);
    });
  }
}

/** What the SDK's chunk (sentry.ts) provides to the reporting (index.ts). */
export interface SdkReporter {
  /** Resolves true once the service accepted the report; false when it was dropped or not delivered. */
  capture(error: unknown): Promise<boolean>;
  flush(timeoutMs: number): PromiseLike<boolean>;
}
