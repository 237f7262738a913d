/**
 * What a browser meets at the stand-in (browser tests): the hosted Checkout page (line items, total, a
 * Pay button that completes the session and goes on to success_url), the billing portal, and a small
 * Stripe.js whose embedded checkout renders an email field and a Pay button in the page.
 */
import type { StripeObject } from './objects.ts';
import type { LineItem } from './objects.ts';

const escape = (text: string): string => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const dollars = (cents: number): string => `$${(cents / 100).toFixed(2)}`;

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escape(title)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:40rem;margin:2rem auto;padding:0 1rem;color:#1a1a1a}
table{border-collapse:collapse;width:100%}th,td{text-align:left;padding:.4rem;border-bottom:1px solid #ccc}
label{display:block;margin:1rem 0 .25rem}input{font-size:1rem;padding:.4rem;width:100%;box-sizing:border-box}
button{margin-top:1rem;font-size:1rem;padding:.6rem 1.5rem;background:#0a4fb3;color:#fff;border:0;border-radius:4px}
a{color:#0a4fb3}</style></head>
<body><main>${body}</main></body></html>`;
}

export function lineItemsTable(items: LineItem[]): string {
  const rows = items.map((item) => `<tr><td>${escape(item.price.nickname)}</td><td>${item.quantity}</td><td>${dollars(item.price.unit_amount * item.quantity)} / ${item.price.interval}</td></tr>`);
  return `<table><caption>Your order</caption><thead><tr><th scope="col">Item</th><th scope="col">Quantity</th><th scope="col">Price</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

export const totalOf = (items: LineItem[]): number => items.reduce((sum, item) => sum + item.price.unit_amount * item.quantity, 0);

export function checkoutPage(session: StripeObject, items: LineItem[], email: string): string {
  const id = escape(session['id']);
  if (session['status'] !== 'open') return page('Checkout', `<h1>Checkout</h1><p role="status">This checkout session is ${escape(session['status'])}.</p>`);
  return page(
    'Checkout (Stripe stand-in)',
    `<h1>Pay Sheaf</h1>${lineItemsTable(items)}<p>Total due today: <strong>${dollars(totalOf(items))}</strong></p>
<form method="post" action="/__standin/checkout/${id}/pay">
<label for="email">Email</label><input id="email" name="email" type="email" autocomplete="email" required value="${escape(email)}">
<button type="submit">Pay</button></form>
${session['cancel_url'] ? `<p><a href="${escape(session['cancel_url'])}">Back to Sheaf</a></p>` : ''}`,
  );
}

export function portalPage(portal: StripeObject): string {
  return page(
    'Billing portal (Stripe stand-in)',
    `<h1>Billing portal</h1><p>Invoices and payment methods of customer ${escape(portal['customer'])}.</p>
${portal['return_url'] ? `<p><a href="${escape(portal['return_url'])}">Return to Sheaf</a></p>` : ''}`,
  );
}

/** Stripe's URL placeholder filled, as Stripe does on redirect. */
export const fillSessionId = (url: string, sessionId: string): string => url.replaceAll('{CHECKOUT_SESSION_ID}', sessionId);

/**
 * window.Stripe(publishableKey).initEmbeddedCheckout({ fetchClientSecret } | { clientSecret }): a
 * promise of { mount(selectorOrElement), unmount(), destroy() } (it also has those methods itself, for
 * callers that do not await). Paying posts to the stand-in and goes to the session's return_url.
 */
export function stripeJs(origin: string): string {
  return `(function () {
  'use strict';
  var ORIGIN = ${JSON.stringify(origin)};
  function money(cents) { return '$' + (cents / 100).toFixed(2); }
  function Stripe(publishableKey) {
    if (!(this instanceof Stripe)) return new Stripe(publishableKey);
    if (!publishableKey) throw new Error('Stripe(): a publishable key is required');
    this.publishableKey = publishableKey;
  }
  Stripe.prototype.initEmbeddedCheckout = function (options) {
    var secret = options && options.clientSecret ? Promise.resolve(options.clientSecret) : Promise.resolve().then(function () { return options.fetchClientSecret(); });
    var root = null;
    var destroyed = false;
    function render(target) {
      var host = typeof target === 'string' ? document.querySelector(target) : target;
      if (!host) throw new Error('initEmbeddedCheckout: no element to mount into');
      root = document.createElement('form');
      root.setAttribute('aria-label', 'Payment');
      host.appendChild(root);
      secret.then(function (clientSecret) {
        return fetch(ORIGIN + '/__standin/embedded/session?client_secret=' + encodeURIComponent(clientSecret)).then(function (r) { return r.json(); }).then(function (info) {
          if (destroyed || !root) return;
          var rows = info.lineItems.map(function (item) { return '<li>' + item.quantity + ' × ' + item.name + ': ' + money(item.amount) + '</li>'; }).join('');
          var id = 'standin-email-' + Math.random().toString(36).slice(2);
          root.innerHTML = '<ul aria-label="Your order">' + rows + '</ul><p>Total due today: <strong>' + money(info.total) + '</strong></p>' +
            '<label for="' + id + '">Email</label> <input id="' + id + '" type="email" autocomplete="email" required> ' +
            '<button type="submit">Pay</button><p role="alert"></p>';
          root.querySelector('input').value = info.customerEmail || '';
          root.addEventListener('submit', function (event) {
            event.preventDefault();
            var email = root.querySelector('input').value;
            fetch(ORIGIN + '/__standin/embedded/complete', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ clientSecret: clientSecret, email: email }) })
              .then(function (r) { return r.json().then(function (body) { if (!r.ok) throw new Error(body.error && body.error.message || 'payment failed'); return body; }); })
              .then(function (body) { window.location.assign(body.returnUrl); })
              .catch(function (error) { root.querySelector('[role=alert]').textContent = error.message; });
          });
        });
      });
    }
    var checkout = {
      mount: function (target) { if (destroyed) throw new Error('this embedded checkout was destroyed'); if (!root) render(target); },
      unmount: function () { if (root && root.parentNode) root.parentNode.removeChild(root); root = null; },
      destroy: function () { checkout.unmount(); destroyed = true; },
    };
    var promise = secret.then(function () { return checkout; });
    promise.mount = checkout.mount;
    promise.unmount = checkout.unmount;
    promise.destroy = checkout.destroy;
    return promise;
  };
  window.Stripe = Stripe;
})();
`;
}
