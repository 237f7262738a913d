/** The plans could not be loaded (/billing, /offline): the error in the user's language and a retry. */
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import { useTranslation } from 'react-i18next';
import { translateError } from '../../i18n/errors.ts';

export default function PlansLoadFailed({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  const { t } = useTranslation(['billing', 'errors']);
  return (
    <Alert severity="error" action={<Button color="inherit" onClick={onRetry}>{t('billing:actions.retry')}</Button>}>
      {translateError(error, t)}
    </Alert>
  );
}
