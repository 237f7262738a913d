/**
 * /oauth/callback: where the server's callback sends the browser back from Google, Apple or Microsoft
 * (docs/accounts.md#social-sign-in). The one-time code in the fragment is read once and removed from the
 * address bar, then exchanged for a session (login or register, as the sign-in started); the public-page
 * guard then goes on to the page the person wanted.
 *
 * - Cancelled at the provider (the spec's popup closed): back to the page, nothing said.
 * - The address is a password account's (auth/account-exists-with-different-credential): its message,
 *   and the account's password to link the provider to it.
 * - No account yet, from the login page (oauth/no-account): an offer to create it with the same code.
 * - Anything else: reported, the "authProvider.failure" snackbar, and back to the page with the reason.
 */
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Alert, Box, Button, CircularProgress, Link, TextField, Typography } from '@mui/material';
import { Link as RouterLink, useLocation, useNavigate } from 'react-router';
import { Trans, useTranslation } from 'react-i18next';
import { ApiError } from '../../api/apiError.ts';
import { useNotify } from '../../app/snackbar.tsx';
import { reportError } from '../../app/errorReporting/index.ts';
import { translateFields } from '../../i18n/errors.ts';
import AuthLayout from './AuthLayout.tsx';
import { parseOAuthCallback, translateSignInError, type OAuthCallback } from './oauth.ts';
import { useAuth } from './useAuth.ts';

/** What the login and registration pages show after a failed sign-in with a provider (router state). */
export interface OAuthFailureState {
  oauthError?: { status: number; code: string; message: string; params: Record<string, string | number> };
}

type View = { kind: 'working' } | { kind: 'conflict'; error: ApiError } | { kind: 'noAccount'; error: ApiError };

const CONFLICT = 'auth/account-exists-with-different-credential';

export default function OAuthCallbackPage() {
  const { t, i18n } = useTranslation('auth');
  const location = useLocation();
  const navigate = useNavigate();
  const notify = useNotify();
  const { loginWithProvider, registerWithProvider, linkProvider } = useAuth();
  // Read once: the code leaves the address bar (and the history) right away.
  const [callback] = useState<OAuthCallback>(() => parseOAuthCallback(location.search, location.hash));
  const [view, setView] = useState<View>({ kind: 'working' });
  const [password, setPassword] = useState('');
  const [failure, setFailure] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const started = useRef(false);
  const provider = callback.providerName;
  const back = `/${callback.intent}${callback.next ? `?${new URLSearchParams({ next: callback.next }).toString()}` : ''}`;

  const fail = (error: unknown) => {
    void reportError(error);
    notify('error', t('authProvider.failure', { provider }));
    const details = error instanceof ApiError ? { status: error.status, code: error.code, message: error.message, params: error.params } : undefined;
    void navigate(back, { replace: true, state: details ? ({ oauthError: details } satisfies OAuthFailureState) : null });
  };

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    window.history.replaceState(window.history.state, '', `${location.pathname}${location.search}`);
    const { outcome } = callback;
    if (outcome.kind === 'cancelled') {
      void navigate(back, { replace: true });
      return;
    }
    if (outcome.kind === 'error') {
      fail(outcome.error);
      return;
    }
    const exchange = callback.intent === 'register' ? registerWithProvider : loginWithProvider;
    exchange(outcome.code).catch((error: unknown) => {
      if (error instanceof ApiError && error.code === CONFLICT) {
        notify('error', t('authProvider.failure', { provider }));
        setView({ kind: 'conflict', error });
      } else if (error instanceof ApiError && error.code === 'oauth/no-account') {
        setView({ kind: 'noAccount', error });
      } else {
        fail(error);
      }
    });
    // Runs once for the address it was opened with.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const code = callback.outcome.kind === 'code' ? callback.outcome.code : '';

  const link = async (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    setBusy(true);
    try {
      await linkProvider(code, password);
    } catch (error) {
      setFailure(error);
      setBusy(false);
    }
  };

  const create = async () => {
    setBusy(true);
    try {
      await registerWithProvider(code);
    } catch (error) {
      fail(error);
    }
  };

  const language = i18n.resolvedLanguage ?? 'en';
  const otherWay = (
    <Typography variant="body2" sx={{ mt: 3, textAlign: 'center' }}>
      <Link component={RouterLink} to={back} replace>{t('oauth.otherWay')}</Link>
    </Typography>
  );

  if (view.kind === 'conflict') {
    const fieldErrors = translateFields(failure, t);
    const general = failure && !fieldErrors['password'] ? translateSignInError(failure, t, language) : null;
    const linkable = Number(view.error.params['linkable']) === 1;
    return (
      <AuthLayout title={t('oauth.conflictTitle')}>
        <Alert severity="warning" role="alert">{translateSignInError(view.error, t, language)}</Alert>
        {linkable && (
          <Box component="form" noValidate onSubmit={link} sx={{ display: 'grid', gap: 2, mt: 2 }}>
            <Typography variant="body2">{t('oauth.linkIntro', { provider, email: String(view.error.params['email'] ?? '') })}</Typography>
            <TextField
              label={t('password')}
              type="password"
              autoComplete="current-password"
              required
              autoFocus
              value={password}
              onChange={(event) => setPassword(event.target.value)}
              error={Boolean(fieldErrors['password'])}
              helperText={fieldErrors['password']}
            />
            {general && <Alert severity="error" role="alert">{general}</Alert>}
            <Button type="submit" variant="contained" size="large" disabled={busy || !password}>
              {t('oauth.linkSubmit', { provider })}
            </Button>
          </Box>
        )}
        {otherWay}
      </AuthLayout>
    );
  }

  if (view.kind === 'noAccount') {
    return (
      <AuthLayout title={t('oauth.noAccountTitle')}>
        <Alert severity="info">{translateSignInError(view.error, t, language)}</Alert>
        <Box sx={{ display: 'grid', gap: 2, mt: 2 }}>
          <Typography variant="body2">
            <Trans
              t={t}
              i18nKey="oauth.createTerms"
              components={{
                terms: <Link component={RouterLink} to="/terms" target="_blank" />,
                privacy: <Link component={RouterLink} to="/privacy" target="_blank" />,
              }}
            />
          </Typography>
          <Button variant="contained" size="large" disabled={busy} onClick={() => void create()}>
            {t('oauth.createAccount', { provider })}
          </Button>
        </Box>
        {otherWay}
      </AuthLayout>
    );
  }

  return (
    <AuthLayout title={t('oauth.signingIn', { provider })}>
      <Box sx={{ display: 'flex', justifyContent: 'center', py: 3 }} role="status" aria-live="polite">
        <CircularProgress aria-label={t('oauth.signingIn', { provider })} />
      </Box>
    </AuthLayout>
  );
}
