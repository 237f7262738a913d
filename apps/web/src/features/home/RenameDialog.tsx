import { useState, type FormEvent } from 'react';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import TextField from '@mui/material/TextField';
import { useTranslation } from 'react-i18next';
import type { TemplateSummary } from '@sheaf/shared';
import { templateDisplayName } from './templateList.ts';

const MAX_NAME_LENGTH = 255;

interface Props {
  template: TemplateSummary;
  onClose: () => void;
  onRename: (template: TemplateSummary, customName: string) => Promise<boolean>;
}

/** Gives the template a custom name (the uploaded file's name stays as `name`). */
export default function RenameDialog({ template, onClose, onRename }: Props) {
  const { t } = useTranslation('home');
  const [value, setValue] = useState(templateDisplayName(template));
  const [submitting, setSubmitting] = useState(false);
  const trimmed = value.trim();
  const unchanged = trimmed === templateDisplayName(template);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!trimmed || submitting) return;
    if (unchanged) return onClose();
    setSubmitting(true);
    const ok = await onRename(template, trimmed);
    setSubmitting(false);
    if (ok) onClose();
  };

  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="xs" slotProps={{ paper: { component: 'form', onSubmit: submit } as object }}>
      <DialogTitle>{t('rename.title')}</DialogTitle>
      <DialogContent>
        <TextField
          autoFocus
          fullWidth
          margin="dense"
          label={t('rename.label')}
          value={value}
          onChange={(event) => setValue(event.target.value)}
          error={!trimmed}
          helperText={!trimmed ? t('rename.required') : ' '}
          slotProps={{ htmlInput: { maxLength: MAX_NAME_LENGTH } }}
        />
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('dialog.cancel')}</Button>
        <Button type="submit" variant="contained" disabled={!trimmed || submitting} loading={submitting}>
          {t('rename.submit')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
