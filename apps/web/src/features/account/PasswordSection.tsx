import { useState, type FormEvent } from 'react';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useTranslation } from 'react-i18next';
import { MIN_PASSWORD_LENGTH } from '@sheaf/shared';
import { api } from '../../api/client.ts';
import { translateCode } from '../../i18n/errors.ts';
import { useCurrentUser } from '../auth/useCurrentUser.ts';
import { passwordChangeProblems } from './passwordChange.ts';
import SettingsSection from './SettingsSection.tsx';
import { useAccountSubmit } from './useAccountSubmit.ts';

const EMPTY = { currentPassword: '', password: '', confirmPassword: '' };
type Field = keyof typeof EMPTY;

/** Password change; the server signs out other sessions and answers with a new one for this tab. */
export default function PasswordSection() {
  const { t } = useTranslation('account');
  const { busy, serverErrors, submit, clearServerError } = useAccountSubmit();
  const [values, setValues] = useState(EMPTY);
  const [checked, setChecked] = useState(false);
  const email = useCurrentUser().data?.email ?? '';
  const problems = passwordChangeProblems(values, email);

  const errors: Record<string, string> = { ...serverErrors };
  if (checked) {
    if (problems.currentPassword) errors.currentPassword = t('password.currentRequired');
    if (problems.password === 'tooShort') errors.password = t('password.tooShort', { min: MIN_PASSWORD_LENGTH });
    // The server refuses the most common passwords and the address itself: say so before sending.
    if (problems.password === 'weak') errors.password = translateCode('auth/weak-password', undefined, t);
    if (problems.confirmPassword) errors.confirmPassword = t('password.mismatch');
  }

  const save = async (event: FormEvent) => {
    event.preventDefault();
    setChecked(true);
    if (Object.keys(problems).length > 0) return;
    await submit(() => api.call('changePassword', { body: values }), {
      success: t('password.success'),
      failure: t('password.failure'),
      codeFields: {
        'auth/wrong-password': 'currentPassword',
        'auth/invalid-credentials': 'currentPassword',
        'auth/weak-password': 'password',
        'auth/passwords-must-match': 'confirmPassword',
      },
      onSuccess: (session) => {
        // Other sessions (and this tab's old refresh token) were revoked: keep the new pair.
        api.session.set(session.token, session.refreshToken);
        setValues(EMPTY);
        setChecked(false);
      },
    });
  };

  const field = (name: Field, label: string, autoComplete: string) => (
    <TextField
      fullWidth
      type="password"
      label={label}
      autoComplete={autoComplete}
      value={values[name]}
      onChange={(event) => {
        setValues((current) => ({ ...current, [name]: event.target.value }));
        clearServerError(name);
      }}
      error={Boolean(errors[name])}
      helperText={errors[name]}
    />
  );

  return (
    <SettingsSection title={t('password.title')}>
      <Stack component="form" noValidate onSubmit={save} spacing={2}>
        {field('currentPassword', t('password.current'), 'current-password')}
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
          {field('password', t('password.new'), 'new-password')}
          {field('confirmPassword', t('password.confirm'), 'new-password')}
        </Stack>
        <Button type="submit" variant="contained" disabled={busy} loading={busy} sx={{ alignSelf: 'flex-start' }}>
          {t('password.submit')}
        </Button>
      </Stack>
    </SettingsSection>
  );
}
