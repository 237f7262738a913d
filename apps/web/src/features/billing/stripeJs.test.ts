// @vitest-environment node
/** Stripe.js is added once per page, and one embedded checkout exists at a time. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadStripeJs, mountEmbeddedCheckout, resetStripeJs, type StripeFactory } from './stripeJs.ts';

afterEach(() => resetStripeJs());

function fakeHost() {
  const scripts: { src: string; onload?: () => void; onerror?: () => void; remove: () => void }[] = [];
  return {
    scripts,
    host: {
      createElement: () => {
        const script = { src: '', async: false, remove: vi.fn() } as unknown as HTMLScriptElement;
        return script;
      },
      head: { appendChild: (script: never) => (scripts.push(script), script) },
    },
  };
}

describe('Stripe.js', () => {
  it('adds the script once and resolves with window.Stripe', async () => {
    const { scripts, host } = fakeHost();
    const scope: { Stripe?: StripeFactory } = {};
    const first = loadStripeJs('https://js.example/v3/', host, scope);
    const second = loadStripeJs('https://js.example/v3/', host, scope);
    expect(second).toBe(first);
    expect(scripts).toHaveLength(1);
    expect(scripts[0]!.src).toBe('https://js.example/v3/');
    scope.Stripe = vi.fn() as unknown as StripeFactory;
    scripts[0]!.onload!();
    await expect(first).resolves.toBe(scope.Stripe);
  });

  it('may be tried again after a failed load', async () => {
    const { scripts, host } = fakeHost();
    const failed = loadStripeJs('https://js.example/v3/', host, {});
    scripts[0]!.onerror!();
    await expect(failed).rejects.toThrow(/could not be loaded/);
    void loadStripeJs('https://js.example/v3/', host, {});
    expect(scripts).toHaveLength(2);
  });
});

describe('the embedded checkout', () => {
  function fakeStripe() {
    const events: string[] = [];
    let created = 0;
    const factory = ((key: string) => ({
      initEmbeddedCheckout: async ({ fetchClientSecret }: { fetchClientSecret: () => Promise<string> }) => {
        const id = ++created;
        events.push(`init ${id} ${key} ${await fetchClientSecret()}`);
        return { mount: () => events.push(`mount ${id}`), destroy: () => events.push(`destroy ${id}`) };
      },
    })) as StripeFactory;
    return { events, load: async () => factory };
  }
  const element = {} as HTMLElement;

  it('mounts with the client secret and destroys on request', async () => {
    const { events, load } = fakeStripe();
    const checkout = mountEmbeddedCheckout({ load, publishableKey: 'pk_test', clientSecret: 'cs_secret', element });
    await checkout.ready;
    checkout.destroy();
    expect(events).toEqual(['init 1 pk_test cs_secret', 'mount 1', 'destroy 1']);
  });

  it('destroys a checkout destroyed before it was ready, and starts the next one only after it', async () => {
    const { events, load } = fakeStripe();
    const first = mountEmbeddedCheckout({ load, publishableKey: 'pk', clientSecret: 'one', element });
    first.destroy();
    const second = mountEmbeddedCheckout({ load, publishableKey: 'pk', clientSecret: 'two', element });
    await second.ready;
    expect(events).toEqual(['init 1 pk two', 'mount 1']);
  });

  it('never has two checkouts at once', async () => {
    const { events, load } = fakeStripe();
    const first = mountEmbeddedCheckout({ load, publishableKey: 'pk', clientSecret: 'one', element });
    await Promise.resolve();
    first.destroy();
    const second = mountEmbeddedCheckout({ load, publishableKey: 'pk', clientSecret: 'two', element });
    await second.ready;
    const inits = events.filter((event) => event.startsWith('init')).length;
    const mounts = events.filter((event) => event.startsWith('mount')).length;
    expect(events.at(-1)).toMatch(/^mount/);
    expect(mounts).toBe(1);
    expect(inits - events.filter((event) => event.startsWith('destroy')).length).toBe(1);
  });
});
