/**
 * Step 2 for a spoof sender: the 4-digit code mailed to the user's real address, submitted by
 * itself as soon as the fourth digit is typed (docs/email.md#spoof-senders).
 */
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert, CircularProgress, Stack, TextField, Typography } from '@mui/material';
import { VERIFICATION_CODE_LENGTH, type Sender } from '@sheaf/shared';
import { translateCode } from '../../i18n/errors.ts';
import { senderLabel } from './senderRules.ts';

interface Props {
  sender: Sender;
  code: string;
  onCodeChange: (code: string) => void;
  /** Called with a complete code (auto-submit). */
  onSubmit: (code: string) => void;
  error: string | null;
  busy: boolean;
  mailOutbox: boolean;
}

export default function SpoofVerify({ sender, code, onCodeChange, onSubmit, error, busy, mailOutbox }: Props) {
  const { t } = useTranslation(['senders', 'errors']);
  const input = useRef<HTMLInputElement>(null);
  // After a wrong code the field is emptied: put the cursor back for the next try.
  useEffect(() => {
    if (!busy && code === '') input.current?.focus();
  }, [busy, code]);

  if (sender.isVerified) {
    return <Alert severity="success">{t('verify.verified', { sender: senderLabel(sender) })}</Alert>;
  }
  return (
    <Stack spacing={2}>
      <Typography>{translateCode('sender/code-sent', { email: sender.email }, t)} {t('verify.spoofEnter', { count: VERIFICATION_CODE_LENGTH })}</Typography>
      {mailOutbox && <Alert severity="info">{t('verify.outbox')}</Alert>}
      <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
        <TextField
          label={t('verify.code')}
          value={code}
          inputRef={input}
          autoFocus
          disabled={busy}
          error={error !== null}
          helperText={error ?? ' '}
          onChange={(event) => {
            const digits = event.target.value.replace(/\D/g, '').slice(0, VERIFICATION_CODE_LENGTH);
            onCodeChange(digits);
            if (digits.length === VERIFICATION_CODE_LENGTH) onSubmit(digits);
          }}
          slotProps={{
            htmlInput: {
              inputMode: 'numeric', autoComplete: 'one-time-code', maxLength: VERIFICATION_CODE_LENGTH, pattern: '[0-9]*',
              style: { letterSpacing: '0.6em', fontSize: 24, textAlign: 'center', fontFamily: 'monospace' }, 'data-testid': 'sender-code',
            },
          }}
          sx={{ width: 180 }}
        />
        {busy && <CircularProgress size={24} aria-label={t('verify.verifying')} />}
      </Stack>
    </Stack>
  );
}
