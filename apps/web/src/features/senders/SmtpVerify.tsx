/**
 * Step 2 for an smtp sender: the live connection test's state (docs/email.md#smtp-senders): pending,
 * verifying, error (the server's own reply, or 'Connection to the SMTP server failed') and verified.
 */
import { useTranslation } from 'react-i18next';
import { Alert, AlertTitle, LinearProgress, Stack, Typography } from '@mui/material';
import type { Sender } from '@sheaf/shared';
import { senderDisplay } from './senderRules.ts';

export type SmtpState = 'pending' | 'verifying' | 'error' | 'verified';

export default function SmtpVerify({ sender, state, error }: { sender: Sender; state: SmtpState; error: string | null }) {
  const { t } = useTranslation('senders');
  const where = senderDisplay(sender).secondary ?? '';
  return (
    <Stack spacing={2} aria-live="polite">
      <Typography>{t('verify.smtpIntro', { email: sender.email, server: where })}</Typography>
      {state === 'pending' && <Alert severity="info">{t('verify.smtpPending')}</Alert>}
      {state === 'verifying' && (
        <Stack spacing={1}>
          <Typography>{t('verify.smtpVerifying', { server: where })}</Typography>
          <LinearProgress aria-label={t('verify.verifying')} />
        </Stack>
      )}
      {state === 'error' && (
        <Alert severity="error" data-testid="smtp-error">
          <AlertTitle>{t('verify.smtpFailed')}</AlertTitle>
          {error}
        </Alert>
      )}
      {state === 'verified' && <Alert severity="success">{t('verify.smtpVerified', { email: sender.email })}</Alert>}
    </Stack>
  );
}
