import { useState, type FormEvent } from 'react';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { isValidEmail, type User } from '@sheaf/shared';
import { changeEmailMutation } from './api.ts';
import SettingsSection from './SettingsSection.tsx';
import { useAccountSubmit } from './useAccountSubmit.ts';

/** Changing the sign-in address needs the current password. */
export default function EmailSection({ user }: { user: User }) {
  const { t } = useTranslation('account');
  const { mutateAsync: changeEmail } = useMutation(changeEmailMutation(useQueryClient()));
  const { busy, serverErrors, submit, clearServerError } = useAccountSubmit();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [checked, setChecked] = useState(false);

  const errors: Record<string, string> = { ...serverErrors };
  if (checked && !email.trim()) errors.email = t('email.required');
  else if (checked && !isValidEmail(email)) errors.email = t('email.invalid');
  else if (checked && email.trim().toLowerCase() === user.email) errors.email = t('email.same');
  if (checked && !password) errors.password = t('email.passwordRequired');

  const save = async (event: FormEvent) => {
    event.preventDefault();
    setChecked(true);
    const valid = isValidEmail(email) && email.trim().toLowerCase() !== user.email && password;
    if (!valid) return;
    await submit(() => changeEmail({ email, password }), {
      success: t('email.success'),
      failure: t('email.failure'),
      codeFields: { 'auth/wrong-password': 'password', 'auth/invalid-credentials': 'password', 'auth/email-already-in-use': 'email', 'auth/email-invalid': 'email' },
      onSuccess: () => {
        setEmail('');
        setPassword('');
        setChecked(false);
      },
    });
  };

  return (
    <SettingsSection title={t('email.title')}>
      <Typography variant="body2" sx={{ mb: 2 }}>
        {t('email.current')} <strong>{user.email}</strong>
      </Typography>
      <Stack component="form" noValidate onSubmit={save} spacing={2}>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
          <TextField
            fullWidth
            type="email"
            label={t('email.newEmail')}
            autoComplete="email"
            value={email}
            onChange={(event) => {
              setEmail(event.target.value);
              clearServerError('email');
            }}
            error={Boolean(errors.email)}
            helperText={errors.email}
          />
          <TextField
            fullWidth
            type="password"
            label={t('email.password')}
            autoComplete="current-password"
            value={password}
            onChange={(event) => {
              setPassword(event.target.value);
              clearServerError('password');
            }}
            error={Boolean(errors.password)}
            helperText={errors.password}
          />
        </Stack>
        <Button type="submit" variant="contained" disabled={busy} loading={busy} sx={{ alignSelf: 'flex-start' }}>
          {t('email.submit')}
        </Button>
      </Stack>
    </SettingsSection>
  );
}
