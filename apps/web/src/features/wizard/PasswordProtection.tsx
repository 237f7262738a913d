/**
 * Password protection of the generated documents (docs/merging.md#password-protection): a password to
 * open and one to change them. Latin letters, digits and !@#$%^&*() only; column tags give each row its
 * own password (not with combined output). Leaving both empty removes the protection.
 */
import { useTranslation } from 'react-i18next';
import { Stack, TextField, Typography } from '@mui/material';
import type { PasswordProtection as Protection } from '@sheaf/shared';

interface PasswordProtectionProps {
  value: Protection;
  errors: { readPassword?: string; modifyPassword?: string };
  onChange: (value: Protection) => void;
  onCommit: () => void;
  disabled?: boolean;
  /** A short note under the title (a Word template: passwords protect PDF documents only). */
  note?: string;
}

export default function PasswordProtection({ value, errors, onChange, onCommit, disabled = false, note }: PasswordProtectionProps) {
  const { t } = useTranslation('wizard');
  return (
    <Stack spacing={1}>
      <Typography variant="subtitle1" component="h2">{t('password.title')}</Typography>
      <Typography variant="body2" color="text.secondary">{t('password.description', { example: '{{Name}}' })}</Typography>
      {note && <Typography variant="body2" color="info.main" data-testid="password-note">{note}</Typography>}
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
        <TextField
          size="small"
          label={t('password.read')}
          value={value.readPassword}
          onChange={(event) => onChange({ ...value, readPassword: event.target.value })}
          onBlur={onCommit}
          error={errors.readPassword !== undefined}
          helperText={errors.readPassword ?? t('password.readHint')}
          autoComplete="off"
          disabled={disabled}
          sx={{ flex: 1 }}
        />
        <TextField
          size="small"
          label={t('password.modify')}
          value={value.modifyPassword}
          onChange={(event) => onChange({ ...value, modifyPassword: event.target.value })}
          onBlur={onCommit}
          error={errors.modifyPassword !== undefined}
          helperText={errors.modifyPassword ?? t('password.modifyHint')}
          autoComplete="off"
          disabled={disabled}
          sx={{ flex: 1 }}
        />
      </Stack>
    </Stack>
  );
}
