/**
 * /offline (docs/billing.md#the-billing-pages): the offline licence for visitors and signed-in users.
 * Hero, cycle toggle, the "Offline Plan" card, the two consent ticks (an error under each unticked one
 * and no request), Next -> loading -> POST /createOfflineCheckoutSession -> Stripe's embedded checkout;
 * clearing the secret (Change order, a failure) ends the loading and removes the checkout.
 */
import { useRef, useState } from 'react';
import { Alert, Box, Button, CircularProgress, Skeleton, Stack, Typography } from '@mui/material';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { SheafError } from '@sheaf/shared';
import PlansLoadFailed from './PlansLoadFailed.tsx';
import { useIsSignedIn } from '../auth/useAuth.ts';
import { useCurrentUser } from '../auth/useCurrentUser.ts';
import { offlineCheckoutMutation, plansQuery } from './api.ts';
import { useBillingCycle } from './billingCycle.ts';
import ConsentChecks from './ConsentChecks.tsx';
import { consentBody, consentErrors, NO_CONSENT, type Consent, type ConsentErrors } from './consent.ts';
import CycleToggle from './CycleToggle.tsx';
import EmbeddedCheckout from './EmbeddedCheckout.tsx';
import OfflineFaq from './OfflineFaq.tsx';
import OfflinePlanCard from './OfflinePlanCard.tsx';
import { MAX_LICENCES, monthsFreeYearly, offlinePlan, parseQuantity, priceIdOf } from './pricing.ts';
import { useBillingFailure } from './useBillingErrors.ts';

/** idle: the order form; loading: after Next until the checkout shows; checkout: Stripe's form is up. */
type Phase = 'idle' | 'loading' | 'checkout';

export default function OfflinePage() {
  const { t } = useTranslation(['billing', 'errors']);
  const signedIn = useIsSignedIn();
  // A child user may not buy for the account (docs/billing.md#the-offline-licence-purchase): ask the administrator.
  const isChild = Boolean(useCurrentUser().data?.parentUid);
  const fail = useBillingFailure();
  const [cycle, setCycle] = useBillingCycle();
  const [quantity, setQuantity] = useState('1');
  const [consent, setConsent] = useState<Consent>(NO_CONSENT);
  const [problems, setProblems] = useState<ConsentErrors>({});
  const [clientSecret, setClientSecret] = useState<string | null>(null);
  const [phase, setPhase] = useState<Phase>('idle');
  const plansList = useQuery(plansQuery());
  const start = useMutation(offlineCheckoutMutation());
  // Each Next is one attempt; Change order (or a failure) ends it, so a late answer is dropped.
  const attempt = useRef(0);

  const count = parseQuantity(quantity);
  const quantityError = count === null ? t('billing:offline.quantityInvalid', { max: MAX_LICENCES }) : null;
  const clearSecret = () => {
    attempt.current += 1;
    setClientSecret(null);
    setPhase('idle');
  };

  if (plansList.isPending) return <Skeleton variant="rounded" height={480} aria-busy="true" />;
  if (plansList.isError) return <PlansLoadFailed error={plansList.error} onRetry={() => void plansList.refetch()} />;
  const list = plansList.data;
  const plan = offlinePlan(list);
  const trialDocuments = list.plans.find((info) => info.kind === 'trial')?.documentsPerMonth ?? 0;
  const priceId = plan ? priceIdOf(plan, cycle) : null;
  const canBuy = list.billingConfigured && Boolean(list.stripePublishableKey) && Boolean(priceId);
  const busy = phase !== 'idle';

  const next = () => {
    const unticked = consentErrors(consent);
    setProblems(unticked);
    const agreed = consentBody(consent);
    if (!agreed || count === null || !priceId) return;
    setPhase('loading');
    const mine = ++attempt.current;
    start.mutate({ priceId, quantity: count, consent: agreed }, {
      onSuccess: ({ clientSecret: secret }) => {
        if (attempt.current === mine) setClientSecret(secret);
      },
      onError: (error) => {
        if (attempt.current !== mine) return;
        clearSecret();
        fail(error);
      },
    });
  };
  const changeConsent = (value: Consent) => {
    setConsent(value);
    setProblems((current) => Object.fromEntries(Object.entries(current).filter(([name]) => !value[name as keyof Consent])));
  };

  return (
    <Box sx={{ maxWidth: 880, mx: 'auto' }}>
      <Box component="header" sx={{ textAlign: 'center', mb: 4 }}>
        <Typography variant="h3" component="h1">{t('billing:offline.heroTitle')}</Typography>
        <Typography color="text.secondary" sx={{ mt: 1.5, maxWidth: 640, mx: 'auto', fontSize: '1.1rem' }}>{t('billing:offline.heroText')}</Typography>
      </Box>

      {!plan ? (
        <Alert severity="warning">{t('billing:notConfigured')}</Alert>
      ) : (
        <>
          <Stack direction="row" sx={{ justifyContent: 'center', mb: 3 }}>
            <CycleToggle cycle={cycle} onChange={(value) => !busy && setCycle(value)} monthsFree={monthsFreeYearly([plan])} />
          </Stack>
          <OfflinePlanCard plan={plan} cycle={cycle} quantity={quantity} quantityError={quantityError} onQuantity={setQuantity} trialDocuments={trialDocuments} disabled={busy}>
            {!canBuy ? (
              <Alert severity="warning" sx={{ mt: 3 }}>{t('billing:notConfigured')}</Alert>
            ) : isChild ? (
              <Alert severity="info" sx={{ mt: 3 }}>{t('billing:child')}</Alert>
            ) : (
              <Box sx={{ mt: 3 }}>
                <ConsentChecks idPrefix="offline" consent={consent} errors={problems} onChange={changeConsent} disabled={busy} />
                <Stack direction="row" spacing={1.5} sx={{ mt: 2.5, alignItems: 'center' }}>
                  {phase === 'idle' ? (
                    <Button variant="contained" size="large" onClick={next}>{t('billing:offline.next')}</Button>
                  ) : (
                    <Button variant="outlined" onClick={clearSecret}>{t('billing:offline.changeOrder')}</Button>
                  )}
                  {phase === 'loading' && (
                    <Stack direction="row" spacing={1} role="status" sx={{ alignItems: 'center' }}>
                      <CircularProgress size={20} aria-hidden />
                      <Typography color="text.secondary">{t('billing:offline.loading')}</Typography>
                    </Stack>
                  )}
                </Stack>
              </Box>
            )}
          </OfflinePlanCard>
          {clientSecret && list.stripePublishableKey && (
            <Box sx={{ mt: 3, visibility: phase === 'checkout' ? 'visible' : 'hidden' }}>
              <EmbeddedCheckout
                stripeJsUrl={list.stripeJsUrl}
                publishableKey={list.stripePublishableKey}
                clientSecret={clientSecret}
                onReady={() => setPhase('checkout')}
                onFail={() => {
                  // Stripe.js did not load or start: the catalogue's billing failure, not a raw script error.
                  clearSecret();
                  fail(new SheafError('billing/failed'));
                }}
              />
            </Box>
          )}
        </>
      )}

      <OfflineFaq signedIn={signedIn} trialDocuments={trialDocuments} />
    </Box>
  );
}
