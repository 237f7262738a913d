import { useState, type FormEvent } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import TextField from '@mui/material/TextField';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client.ts';
import { useNotify } from '../../app/snackbar.tsx';
import SettingsSection from './SettingsSection.tsx';
import { formFailure } from './formFailure.ts';

/**
 * Deleting the account (docs/accounts.md#deleting-the-account): the current password is required; it is
 * refused while child users exist. Afterwards the session ends and the user lands on /login.
 */
export default function DeleteAccountSection() {
  const { t } = useTranslation(['account', 'errors']);
  const notify = useNotify();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [generalError, setGeneralError] = useState<string | null>(null);

  const close = () => {
    if (busy) return;
    setOpen(false);
    setPassword('');
    setFieldError(null);
    setGeneralError(null);
  };

  const confirm = async (event: FormEvent) => {
    event.preventDefault();
    if (!password || busy) return;
    setBusy(true);
    setFieldError(null);
    setGeneralError(null);
    try {
      await api.call('deleteAccount', { body: { password } });
      notify('success', t('delete.success'));
      api.endSession();
      queryClient.clear();
      void navigate('/login', { replace: true });
    } catch (error) {
      const failure = formFailure(error, t, { 'auth/wrong-password': 'password', 'auth/invalid-credentials': 'password' });
      setFieldError(failure.fields.password ?? null);
      setGeneralError(failure.general);
      if (failure.general !== null || failure.fields.password) notify('error', t('delete.failure'));
      setBusy(false);
    }
  };

  return (
    <SettingsSection title={t('delete.title')} description={t('delete.description')}>
      <Button color="error" variant="outlined" onClick={() => setOpen(true)}>{t('delete.open')}</Button>
      <Dialog open={open} onClose={close} fullWidth maxWidth="xs" slotProps={{ paper: { component: 'form', onSubmit: confirm, noValidate: true } as object }}>
        <DialogTitle>{t('delete.dialogTitle')}</DialogTitle>
        <DialogContent>
          <DialogContentText sx={{ mb: 2 }}>{t('delete.warning')}</DialogContentText>
          {generalError && <Alert severity="error" sx={{ mb: 2 }}>{generalError}</Alert>}
          <TextField
            autoFocus
            fullWidth
            type="password"
            autoComplete="current-password"
            label={t('delete.password')}
            value={password}
            onChange={(event) => {
              setPassword(event.target.value);
              setFieldError(null);
            }}
            error={fieldError !== null}
            helperText={fieldError ?? ' '}
          />
        </DialogContent>
        <DialogActions>
          <Button onClick={close} disabled={busy}>{t('delete.cancel')}</Button>
          <Button type="submit" color="error" variant="contained" disabled={!password || busy} loading={busy}>
            {t('delete.confirm')}
          </Button>
        </DialogActions>
      </Dialog>
    </SettingsSection>
  );
}
