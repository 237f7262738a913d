/**
 * Billing's failures go through the global snackbar in the UI language (docs/web-app.md#snackbar):
 * the catalogue's text of the code, so a Stripe failure reads 'Something went wrong on our side.
 * Please reload this page or try again later.' (billing/failed). Cancelled calls stay silent.
 */
import { useCallback } from 'react';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api/client.ts';
import { useNotify } from '../../app/snackbar.tsx';
import { translateError } from '../../i18n/errors.ts';
import { portalMutation } from './api.ts';

export function useBillingFailure(): (error: unknown) => void {
  const { t } = useTranslation('errors');
  const notify = useNotify();
  return useCallback((error: unknown) => {
    if (error instanceof ApiError && error.isCancelled) return;
    notify('error', translateError(error, t));
  }, [notify, t]);
}

/** Sends the browser to an address the server gave (Stripe Checkout, the billing portal). */
export function goTo(url: string): void {
  window.location.assign(url);
}

/** Opens Stripe's billing portal: POST /billing/portal, then the browser follows the link. */
export function useBillingPortal(): { open: () => void; busy: boolean } {
  const fail = useBillingFailure();
  const portal = useMutation({ ...portalMutation(), onSuccess: ({ url }) => goTo(url), onError: fail });
  // Busy until the browser leaves: the page goes away once the portal loads.
  return { open: () => portal.mutate(), busy: portal.isPending || portal.isSuccess };
}
