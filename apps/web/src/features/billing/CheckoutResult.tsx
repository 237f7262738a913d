/**
 * Back from Stripe Checkout (docs/billing.md#the-billing-pages): ?checkout=success shows the success
 * hero once Stripe's webhook has moved the plan (GET /billing is polled meanwhile: api.ts), and
 * ?checkout=cancelled a neutral note. Either can be dismissed, which clears the address.
 */
import { Alert, Box, Button, CircularProgress, Paper, Stack, Typography } from '@mui/material';
import CelebrationIcon from '@mui/icons-material/CelebrationOutlined';
import { Link as RouterLink } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { BillingStatus } from '@sheaf/shared';
import { isSubscriptionPlan } from './planActions.ts';

interface Props {
  result: 'success' | 'cancelled';
  status: BillingStatus | undefined;
  onDismiss: () => void;
}

export default function CheckoutResult({ result, status, onDismiss }: Props) {
  const { t } = useTranslation('billing');
  if (result === 'cancelled') {
    return (
      <Alert severity="info" sx={{ mb: 3 }} onClose={onDismiss} slotProps={{ closeButton: { title: t('actions.close'), 'aria-label': t('actions.close') } }}>
        {t('result.cancelled')}
      </Alert>
    );
  }
  if (!status || status.isUpdatingBillingPlan) {
    return (
      <Paper variant="outlined" sx={{ p: 3, mb: 3 }} role="status">
        <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
          <CircularProgress size={28} aria-hidden />
          <Box>
            <Typography variant="h6" component="h2">{t('result.confirmingTitle')}</Typography>
            <Typography color="text.secondary">{t('result.confirmingText')}</Typography>
          </Box>
        </Stack>
      </Paper>
    );
  }
  if (!isSubscriptionPlan(status.plan)) {
    return (
      <Alert severity="info" sx={{ mb: 3 }} onClose={onDismiss} slotProps={{ closeButton: { title: t('actions.close'), 'aria-label': t('actions.close') } }}>
        {t('result.notYet')}
      </Alert>
    );
  }
  const plan = t(`plan.names.${status.plan}`);
  return (
    <Paper
      variant="outlined"
      component="section"
      aria-labelledby="welcome-title"
      sx={{ p: { xs: 3, sm: 4 }, mb: 4, textAlign: 'center', borderColor: 'primary.main', borderWidth: 2, bgcolor: 'background.paper' }}
    >
      <CelebrationIcon color="primary" sx={{ fontSize: 56 }} aria-hidden />
      <Typography id="welcome-title" variant="h4" component="h2" sx={{ mt: 1 }}>{t('result.welcome', { plan })}</Typography>
      <Typography color="text.secondary" sx={{ mt: 1.5, maxWidth: 560, mx: 'auto' }}>{t('result.welcomeText', { plan })}</Typography>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5} sx={{ mt: 3, justifyContent: 'center' }}>
        <Button component={RouterLink} to="/wizard/new" variant="contained">{t('result.startMerge')}</Button>
        <Button onClick={onDismiss}>{t('actions.close')}</Button>
      </Stack>
    </Paper>
  );
}
