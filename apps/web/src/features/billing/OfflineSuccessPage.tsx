/**
 * /offline/success (docs/billing.md#the-billing-pages): Stripe's embedded checkout returns here with
 * ?sessionId=. No id: back to /offline. Otherwise a spinner, the check SESSION_CHECK_DELAY_MS later
 * (GET /sessionStatus), then the thank-you for a complete and paid session, and one neutral
 * explanation for everything else (a session that is not this visitor's included).
 */
import { Box, Button, CircularProgress, Paper, Typography } from '@mui/material';
import CheckCircleIcon from '@mui/icons-material/CheckCircleOutlined';
import InfoIcon from '@mui/icons-material/InfoOutlined';
import { useQuery } from '@tanstack/react-query';
import { Link as RouterLink, Navigate, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useIsSignedIn } from '../auth/useAuth.ts';
import { sessionStatusQuery } from './api.ts';
import { sessionIdFrom, successView, useSessionCheckDelay } from './offlineSession.ts';

export default function OfflineSuccessPage() {
  const [search] = useSearchParams();
  const sessionId = sessionIdFrom(search);
  if (!sessionId) return <Navigate to="/offline" replace />;
  return <SessionCheck sessionId={sessionId} />;
}

function SessionCheck({ sessionId }: { sessionId: string }) {
  const { t } = useTranslation('billing');
  const signedIn = useIsSignedIn();
  const due = useSessionCheckDelay();
  const check = useQuery({ ...sessionStatusQuery(sessionId), enabled: due });
  const view = successView({ waiting: !due || check.isPending, data: check.data, failed: check.isError });

  return (
    <Box sx={{ maxWidth: 640, mx: 'auto', mt: { xs: 2, sm: 6 } }}>
      <Paper variant="outlined" sx={{ p: { xs: 3, sm: 5 }, textAlign: 'center' }}>
        {view === 'checking' && (
          <Box role="status" sx={{ py: 4 }}>
            <CircularProgress aria-hidden />
            <Typography variant="h5" component="h1" sx={{ mt: 2 }}>{t('success.checking')}</Typography>
          </Box>
        )}
        {view === 'paid' && (
          <>
            <CheckCircleIcon color="success" sx={{ fontSize: 64 }} aria-hidden />
            <Typography variant="h4" component="h1" sx={{ mt: 1 }}>{t('success.title')}</Typography>
            <Typography color="text.secondary" sx={{ mt: 2 }}>{t('success.keyByEmail')}</Typography>
            {signedIn && <Typography color="text.secondary" sx={{ mt: 1 }}>{t('success.onAccountPage')}</Typography>}
            <Button component={RouterLink} to="/" variant="contained" sx={{ mt: 3 }}>{t('success.home')}</Button>
          </>
        )}
        {view === 'notPaid' && (
          <>
            <InfoIcon color="primary" sx={{ fontSize: 64 }} aria-hidden />
            <Typography variant="h4" component="h1" sx={{ mt: 1 }}>{t('success.notPaidTitle')}</Typography>
            <Typography color="text.secondary" sx={{ mt: 2 }}>{t('success.notPaidText')}</Typography>
            <Button component={RouterLink} to="/offline" variant="contained" sx={{ mt: 3 }}>{t('success.back')}</Button>
          </>
        )}
      </Paper>
    </Box>
  );
}
