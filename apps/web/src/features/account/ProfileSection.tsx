import { useState, type FormEvent } from 'react';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { User } from '@sheaf/shared';
import { updateMeMutation } from './api.ts';
import SettingsSection from './SettingsSection.tsx';
import { useAccountSubmit } from './useAccountSubmit.ts';

/** First name, last name and company (updateMe). */
export default function ProfileSection({ user }: { user: User }) {
  const { t } = useTranslation('account');
  const { mutateAsync: updateMe } = useMutation(updateMeMutation(useQueryClient()));
  const { busy, serverErrors, submit, clearServerError } = useAccountSubmit();
  const [values, setValues] = useState({ firstName: user.firstName, lastName: user.lastName, company: user.company });
  const [touched, setTouched] = useState(false);

  const trimmed = { firstName: values.firstName.trim(), lastName: values.lastName.trim(), company: values.company.trim() };
  const errors: Record<string, string> = { ...serverErrors };
  if (touched && !trimmed.firstName) errors.firstName = t('profile.firstNameRequired');
  if (touched && !trimmed.lastName) errors.lastName = t('profile.lastNameRequired');
  const unchanged = trimmed.firstName === user.firstName && trimmed.lastName === user.lastName && trimmed.company === user.company;

  const change = (field: keyof typeof values) => (event: React.ChangeEvent<HTMLInputElement>) => {
    setValues((current) => ({ ...current, [field]: event.target.value }));
    clearServerError(field);
  };

  const save = async (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (!trimmed.firstName || !trimmed.lastName || unchanged) return;
    await submit(() => updateMe(trimmed), {
      success: t('profile.success'),
      failure: t('profile.failure'),
      onSuccess: (updated) => {
        setValues({ firstName: updated.firstName, lastName: updated.lastName, company: updated.company });
        setTouched(false);
      },
    });
  };

  return (
    <SettingsSection title={t('profile.title')}>
      <Stack component="form" noValidate onSubmit={save} spacing={2}>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
          <TextField
            fullWidth
            required
            label={t('profile.firstName')}
            autoComplete="given-name"
            value={values.firstName}
            onChange={change('firstName')}
            error={Boolean(errors.firstName)}
            helperText={errors.firstName}
            slotProps={{ htmlInput: { maxLength: 100 } }}
          />
          <TextField
            fullWidth
            required
            label={t('profile.lastName')}
            autoComplete="family-name"
            value={values.lastName}
            onChange={change('lastName')}
            error={Boolean(errors.lastName)}
            helperText={errors.lastName}
            slotProps={{ htmlInput: { maxLength: 100 } }}
          />
        </Stack>
        <TextField
          fullWidth
          label={t('profile.company')}
          autoComplete="organization"
          value={values.company}
          onChange={change('company')}
          error={Boolean(errors.company)}
          helperText={errors.company}
          slotProps={{ htmlInput: { maxLength: 200 } }}
        />
        <Button type="submit" variant="contained" disabled={unchanged || busy} loading={busy} sx={{ alignSelf: 'flex-start' }}>
          {t('profile.submit')}
        </Button>
      </Stack>
    </SettingsSection>
  );
}
