/**
 * The account's subscription (docs/billing.md#the-billing-pages): plan and cycle, the next bill or the
 * last usable day after a cancellation, failed payments with the way to fix them (the billing
 * portal), and cancel / resume / manage billing.
 */
import { useState } from 'react';
import { Alert, AlertTitle, Box, Button, CircularProgress, Paper, Stack, Typography } from '@mui/material';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { BillingStatus } from '@sheaf/shared';
import ConfirmDialog from '../../components/ConfirmDialog.tsx';
import { useNotify } from '../../app/snackbar.tsx';
import { cancelSubscriptionMutation, resumeSubscriptionMutation } from './api.ts';
import { useBillingFailure, useBillingPortal } from './useBillingErrors.ts';

type Subscription = NonNullable<BillingStatus['subscription']>;

export default function SubscriptionPanel({ status, subscription, canChange }: { status: BillingStatus; subscription: Subscription; canChange: boolean }) {
  const { t, i18n } = useTranslation('billing');
  const queryClient = useQueryClient();
  const notify = useNotify();
  const fail = useBillingFailure();
  const portal = useBillingPortal();
  const [confirming, setConfirming] = useState(false);
  const cancel = useMutation(cancelSubscriptionMutation(queryClient));
  const resume = useMutation(resumeSubscriptionMutation(queryClient));
  const date = (iso: string) => new Intl.DateTimeFormat(i18n.language, { dateStyle: 'long' }).format(new Date(iso));
  const plan = t(`plan.names.${status.plan}`);
  const until = date(subscription.currentPeriodEnd);
  const busy = cancel.isPending || resume.isPending || status.isUpdatingBillingPlan;

  const portalButton = (variant: 'text' | 'outlined', label: string) => (
    <Button variant={variant} color="inherit" onClick={portal.open} disabled={portal.busy} startIcon={portal.busy ? <CircularProgress size={16} color="inherit" /> : undefined}>
      {label}
    </Button>
  );

  return (
    <Paper variant="outlined" component="section" aria-labelledby="subscription-title" sx={{ p: { xs: 2, sm: 3 }, mb: 4 }}>
      <Typography id="subscription-title" variant="h6" component="h2" sx={{ mb: 1 }}>{t('subscription.title')}</Typography>
      <Typography>
        {status.cycle ? t(`subscription.planCycle.${status.cycle}`, { plan }) : plan}
      </Typography>
      <Typography color="text.secondary" sx={{ mt: 0.5 }}>
        {subscription.cancelAtPeriodEnd ? t('subscription.usableUntil', { plan, date: until }) : t('subscription.nextBill', { date: until })}
      </Typography>

      {(subscription.paymentFailedAt || subscription.status === 'past_due') && (
        <Alert severity="warning" sx={{ mt: 2 }}>
          <AlertTitle>{t('subscription.paymentFailedTitle')}</AlertTitle>
          {subscription.paymentFailedAt ? t('subscription.paymentFailedOn', { date: date(subscription.paymentFailedAt) }) : null}{' '}
          {t('subscription.pastDue', { plan })}
          <Box sx={{ mt: 1 }}>{portalButton('outlined', t('subscription.updatePayment'))}</Box>
        </Alert>
      )}
      {subscription.status === 'unpaid' && <Alert severity="error" sx={{ mt: 2 }}>{t('subscription.unpaid', { plan })}</Alert>}
      {subscription.status === 'incomplete' && <Alert severity="info" sx={{ mt: 2 }}>{t('subscription.incomplete')}</Alert>}

      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5} sx={{ mt: 2.5 }}>
        {portalButton('outlined', t('subscription.manage'))}
        {canChange && subscription.cancelAtPeriodEnd && (
          <Button
            variant="contained"
            disabled={busy}
            startIcon={resume.isPending ? <CircularProgress size={16} color="inherit" /> : undefined}
            onClick={() => resume.mutate(undefined, { onSuccess: () => notify('success', t('subscription.resumed', { plan })), onError: fail })}
          >
            {t('subscription.resume')}
          </Button>
        )}
        {canChange && !subscription.cancelAtPeriodEnd && (
          <Button variant="outlined" color="error" disabled={busy} onClick={() => setConfirming(true)}>{t('subscription.cancel')}</Button>
        )}
      </Stack>

      <ConfirmDialog
        open={confirming}
        title={t('subscription.cancelTitle')}
        message={t('subscription.cancelText', { plan, date: until })}
        confirmLabel={t('subscription.cancelConfirm')}
        cancelLabel={t('subscription.keep')}
        destructive
        busy={cancel.isPending}
        onCancel={() => setConfirming(false)}
        onConfirm={() =>
          cancel.mutate(undefined, {
            onSuccess: (next) => {
              setConfirming(false);
              const end = next.subscription?.currentPeriodEnd;
              notify('success', t('subscription.cancelled', { plan, date: end ? date(end) : until }));
            },
            onError: (error) => {
              setConfirming(false);
              fail(error);
            },
          })
        }
      />
    </Paper>
  );
}
