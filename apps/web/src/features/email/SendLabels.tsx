/**
 * Step 4's main button while email is on: "Send to N recipients" (N: the valid addresses of the
 * recipients check when every row is selected, else the documents to make) and what a click does.
 */
import { useTranslation } from 'react-i18next';
import { Typography } from '@mui/material';
import { useAppSelector } from '../../app/hooks.ts';
import { recipientsToSend } from './emailRules.ts';
import { useRecipientsCheck } from './useEmailSettings.ts';

function useRecipientCount(documents: number): number {
  const check = useRecipientsCheck(true);
  const allRows = useAppSelector((state) => state.wizard.rowSelection.mode === 'all');
  return recipientsToSend(documents, allRows, check.data);
}

export function SendButtonLabel({ count }: { count: number }) {
  const { t, i18n } = useTranslation('email');
  const recipients = useRecipientCount(count);
  return <>{t('send.button', { count: recipients, formatted: recipients.toLocaleString(i18n.language) })}</>;
}

export function SendHelperText({ count }: { count: number }) {
  const { t, i18n } = useTranslation('email');
  const column = useAppSelector((state) => state.email.settings.recipientsColumn);
  if (!column) return null;
  return (
    <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }} data-testid="send-helper">
      {t('send.helper', { count, formatted: count.toLocaleString(i18n.language), column })}
    </Typography>
  );
}
