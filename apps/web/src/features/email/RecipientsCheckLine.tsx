/**
 * The recipients check (docs/email.md#recipients): how many valid addresses the chosen column holds, a
 * warning with examples when some are not valid, an error when none is.
 */
import { useTranslation } from 'react-i18next';
import { Alert, AlertTitle, CircularProgress, Stack, Typography } from '@mui/material';
import { translateCode, translateError } from '../../i18n/errors.ts';
import { useRecipientsCheck } from './useEmailSettings.ts';

export default function RecipientsCheckLine({ enabled }: { enabled: boolean }) {
  const { t, i18n } = useTranslation(['email', 'errors']);
  const check = useRecipientsCheck(enabled);
  const number = (value: number) => value.toLocaleString(i18n.language);
  if (!enabled) return null;
  if (check.isPending && check.fetchStatus === 'idle') return null;
  if (check.isPending) {
    return (
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }} data-testid="recipients-check">
        <CircularProgress size={16} />
        <Typography variant="body2">{t('recipients.checking')}</Typography>
      </Stack>
    );
  }
  if (check.isError) return <Alert severity="error" data-testid="recipients-check">{translateError(check.error, t)}</Alert>;
  const { valid, invalid, invalidExamples } = check.data;
  if (valid === 0) return <Alert severity="error" data-testid="recipients-check">{translateCode('email/no-valid-recipients', undefined, t)}</Alert>;
  if (invalid > 0) {
    return (
      <Alert severity="warning" data-testid="recipients-check">
        <AlertTitle>{t('recipients.valid', { count: valid, formatted: number(valid) })}</AlertTitle>
        {t('recipients.invalid', { count: invalid, formatted: number(invalid) })}
        {invalidExamples.length > 0 && (
          <Typography variant="body2" component="ul" sx={{ m: 0, mt: 0.5, pl: 2 }}>
            {invalidExamples.slice(0, 5).map((example) => (
              <li key={`${example.rowNumber}-${example.value}`}>{t('recipients.example', { row: example.rowNumber, value: example.value || t('recipients.emptyCell') })}</li>
            ))}
          </Typography>
        )}
      </Alert>
    );
  }
  return <Alert severity="success" data-testid="recipients-check">{t('recipients.valid', { count: valid, formatted: number(valid) })}</Alert>;
}
