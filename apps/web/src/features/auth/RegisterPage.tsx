/**
 * /register: first and last name, optional company, work email, password twice and the terms.
 * Nothing is sent until the client checks pass; server field codes show under their fields.
 */
import { useState, type FormEvent } from 'react';
import { Alert, Box, Button, Checkbox, FormControlLabel, FormHelperText, Link, TextField, Typography } from '@mui/material';
import { Link as RouterLink, useLocation } from 'react-router';
import { Trans, useTranslation } from 'react-i18next';
import { ApiError } from '../../api/client.ts';
import AuthLayout from './AuthLayout.tsx';
import SocialButtons from './SocialButtons.tsx';
import { afterSignIn } from './afterSignIn.ts';
import { oauthFailureOf, translateSignInError } from './oauth.ts';
import { formErrors } from './formErrors.ts';
import { validateRegistration, type RegistrationField, type RegistrationValues } from './registerValidation.ts';
import { useAuth } from './useAuth.ts';

const EMPTY: RegistrationValues = { firstName: '', lastName: '', company: '', email: '', password: '', confirmPassword: '', acceptTerms: false };
const GENERAL_CODES = ['generic/too-many-attempts', 'auth/email-already-in-use'] as const;

const TEXT_FIELDS: { name: Exclude<RegistrationField, 'acceptTerms'>; type?: string; autoComplete: string; required: boolean }[] = [
  { name: 'firstName', autoComplete: 'given-name', required: true },
  { name: 'lastName', autoComplete: 'family-name', required: true },
  { name: 'company', autoComplete: 'organization', required: false },
  { name: 'email', type: 'email', autoComplete: 'email', required: true },
  { name: 'password', type: 'password', autoComplete: 'new-password', required: true },
  { name: 'confirmPassword', type: 'password', autoComplete: 'new-password', required: true },
];

export default function RegisterPage() {
  const { t, i18n } = useTranslation('auth');
  const { register } = useAuth();
  const location = useLocation();
  // A sign-up with a provider that failed comes back here with its reason.
  const oauthFailure = oauthFailureOf(location.state);
  const [values, setValues] = useState<RegistrationValues>(EMPTY);
  // Keys and the failed call are kept, not texts, so a language switch re-translates the messages.
  const [checks, setChecks] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const found = validateRegistration(values);
    setChecks(found as Record<string, string>);
    setFailure(null);
    if (Object.keys(found).length > 0) return;
    setBusy(true);
    try {
      const { acceptTerms: _accepted, company, ...rest } = values;
      await register({ ...rest, company: company.trim() || undefined });
      // The public-route guard sends the user on: /billing with ?plan=, else home.
    } catch (error) {
      setFailure(error);
      setBusy(false);
    }
  };
  const server = failure ? formErrors(failure, t, { knownGeneral: GENERAL_CODES, fallbackCode: 'generic/technical-error' }) : null;
  // A taken address in this form's own words (docs/accounts.md#sign-up), under the email field.
  const emailTaken = failure instanceof ApiError && (failure.fields.email ?? failure.code) === 'auth/email-already-in-use';
  const fieldErrors: Partial<Record<string, string>> = {
    ...server?.fields,
    ...(emailTaken ? { email: t('validation.emailInUse') } : {}),
    ...Object.fromEntries(Object.entries(checks).map(([field, key]) => [field, t(key)])),
  };
  const general = emailTaken ? null : (server?.general ?? null);

  const linkSx = { fontWeight: 600 };
  return (
    <AuthLayout title={t('register.title')}>
      {oauthFailure && <Alert severity="error" sx={{ mb: 1 }}>{translateSignInError(oauthFailure, t, i18n.resolvedLanguage ?? 'en')}</Alert>}
      <Box component="form" noValidate onSubmit={submit} sx={{ display: 'grid', gap: 2, mt: 1, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' } }}>
        {TEXT_FIELDS.map((field) => (
          <TextField
            key={field.name}
            name={field.name}
            label={t(`register.fields.${field.name}`)}
            type={field.type ?? 'text'}
            autoComplete={field.autoComplete}
            required={field.required}
            value={values[field.name]}
            onChange={(event) => setValues((current) => ({ ...current, [field.name]: event.target.value }))}
            error={Boolean(fieldErrors[field.name])}
            helperText={fieldErrors[field.name]}
            sx={field.name === 'firstName' || field.name === 'lastName' ? undefined : { gridColumn: '1 / -1' }}
          />
        ))}
        <Box sx={{ gridColumn: '1 / -1' }}>
          <FormControlLabel
            control={
              <Checkbox
                checked={values.acceptTerms}
                onChange={(event) => setValues((current) => ({ ...current, acceptTerms: event.target.checked }))}
              />
            }
            label={
              <Trans
                t={t}
                i18nKey="register.acceptTerms"
                components={{
                  terms: <Link component={RouterLink} to="/terms" target="_blank" sx={linkSx} />,
                  privacy: <Link component={RouterLink} to="/privacy" target="_blank" sx={linkSx} />,
                }}
              />
            }
          />
          {fieldErrors.acceptTerms && <FormHelperText error>{fieldErrors.acceptTerms}</FormHelperText>}
        </Box>
        {general && <Alert severity="error" role="alert" sx={{ gridColumn: '1 / -1' }}>{general}</Alert>}
        <Button type="submit" variant="contained" size="large" disabled={busy} sx={{ gridColumn: '1 / -1' }}>
          {t('register.submit')}
        </Button>
      </Box>
      {/* After sign-up: the ?plan= or ?next= page, as for the form (afterSignIn). */}
      <SocialButtons intent="register" next={afterSignIn(undefined, new URLSearchParams(location.search))} />
      <Typography variant="body2" sx={{ mt: 3, textAlign: 'center' }}>
        {t('register.haveAccount')}{' '}
        <Link component={RouterLink} to={{ pathname: '/login', search: location.search }}>
          {t('register.login')}
        </Link>
      </Typography>
    </AuthLayout>
  );
}
