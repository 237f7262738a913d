/** /login: work email and password (both required), links to reset and register, social buttons. */
import { useState, type FormEvent } from 'react';
import { Alert, Box, Button, Link, TextField, Typography } from '@mui/material';
import { Link as RouterLink, useLocation } from 'react-router';
import { useTranslation } from 'react-i18next';
import { isValidEmail } from '@sheaf/shared';
import { ApiError } from '../../api/apiError.ts';
import AuthLayout from './AuthLayout.tsx';
import SocialButtons from './SocialButtons.tsx';
import { afterSignIn } from './afterSignIn.ts';
import { oauthFailureOf, translateSignInError } from './oauth.ts';
import { formErrors, type FormErrors } from './formErrors.ts';
import { useAuth } from './useAuth.ts';

const NO_ERRORS: FormErrors = { fields: {}, general: null };
const GENERAL_CODES = ['auth/invalid-credentials', 'generic/too-many-attempts', 'auth/account-disabled'] as const;
/** An account made through Google, Apple or Microsoft: "Please use Google to sign in." (spec section 8). */
const OTHER_METHOD = 'pdfmm/unsupported-sign-in-method';

export default function LoginPage() {
  const { t, i18n } = useTranslation('auth');
  const { login } = useAuth();
  const location = useLocation();
  // A sign-in with a provider that failed comes back here with its reason.
  const oauthFailure = oauthFailureOf(location.state);
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  // Keys and the failed call are kept, not texts, so a language switch re-translates the messages.
  const [checks, setChecks] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const found: Record<string, string> = {};
    if (!email.trim()) found.email = 'validation.emailRequired';
    else if (!isValidEmail(email)) found.email = 'validation.emailInvalid';
    if (!password) found.password = 'validation.passwordRequired';
    setChecks(found);
    setFailure(null);
    if (Object.keys(found).length > 0) return;
    setBusy(true);
    try {
      await login(email, password);
      // The public-route guard now sends the user to the page they wanted.
    } catch (error) {
      setFailure(error);
      setBusy(false);
    }
  };
  const server = failure ? formErrors(failure, t, { knownGeneral: GENERAL_CODES, fallbackCode: 'generic/something-wrong' }) : NO_ERRORS;
  // pdfmm/ codes: only the unsupported sign-in method says something (the account's methods), the others nothing.
  const pdfmm = failure instanceof ApiError && failure.code.startsWith('pdfmm/');
  const general = pdfmm ? (failure.code === OTHER_METHOD ? translateSignInError(failure, t, i18n.resolvedLanguage ?? 'en') : null) : server.general;
  const errors: FormErrors = { fields: { ...server.fields, ...Object.fromEntries(Object.entries(checks).map(([field, key]) => [field, t(key)])) }, general };
  const next = afterSignIn((location.state as { from?: string } | null)?.from, new URLSearchParams(location.search));

  return (
    <AuthLayout title={t('login.title')}>
      {oauthFailure && <Alert severity="error" sx={{ mb: 1 }}>{translateSignInError(oauthFailure, t, i18n.resolvedLanguage ?? 'en')}</Alert>}
      <Box component="form" noValidate onSubmit={submit} sx={{ display: 'grid', gap: 2, mt: 1 }}>
        <TextField
          label={t('workEmail')}
          type="email"
          autoComplete="email"
          required
          autoFocus
          value={email}
          onChange={(event) => setEmail(event.target.value)}
          error={Boolean(errors.fields.email)}
          helperText={errors.fields.email}
        />
        <TextField
          label={t('password')}
          type="password"
          autoComplete="current-password"
          required
          value={password}
          onChange={(event) => setPassword(event.target.value)}
          error={Boolean(errors.fields.password)}
          helperText={errors.fields.password}
        />
        <Box sx={{ textAlign: 'right', mt: -1 }}>
          <Link component={RouterLink} to="/resetPassword" variant="body2">
            {t('login.forgotPassword')}
          </Link>
        </Box>
        {errors.general && <Alert severity="error" role="alert">{errors.general}</Alert>}
        <Button type="submit" variant="contained" size="large" disabled={busy}>
          {t('login.submit')}
        </Button>
      </Box>
      <SocialButtons intent="login" next={next} />
      <Typography variant="body2" sx={{ mt: 3, textAlign: 'center' }}>
        {t('login.noAccount')}{' '}
        <Link component={RouterLink} to={{ pathname: '/register', search: location.search }}>
          {t('login.register')}
        </Link>
      </Typography>
    </AuthLayout>
  );
}
