/**
 * The pricing table of /billing: one card per online plan with its price for the chosen cycle (and the
 * yearly bill), the "current plan" mark and what the account can do with it (planActions.ts).
 */
import { Box, Button, Chip, Paper, Stack, Typography } from '@mui/material';
import CheckIcon from '@mui/icons-material/Check';
import RemoveIcon from '@mui/icons-material/Remove';
import { useTranslation } from 'react-i18next';
import type { BillingCycle, BillingStatus, PlanInfo, SubscriptionPlan } from '@sheaf/shared';
import { cardAction, type CardAction } from './planActions.ts';
import { formatUsd, priceLine } from './pricing.ts';

interface Props {
  plans: readonly PlanInfo[];
  cycle: BillingCycle;
  /** Unknown while loading (no buttons yet). */
  status: BillingStatus | undefined;
  /** False: billing is not configured here; the cards show no buy buttons. */
  canBuy: boolean;
  /** A plan chosen before signing up (?plan=), outlined. */
  highlight: SubscriptionPlan | null;
  onUpgrade: (plan: SubscriptionPlan) => void;
  onSwitch: (plan: SubscriptionPlan) => void;
}

export default function PlanCards({ plans, cycle, status, canBuy, highlight, onUpgrade, onSwitch }: Props) {
  const { t, i18n } = useTranslation('billing');
  const number = new Intl.NumberFormat(i18n.language);
  const locked = Boolean(status?.isUpdatingBillingPlan || status?.subscription?.cancelAtPeriodEnd);

  const actionButton = (action: CardAction, planName: string) => {
    if (action.kind === 'current') return <Button variant="outlined" disabled fullWidth>{t('plan.current')}</Button>;
    if (!canBuy || action.kind === 'none') return null;
    if (action.kind === 'upgrade') {
      return <Button variant="contained" fullWidth disabled={locked} onClick={() => onUpgrade(action.plan)}>{t('plan.upgrade', { plan: planName })}</Button>;
    }
    const label = action.cycleOnly ? t(`plan.switchCycle.${cycle}`) : t('plan.switch', { plan: planName });
    return <Button variant="outlined" fullWidth disabled={locked} onClick={() => onSwitch(action.plan)}>{label}</Button>;
  };

  return (
    <Box component="ul" sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', md: `repeat(${plans.length}, 1fr)` }, p: 0, m: 0, listStyle: 'none' }}>
      {plans.map((plan) => {
        const name = t(`plan.names.${plan.plan}`);
        const price = plan.price ? priceLine(plan.price, cycle) : null;
        const isCurrent = status?.plan === plan.plan;
        const action: CardAction = status ? cardAction(plan, cycle, status) : { kind: 'none' };
        const chosen = highlight === plan.plan && !isCurrent;
        const free = plan.kind === 'free';
        return (
          <Paper
            component="li"
            key={plan.plan}
            variant="outlined"
            aria-labelledby={`plan-${plan.plan}`}
            sx={{ p: 3, display: 'flex', flexDirection: 'column', gap: 1.5, borderWidth: isCurrent || chosen ? 2 : 1, borderColor: isCurrent || chosen ? 'primary.main' : 'divider' }}
          >
            <Stack direction="row" spacing={1} sx={{ alignItems: 'center', minHeight: 24 }}>
              <Typography id={`plan-${plan.plan}`} variant="h6" component="h3">{name}</Typography>
              {isCurrent && <Chip size="small" color="primary" label={t('plan.currentMark')} />}
              {chosen && <Chip size="small" color="secondary" variant="outlined" label={t('plan.chosen')} />}
            </Stack>
            <Typography variant="body2" color="text.secondary">{t(`plan.tagline.${plan.plan}`)}</Typography>
            {price && (
              <Box>
                <Typography component="p" sx={{ display: 'flex', alignItems: 'baseline', gap: 0.75 }}>
                  <Box component="span" sx={{ fontSize: '2rem', fontWeight: 700 }}>{formatUsd(price.perMonth, i18n.language)}</Box>
                  <Box component="span" sx={{ color: 'text.secondary' }}>{t('price.perMonth')}</Box>
                </Typography>
                <Typography variant="body2" color="text.secondary">
                  {free
                    ? t('price.freeForever')
                    : price.billedYearly === null
                      ? t('price.billedMonthly')
                      : t('price.billedYearly', { total: formatUsd(price.billedYearly, i18n.language) })}
                </Typography>
              </Box>
            )}
            <Stack component="ul" spacing={0.5} sx={{ p: 0, m: 0, listStyle: 'none', flex: 1 }}>
              {[
                { text: plan.documentsPerMonth === null ? t('features.unlimitedDocuments') : t('features.documentsPerMonth', { amount: number.format(plan.documentsPerMonth) }), good: true },
                { text: t('features.users', { count: plan.users }), good: true },
                { text: plan.watermark ? t('features.withWatermark') : t('features.noWatermark'), good: !plan.watermark },
                ...(plan.sendEmail ? [{ text: t('features.sendEmail'), good: true }] : []),
                ...(plan.dkim ? [{ text: t('features.dkim'), good: true }] : []),
                { text: t(`features.support.${plan.support}`), good: true },
              ].map(({ text, good }) => (
                <Typography component="li" variant="body2" key={text} sx={{ display: 'flex', gap: 1, alignItems: 'flex-start' }}>
                  {good ? <CheckIcon fontSize="small" color="success" aria-hidden /> : <RemoveIcon fontSize="small" sx={{ color: 'text.secondary' }} aria-hidden />}
                  {text}
                </Typography>
              ))}
            </Stack>
            {actionButton(action, name)}
          </Paper>
        );
      })}
    </Box>
  );
}
