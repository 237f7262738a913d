/**
 * Confirms a switch of plan or cycle (docs/billing.md#plan-changes): the new price and how Stripe
 * prorates it (a charge for a dearer plan, a credit for a cheaper one, a new period for a new cycle),
 * then POST /billing/change.
 */
import { DialogContentText, Stack } from '@mui/material';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { BillingCycle, BillingStatus, PlanInfo, SubscriptionPlan } from '@sheaf/shared';
import ConfirmDialog from '../../components/ConfirmDialog.tsx';
import { useNotify } from '../../app/snackbar.tsx';
import { changePlanMutation } from './api.ts';
import { changeSettlement, formatUsd, priceLine } from './pricing.ts';
import { useBillingFailure } from './useBillingErrors.ts';

interface Props {
  target: PlanInfo & { plan: SubscriptionPlan };
  cycle: BillingCycle;
  current: PlanInfo | undefined;
  status: BillingStatus;
  onClose: () => void;
}

export default function ChangePlanDialog({ target, cycle, current, status, onClose }: Props) {
  const { t, i18n } = useTranslation('billing');
  const queryClient = useQueryClient();
  const notify = useNotify();
  const fail = useBillingFailure();
  const change = useMutation(changePlanMutation(queryClient));
  const plan = t(`plan.names.${target.plan}`);
  const price = target.price ? priceLine(target.price, cycle) : null;
  const settlement = current?.price && target.price && status.cycle ? changeSettlement({ price: current.price, cycle: status.cycle }, { price: target.price, cycle }) : 'newPeriod';
  const periodEnd = status.subscription ? new Intl.DateTimeFormat(i18n.language, { dateStyle: 'long' }).format(new Date(status.subscription.currentPeriodEnd)) : '';
  const money = (amount: number) => formatUsd(amount, i18n.language);

  return (
    <ConfirmDialog
      open
      title={t('change.title', { plan })}
      confirmLabel={t('change.confirm')}
      busy={change.isPending}
      onCancel={onClose}
      onConfirm={() =>
        change.mutate({ plan: target.plan, cycle }, {
          onSuccess: () => {
            notify('success', t('change.success', { plan }));
            onClose();
          },
          onError: (error) => {
            fail(error);
            onClose();
          },
        })
      }
      message={
        <Stack spacing={1.5}>
          {price && (
            <DialogContentText>
              {price.billedYearly === null
                ? t('change.newPriceMonthly', { plan, price: money(price.perMonth) })
                : t('change.newPriceYearly', { plan, price: money(price.perMonth), total: money(price.billedYearly) })}
            </DialogContentText>
          )}
          <DialogContentText>{t(`change.settlement.${settlement}`, { date: periodEnd })}</DialogContentText>
          <DialogContentText>{t('notes.vat')}</DialogContentText>
        </Stack>
      }
    />
  );
}
