import { useState, type FormEvent } from 'react';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import TextField from '@mui/material/TextField';
import { useTranslation } from 'react-i18next';
import { isValidEmail, type TemplateSummary } from '@sheaf/shared';
import { templateDisplayName } from './templateList.ts';
import type { ShareResult } from './useTemplateActions.ts';

interface Props {
  template: TemplateSummary;
  onClose: () => void;
  onShare: (template: TemplateSummary, email: string) => Promise<ShareResult>;
}

/** Sends another user a copy of the template; an unknown address or one's own is said under the field. */
export default function ShareDialog({ template, onClose, onShare }: Props) {
  const { t } = useTranslation('home');
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (submitting) return;
    if (!isValidEmail(email)) {
      setError(email.trim() ? t('share.invalidEmail') : t('share.emailRequired'));
      return;
    }
    setSubmitting(true);
    const result = await onShare(template, email.trim());
    setSubmitting(false);
    if (result.ok) onClose();
    else setError(result.fieldError);
  };

  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="xs" slotProps={{ paper: { component: 'form', onSubmit: submit, noValidate: true } as object }}>
      <DialogTitle>{t('share.title', { name: templateDisplayName(template) })}</DialogTitle>
      <DialogContent>
        <DialogContentText sx={{ mb: 1 }}>{t('share.text')}</DialogContentText>
        <TextField
          autoFocus
          fullWidth
          margin="dense"
          type="email"
          autoComplete="off"
          label={t('share.email')}
          value={email}
          onChange={(event) => {
            setEmail(event.target.value);
            setError(null);
          }}
          error={error !== null}
          helperText={error ?? ' '}
        />
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('dialog.cancel')}</Button>
        <Button type="submit" variant="contained" disabled={submitting || !email.trim()} loading={submitting}>
          {t('share.submit')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
