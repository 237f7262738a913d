/**
 * /billing (docs/billing.md#the-billing-pages): the account's plan and subscription, the pricing table
 * with the monthly/yearly toggle, the features table, the guarantee and the FAQ. Account holders only:
 * a child user is told to ask the administrator.
 */
import { useEffect, useState } from 'react';
import { Alert, Box, Button, Link, Skeleton, Stack, Typography } from '@mui/material';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link as RouterLink, useSearchParams } from 'react-router';
import { Trans, useTranslation } from 'react-i18next';
import type { BillingStatus, PlanInfo, SubscriptionPlan, User } from '@sheaf/shared';
import { translateError } from '../../i18n/errors.ts';
import PlansLoadFailed from './PlansLoadFailed.tsx';
import AccountLayout from '../account/AccountLayout.tsx';
import { useCurrentUser } from '../auth/useCurrentUser.ts';
import { billingStatusQuery, plansQuery, refreshPlanDependents } from './api.ts';
import BillingFaq from './BillingFaq.tsx';
import BillingNotes, { PriceIncreaseNotice } from './BillingNotes.tsx';
import { useBillingCycle } from './billingCycle.ts';
import ChangePlanDialog from './ChangePlanDialog.tsx';
import CheckoutDialog from './CheckoutDialog.tsx';
import CheckoutResult from './CheckoutResult.tsx';
import CycleToggle from './CycleToggle.tsx';
import FeaturesTable from './FeaturesTable.tsx';
import PlanCards from './PlanCards.tsx';
import { checkoutReturn, chosenPlan, hasSubscription } from './planActions.ts';
import { monthsFreeYearly, onlinePlans } from './pricing.ts';
import SubscriptionPanel from './SubscriptionPanel.tsx';

export default function BillingPage() {
  const { t } = useTranslation('billing');
  const me = useCurrentUser();
  const user = me.data;
  return (
    <AccountLayout>
      <Typography variant="h5" component="h1" sx={{ mb: 3, fontWeight: 600 }}>{t('title')}</Typography>
      {!user && <Skeleton variant="rounded" height={320} aria-busy="true" />}
      {user?.parentUid && (
        <Alert severity="info" action={<Button component={RouterLink} to="/" color="inherit">{t('actions.home')}</Button>}>
          {t('child')}
        </Alert>
      )}
      {user && !user.parentUid && <BillingContent user={user} />}
    </AccountLayout>
  );
}

type Dialog = { kind: 'checkout' | 'change'; plan: SubscriptionPlan } | null;

/** The plan chip and counter chip (GET /users/me) follow the plan Stripe confirmed. */
function useUserFollowsPlan(status: BillingStatus | undefined, user: User) {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!status || status.isUpdatingBillingPlan) return;
    if (status.plan !== user.billingPlan || status.cycle !== user.billingCycle) refreshPlanDependents(queryClient);
  }, [status, user.billingPlan, user.billingCycle, queryClient]);
}

function BillingContent({ user }: { user: User }) {
  const { t } = useTranslation(['billing', 'errors']);
  const [search, setSearch] = useSearchParams();
  const [cycle, setCycle] = useBillingCycle();
  const [dialog, setDialog] = useState<Dialog>(null);
  const plansList = useQuery(plansQuery());
  const billing = useQuery(billingStatusQuery());
  const status = billing.data;
  useUserFollowsPlan(status, user);

  const result = checkoutReturn(search);
  const dismissResult = () => setSearch((params) => {
    params.delete('checkout');
    return params;
  }, { replace: true });

  if (plansList.isPending) return <Stack spacing={2} aria-busy="true">{[0, 1].map((key) => <Skeleton key={key} variant="rounded" height={220} />)}</Stack>;
  if (plansList.isError) return <PlansLoadFailed error={plansList.error} onRetry={() => void plansList.refetch()} />;

  const list = plansList.data;
  const plans = onlinePlans(list);
  const configured = list.billingConfigured && status?.billingConfigured !== false;
  const refundDays = Math.max(0, ...plans.map((plan) => plan.refundDays));
  const planInfo = (plan: string): PlanInfo | undefined => list.plans.find((info) => info.plan === plan);
  const target = dialog ? planInfo(dialog.plan) : undefined;
  const subscription = status && hasSubscription(status) ? status.subscription : null;

  return (
    <Box>
      {result && <CheckoutResult result={result} status={status} onDismiss={dismissResult} />}
      {billing.isError && <Alert severity="error" sx={{ mb: 3 }}>{translateError(billing.error, t)}</Alert>}
      {!configured && <Alert severity="warning" sx={{ mb: 3 }}>{t('billing:notConfigured')}</Alert>}
      {status?.isUpdatingBillingPlan && result !== 'success' && <Alert severity="info" role="status" sx={{ mb: 3 }}>{t('billing:updating')}</Alert>}
      {status && subscription && <SubscriptionPanel status={status} subscription={subscription} canChange={configured} />}

      <Box component="section" aria-labelledby="plans-title">
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { sm: 'center' }, justifyContent: 'space-between', mb: 2 }}>
          <Typography id="plans-title" variant="h5" component="h2">{t('billing:plansTitle')}</Typography>
          <CycleToggle cycle={cycle} onChange={setCycle} monthsFree={monthsFreeYearly(plans)} />
        </Stack>
        <PriceIncreaseNotice date={list.priceIncreaseDate} />
        <PlanCards
          plans={plans}
          cycle={cycle}
          status={status}
          canBuy={configured}
          highlight={chosenPlan(search)}
          onUpgrade={(plan) => setDialog({ kind: 'checkout', plan })}
          onSwitch={(plan) => setDialog({ kind: 'change', plan })}
        />
        {subscription?.cancelAtPeriodEnd && configured && (
          <Typography variant="body2" color="text.secondary" sx={{ mt: 1.5 }}>{t('billing:plan.resumeToChange')}</Typography>
        )}
        <BillingNotes refundDays={refundDays} />
      </Box>

      <FeaturesTable plans={plans} />
      <BillingFaq refundDays={refundDays} />

      <Typography sx={{ mt: 4 }} color="text.secondary">
        <Trans t={t} i18nKey="billing:offlineLink" components={{ offline: <Link component={RouterLink} to="/offline" /> }} />
      </Typography>

      {dialog?.kind === 'checkout' && target && status && (
        <CheckoutDialog plan={target as PlanInfo & { plan: SubscriptionPlan }} cycle={cycle} savedAddress={status.address} onClose={() => setDialog(null)} />
      )}
      {dialog?.kind === 'change' && target && status && (
        <ChangePlanDialog target={target as PlanInfo & { plan: SubscriptionPlan }} cycle={cycle} current={planInfo(status.plan)} status={status} onClose={() => setDialog(null)} />
      )}
    </Box>
  );
}
