/**
 * Sends the first selected row's message to the user (docs/email.md#test-email): refused on the client
 * with 'Sending test email not available due to unverified sender.' when the sender is not verified.
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button, CircularProgress } from '@mui/material';
import SendOutlinedIcon from '@mui/icons-material/SendOutlined';
import { api } from '../../api/client.ts';
import { useAppSelector } from '../../app/hooks.ts';
import { useNotify } from '../../app/snackbar.tsx';
import { translateCode, translateError } from '../../i18n/errors.ts';
import { useSenders } from '../senders/useSenders.ts';
import { useSaveEmail } from './useEmailSettings.ts';

export default function TestEmailButton({ disabled, rowNumber }: { disabled: boolean; rowNumber?: number }) {
  const { t } = useTranslation(['email', 'errors']);
  const notify = useNotify();
  const save = useSaveEmail();
  const senders = useSenders();
  const templateId = useAppSelector((state) => state.email.templateId);
  const senderId = useAppSelector((state) => state.email.settings.senderId);
  const [busy, setBusy] = useState(false);

  async function send() {
    if (!templateId) return;
    const sender = senders.data?.find((item) => item.id === senderId);
    if (!sender) {
      notify('error', translateCode('email/no-sender', undefined, t));
      return;
    }
    if (!sender.isVerified) {
      notify('error', translateCode('email/test-unverified', undefined, t));
      return;
    }
    setBusy(true);
    try {
      if (!(await save())) return;
      const result = await api.call('testEmail', { params: { id: templateId }, body: rowNumber ? { rowNumber } : {} });
      notify('success', translateCode('email/test-sent', { to: result.to }, t));
    } catch (error) {
      notify('error', `${t('test.failure')} ${translateError(error, t)}`);
    } finally {
      setBusy(false);
    }
  }

  return (
    <Button variant="outlined" startIcon={busy ? <CircularProgress size={16} /> : <SendOutlinedIcon />} disabled={disabled || busy} onClick={() => void send()}>
      {t('test.button')}
    </Button>
  );
}
