/**
 * The in-process event bus: a module announces what happened (or is about to happen) by name, and
 * other modules subscribe at boot. This is how a lower module reaches a higher one without importing
 * it: merges announces `merge.completed`, the mailing subscribes.
 *
 * Each module declares its events where it emits them, by augmenting `SheafEvents`:
 *
 *   declare module '../../events/bus.ts' {
 *     interface SheafEvents { 'merge.completed': MergeCompleted }
 *   }
 *
 * Subscribers run one after the other, in the order they subscribed, and are awaited. An event
 * emitted inside a transaction carries its handle (`tx`), so subscribers write in the same
 * transaction: what they do commits or rolls back with the emitter's change. A subscriber that
 * throws stops the rest and the error reaches the emitter (a "...deleting" event can refuse that way).
 */

// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by module augmentation
export interface SheafEvents {}

export type EventName = keyof SheafEvents;
export type Subscriber<N extends EventName> = (payload: SheafEvents[N]) => void | Promise<void>;

export class EventBus {
  private readonly subscribers = new Map<EventName, Array<Subscriber<EventName>>>();

  on<N extends EventName>(name: N, subscriber: Subscriber<N>): () => void {
    const list = this.subscribers.get(name) ?? [];
    list.push(subscriber as Subscriber<EventName>);
    this.subscribers.set(name, list);
    return () => {
      const index = list.indexOf(subscriber as Subscriber<EventName>);
      if (index >= 0) list.splice(index, 1);
    };
  }

  async emit<N extends EventName>(name: N, payload: SheafEvents[N]): Promise<void> {
    for (const subscriber of [...(this.subscribers.get(name) ?? [])]) await subscriber(payload);
  }

  /** How many subscribe to `name` (boot checks that a required subscriber is there). */
  count(name: EventName): number {
    return this.subscribers.get(name)?.length ?? 0;
  }
}

/** Work to run once the emitter's transaction has committed (waking a queue that must see the new rows). */
export class AfterCommit {
  private readonly callbacks: Array<() => void> = [];
  add(callback: () => void): void {
    this.callbacks.push(callback);
  }
  run(): void {
    for (const callback of this.callbacks.splice(0)) callback();
  }
}
