/**
 * An account made through Google, Apple or Microsoft has no password, and changing the email or the
 * password and deleting the account ask for one (docs/accounts.md#social-sign-in): this offers the
 * reset link, which sets a first password the same way it replaces a forgotten one.
 */
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Button from '@mui/material/Button';
import { useTranslation } from 'react-i18next';
import type { User } from '@sheaf/shared';
import { api } from '../../api/client.ts';
import { useAccountSubmit } from './useAccountSubmit.ts';

export default function NoPasswordNotice({ user }: { user: User }) {
  const { t, i18n } = useTranslation('account');
  const { busy, submit } = useAccountSubmit();
  if (user.hasPassword) return null;
  const send = () =>
    submit(() => api.call('resetPassword', { body: { email: user.email, language: i18n.resolvedLanguage as User['language'] } }), {
      success: t('noPassword.sent', { email: user.email }),
      failure: t('noPassword.failed'),
    });
  return (
    <Alert
      severity="info"
      action={<Button color="inherit" size="small" disabled={busy} onClick={() => void send()}>{t('noPassword.send')}</Button>}
    >
      <AlertTitle>{t('noPassword.title')}</AlertTitle>
      {t('noPassword.text', { email: user.email })}
    </Alert>
  );
}
