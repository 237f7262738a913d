/**
 * The create-child-user form (docs/accounts.md#child-users): the registration form without company and
 * terms, with its checks and messages; server field codes show under their fields, anything else above
 * the buttons, and a snackbar tells success or failure.
 */
import { useState, type FormEvent } from 'react';
import { Alert, Box, Button, CircularProgress, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle, TextField } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api/client.ts';
import { useNotify } from '../../app/snackbar.tsx';
import { translateError, translateFields } from '../../i18n/errors.ts';
import { EMPTY_CHILD_USER, validateChildUser, type ChildUserField, type ChildUserValues } from './childUsers.ts';

const FIELDS: { name: ChildUserField; type?: string; autoComplete: string }[] = [
  { name: 'firstName', autoComplete: 'off' },
  { name: 'lastName', autoComplete: 'off' },
  { name: 'email', type: 'email', autoComplete: 'off' },
  { name: 'password', type: 'password', autoComplete: 'new-password' },
  { name: 'confirmPassword', type: 'password', autoComplete: 'new-password' },
];

interface Props {
  open: boolean;
  onClose: () => void;
  onCreate: (values: ChildUserValues) => Promise<unknown>;
}

export default function CreateUserDialog({ open, onClose, onCreate }: Props) {
  const { t } = useTranslation(['users', 'auth', 'errors']);
  const notify = useNotify();
  const [values, setValues] = useState<ChildUserValues>(EMPTY_CHILD_USER);
  // Keys and the failed call are kept, not texts, so a language switch re-translates the messages.
  const [checks, setChecks] = useState<Partial<Record<ChildUserField, string>>>({});
  const [failure, setFailure] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);

  const close = () => {
    if (busy) return;
    setValues(EMPTY_CHILD_USER);
    setChecks({});
    setFailure(null);
    onClose();
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const found = validateChildUser(values);
    setChecks(found);
    setFailure(null);
    if (Object.keys(found).length > 0) return;
    setBusy(true);
    try {
      await onCreate(values);
      notify('success', t('snackbar.createSuccess', { email: values.email.trim().toLowerCase() }));
      setBusy(false);
      setValues(EMPTY_CHILD_USER);
      onClose();
    } catch (error) {
      setFailure(error);
      setBusy(false);
      notify('error', `${t('snackbar.createFailure')} ${translateError(error, t)}`);
    }
  };

  const serverFields = translateFields(failure, t);
  // A taken address in the registration form's words (docs/accounts.md#sign-up).
  const emailTaken = failure instanceof ApiError && failure.fields.email === 'auth/email-already-in-use';
  const fieldErrors: Partial<Record<string, string>> = {
    ...serverFields,
    ...(emailTaken ? { email: t('auth:validation.emailInUse') } : {}),
    ...Object.fromEntries(Object.entries(checks).map(([field, key]) => [field, t(`auth:${key}`)])),
  };
  const general = failure && Object.keys(serverFields).length === 0 && !(failure instanceof ApiError && failure.isCancelled) ? translateError(failure, t) : null;

  return (
    <Dialog open={open} onClose={close} aria-labelledby="create-user-title" maxWidth="sm" fullWidth>
      <Box component="form" noValidate onSubmit={(event) => void submit(event)}>
        <DialogTitle id="create-user-title">{t('form.title')}</DialogTitle>
        <DialogContent>
          <DialogContentText sx={{ mb: 2 }}>{t('form.intro')}</DialogContentText>
          <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' } }}>
            {FIELDS.map((field) => (
              <TextField
                key={field.name}
                name={field.name}
                label={t(`auth:register.fields.${field.name}`)}
                type={field.type ?? 'text'}
                autoComplete={field.autoComplete}
                required
                autoFocus={field.name === 'firstName'}
                value={values[field.name]}
                onChange={(event) => setValues((current) => ({ ...current, [field.name]: event.target.value }))}
                error={Boolean(fieldErrors[field.name])}
                helperText={fieldErrors[field.name]}
                disabled={busy}
                sx={field.name === 'firstName' || field.name === 'lastName' ? undefined : { gridColumn: '1 / -1' }}
              />
            ))}
          </Box>
          {general && <Alert severity="error" role="alert" sx={{ mt: 2 }}>{general}</Alert>}
        </DialogContent>
        <DialogActions>
          <Button onClick={close} disabled={busy}>{t('form.cancel')}</Button>
          <Button type="submit" variant="contained" disabled={busy} startIcon={busy ? <CircularProgress size={16} color="inherit" /> : undefined}>
            {t('form.submit')}
          </Button>
        </DialogActions>
      </Box>
    </Dialog>
  );
}
