/**
 * Stripe's embedded checkout of the offline licence: Stripe.js from the configured address (once),
 * `Stripe(publishableKey).initEmbeddedCheckout({ fetchClientSecret })`, mounted here and destroyed
 * when this unmounts (the secret cleared, the page left).
 */
import { useEffect, useEffectEvent, useRef } from 'react';
import { Box } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { loadStripeJs, mountEmbeddedCheckout } from './stripeJs.ts';

interface Props {
  stripeJsUrl: string;
  publishableKey: string;
  clientSecret: string;
  onReady: () => void;
  onFail: (error: unknown) => void;
}

export default function EmbeddedCheckout({ stripeJsUrl, publishableKey, clientSecret, onReady, onFail }: Props) {
  const { t } = useTranslation('billing');
  const element = useRef<HTMLDivElement>(null);
  const ready = useEffectEvent(onReady);
  const fail = useEffectEvent(onFail);

  useEffect(() => {
    if (!element.current) return;
    let live = true;
    const checkout = mountEmbeddedCheckout({ load: () => loadStripeJs(stripeJsUrl), publishableKey, clientSecret, element: element.current });
    checkout.ready.then(
      () => live && ready(),
      (error: unknown) => live && fail(error),
    );
    return () => {
      live = false;
      checkout.destroy();
    };
  }, [stripeJsUrl, publishableKey, clientSecret]);

  return <Box ref={element} id="offline-checkout" aria-label={t('offline.checkoutLabel')} role="region" sx={{ minHeight: 360 }} />;
}
