/**
 * Stripe.js for the embedded checkout of /offline (docs/billing.md#the-billing-pages). The script comes
 * from the address GET /v1/plans names (STRIPE_JS_URL on the server: Stripe's own, or a stand-in in
 * tests), is added once per page, and one embedded checkout exists at a time: a new one waits until the
 * previous one is destroyed (Stripe allows only one; React's development double mount makes two).
 */

/** The part of an embedded checkout the page uses. */
export interface EmbeddedCheckoutInstance {
  mount(element: HTMLElement): void;
  destroy(): void;
}

export interface StripeInstance {
  initEmbeddedCheckout(options: { fetchClientSecret: () => Promise<string> }): Promise<EmbeddedCheckoutInstance>;
}

export type StripeFactory = (publishableKey: string) => StripeInstance;

declare global {
  interface Window {
    Stripe?: StripeFactory;
  }
}

interface ScriptHost {
  createElement(tag: 'script'): HTMLScriptElement;
  head: Pick<HTMLHeadElement, 'appendChild'>;
}

interface StripeGlobal {
  Stripe?: StripeFactory;
}

const loads = new Map<string, Promise<StripeFactory>>();

/** Adds Stripe.js's script once per address; resolves with window.Stripe. A failed load may be tried again. */
export function loadStripeJs(url: string, host: ScriptHost = document, scope: StripeGlobal = window): Promise<StripeFactory> {
  const known = loads.get(url);
  if (known) return known;
  const loading = new Promise<StripeFactory>((resolve, reject) => {
    if (scope.Stripe) return resolve(scope.Stripe);
    const script = host.createElement('script');
    script.src = url;
    script.async = true;
    script.onload = () => (scope.Stripe ? resolve(scope.Stripe) : reject(new Error(`${url} did not define Stripe`)));
    script.onerror = () => {
      loads.delete(url);
      script.remove();
      reject(new Error(`Stripe.js could not be loaded from ${url}`));
    };
    host.head.appendChild(script);
  });
  loads.set(url, loading);
  return loading;
}

/** Forgets the loaded scripts (tests). */
export function resetStripeJs(): void {
  loads.clear();
  queue = Promise.resolve();
}

let queue: Promise<unknown> = Promise.resolve();

export interface MountedCheckout {
  /** Settles once the checkout is on the page (or was destroyed first); rejects when it could not start. */
  ready: Promise<void>;
  destroy(): void;
}

/**
 * `Stripe(publishableKey).initEmbeddedCheckout({ fetchClientSecret })`, then `.mount(element)`.
 * `destroy()` removes it, also when called before it was ready.
 */
export function mountEmbeddedCheckout(options: {
  load: () => Promise<StripeFactory>;
  publishableKey: string;
  clientSecret: string;
  element: HTMLElement;
}): MountedCheckout {
  let destroyed = false;
  let checkout: EmbeddedCheckoutInstance | null = null;
  const ready = queue.then(async () => {
    if (destroyed) return;
    const Stripe = await options.load();
    const created = await Stripe(options.publishableKey).initEmbeddedCheckout({ fetchClientSecret: async () => options.clientSecret });
    if (destroyed) return created.destroy();
    checkout = created;
    created.mount(options.element);
  });
  queue = ready.catch(() => undefined);
  return {
    ready,
    destroy() {
      destroyed = true;
      checkout?.destroy();
      checkout = null;
    },
  };
}
