import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import LinearProgress from '@mui/material/LinearProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { Link as RouterLink } from 'react-router';
import { useTranslation } from 'react-i18next';
import { entitlements, type User } from '@sheaf/shared';
import { useEdition } from '../senders/useSenders.ts';
import SettingsSection from './SettingsSection.tsx';
import { renewalDate, usageOf } from './planSummary.ts';

/** Plan, documents used against the quota, and when the quota renews. */
export default function PlanSection({ user }: { user: User }) {
  const { t, i18n } = useTranslation('account');
  const usage = usageOf(user);
  const isChild = Boolean(user.parentUid);
  const upgrade = entitlements(user.billingPlan, useEdition()).offersUpgrade;
  const renews = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'long' }).format(renewalDate(user.billingDate));
  const numbers = new Intl.NumberFormat(i18n.language);

  return (
    <SettingsSection title={t('plan.title')}>
      <Stack spacing={1.5}>
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
          <Typography>{t('plan.current')}</Typography>
          <Chip color="primary" label={t(`plan.names.${user.billingPlan}`)} />
          {user.billingCycle && <Typography color="text.secondary">{t(`plan.cycle.${user.billingCycle}`)}</Typography>}
        </Stack>

        {usage.kind === 'unknown' && (
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
            <CircularProgress size={16} aria-label={t('plan.usageLoading')} />
            <Typography color="text.secondary">{t('plan.usageLoading')}</Typography>
          </Stack>
        )}
        {usage.kind === 'unlimited' && (
          <Typography>{t('plan.usageUnlimited', { used: numbers.format(usage.used) })}</Typography>
        )}
        {usage.kind === 'limited' && (
          <>
            <Typography>{t('plan.usage', { used: numbers.format(usage.used), quota: numbers.format(usage.quota) })}</Typography>
            <LinearProgress
              variant="determinate"
              value={usage.percent}
              color={usage.percent >= 90 ? 'warning' : 'primary'}
              aria-label={t('plan.usageLabel')}
              sx={{ maxWidth: 400, height: 8, borderRadius: 4 }}
            />
          </>
        )}
        {usage.kind !== 'unlimited' && <Typography color="text.secondary">{t('plan.renews', { date: renews })}</Typography>}

        {isChild ? (
          <Typography variant="body2" color="text.secondary">{t('plan.askAdmin')}</Typography>
        ) : (
          <Button component={RouterLink} to="/billing" variant="outlined" sx={{ alignSelf: 'flex-start' }}>
            {upgrade ? t('plan.upgrade') : t('plan.manage')}
          </Button>
        )}
      </Stack>
    </SettingsSection>
  );
}
