/**
 * /resetPassword: asks for the email and sends a reset link; opened from that link (?token=) it sets
 * the new password instead.
 */
import { useState, type FormEvent } from 'react';
import { Alert, Box, Button, Link, TextField, Typography } from '@mui/material';
import { Link as RouterLink, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { accountPasswordProblem, isValidEmail } from '@sheaf/shared';
import { api } from '../../api/client.ts';
import { currentLanguage } from '../../i18n/index.ts';
import { translateCode } from '../../i18n/errors.ts';
import AuthLayout from './AuthLayout.tsx';
import { formErrors, type FormErrors } from './formErrors.ts';

const NO_ERRORS: FormErrors = { fields: {}, general: null };
const GENERAL_CODES = ['generic/too-many-attempts', 'auth/reset-link-invalid', 'auth/weak-password'] as const;

function RequestLink() {
  const { t } = useTranslation('auth');
  const [email, setEmail] = useState('');
  const [busy, setBusy] = useState(false);
  const [sent, setSent] = useState(false);
  const [errors, setErrors] = useState<FormErrors>(NO_ERRORS);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!isValidEmail(email)) {
      setErrors({ fields: { email: t('validation.emailInvalid') }, general: null });
      return;
    }
    setErrors(NO_ERRORS);
    setBusy(true);
    try {
      await api.call('resetPassword', { body: { email, language: currentLanguage() } });
      setSent(true);
    } catch (error) {
      setErrors(formErrors(error, t, { knownGeneral: GENERAL_CODES, fallbackCode: 'generic/something-wrong' }));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Box component="form" noValidate onSubmit={submit} sx={{ display: 'grid', gap: 2, mt: 1 }}>
      <Typography variant="body2" color="text.secondary">{t('reset.intro')}</Typography>
      <TextField
        label={t('workEmail')}
        type="email"
        autoComplete="email"
        required
        autoFocus
        value={email}
        onChange={(event) => {
          setEmail(event.target.value);
          setSent(false);
        }}
        error={Boolean(errors.fields.email)}
        helperText={errors.fields.email}
      />
      {sent && <Alert severity="success" role="status">{translateCode('auth/reset-email-sent', undefined, t)}</Alert>}
      {errors.general && <Alert severity="error" role="alert">{errors.general}</Alert>}
      <Button type="submit" variant="contained" size="large" disabled={!email.trim() || busy}>
        {t('reset.submit')}
      </Button>
    </Box>
  );
}

function ChooseNewPassword({ token }: { token: string }) {
  const { t } = useTranslation('auth');
  const [password, setPassword] = useState('');
  const [confirmPassword, setConfirmPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState(false);
  const [errors, setErrors] = useState<FormErrors>(NO_ERRORS);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const fields: Record<string, string> = {};
    // The server's rule (the address is not known here; the server checks that part).
    const problem = accountPasswordProblem(password, '');
    if (problem === 'common') fields.password = t('validation.passwordCommon');
    else if (problem) fields.password = t('validation.passwordTooShort');
    if (confirmPassword !== password) fields.confirmPassword = t('validation.passwordsDoNotMatch');
    setErrors({ fields, general: null });
    if (Object.keys(fields).length > 0) return;
    setBusy(true);
    try {
      await api.call('resetPasswordConfirm', { body: { token, password, confirmPassword } });
      setDone(true);
    } catch (error) {
      setErrors(formErrors(error, t, { knownGeneral: GENERAL_CODES, fallbackCode: 'generic/something-wrong' }));
    } finally {
      setBusy(false);
    }
  };

  if (done) {
    return (
      <Box sx={{ display: 'grid', gap: 2, mt: 1 }}>
        <Alert severity="success" role="status">{translateCode('auth/password-reset-done', undefined, t)}</Alert>
        <Button component={RouterLink} to="/login" variant="contained" size="large">{t('reset.toLogin')}</Button>
      </Box>
    );
  }
  return (
    <Box component="form" noValidate onSubmit={submit} sx={{ display: 'grid', gap: 2, mt: 1 }}>
      <TextField
        label={t('reset.newPassword')}
        type="password"
        autoComplete="new-password"
        required
        autoFocus
        value={password}
        onChange={(event) => setPassword(event.target.value)}
        error={Boolean(errors.fields.password)}
        helperText={errors.fields.password}
      />
      <TextField
        label={t('register.fields.confirmPassword')}
        type="password"
        autoComplete="new-password"
        required
        value={confirmPassword}
        onChange={(event) => setConfirmPassword(event.target.value)}
        error={Boolean(errors.fields.confirmPassword)}
        helperText={errors.fields.confirmPassword}
      />
      {errors.general && <Alert severity="error" role="alert">{errors.general}</Alert>}
      <Button type="submit" variant="contained" size="large" disabled={!password || busy}>
        {t('reset.setPassword')}
      </Button>
    </Box>
  );
}

export default function ResetPasswordPage() {
  const { t } = useTranslation('auth');
  const [search] = useSearchParams();
  const token = search.get('token');
  return (
    <AuthLayout title={token ? t('reset.newPasswordTitle') : t('reset.title')}>
      {token ? <ChooseNewPassword token={token} /> : <RequestLink />}
      <Box sx={{ display: 'flex', justifyContent: 'space-between', mt: 3, gap: 2, flexWrap: 'wrap' }}>
        <Link component={RouterLink} to="/login" variant="body2">{t('reset.backToLogin')}</Link>
        <Link component={RouterLink} to="/register" variant="body2">{t('reset.createAccount')}</Link>
      </Box>
    </AuthLayout>
  );
}
