/**
 * "Change header row": which sheet row holds the headings (>= 1). The server re-reads the sheet and
 * answers with its new headings, which replace the headings list; its errors (a row outside the
 * sheet, say) show in the dialog.
 */
import { useState, type FormEvent } from 'react';
import { Alert, Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle, TextField } from '@mui/material';
import { useTranslation } from 'react-i18next';
import type { TemplateDetail } from '@sheaf/shared';
import { api } from '../../api/client.ts';
import { translateError } from '../../i18n/errors.ts';
import { useNotify } from '../../app/snackbar.tsx';

interface HeaderRowDialogProps {
  open: boolean;
  templateId: string;
  current: number;
  onClose: () => void;
  onChanged: (detail: TemplateDetail) => void;
}

export default function HeaderRowDialog({ open, templateId, current, onClose, onChanged }: HeaderRowDialogProps) {
  const { t } = useTranslation(['editor', 'errors']);
  const notify = useNotify();
  const [value, setValue] = useState(String(current));
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  // Each opening (or another current row) starts from the current row, without an old error.
  const [shownFor, setShownFor] = useState({ open, current });
  if (shownFor.open !== open || shownFor.current !== current) {
    setShownFor({ open, current });
    if (open) {
      setValue(String(current));
      setError(null);
    }
  }

  const row = Number(value);
  const valid = value.trim() !== '' && Number.isInteger(row) && row >= 1 && row <= 1_000_000;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!valid || busy) return;
    setBusy(true);
    setError(null);
    try {
      const detail = await api.call('updateTemplate', { params: { id: templateId }, body: { templateId, headersRowNo: row } });
      if (!detail.excel) throw new Error('the template has no spreadsheet');
      onChanged(detail);
      notify('success', t('headerRow.changed', { row }));
      onClose();
    } catch (caught) {
      setError(translateError(caught, t));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog open={open} onClose={busy ? undefined : onClose} aria-labelledby="editor-header-row-title" slotProps={{ paper: { component: 'form', onSubmit: submit } as object }}>
      <DialogTitle id="editor-header-row-title">{t('headerRow.title')}</DialogTitle>
      <DialogContent>
        <DialogContentText sx={{ mb: 2 }}>{t('headerRow.help')}</DialogContentText>
        <TextField
          autoFocus
          fullWidth
          type="number"
          label={t('headerRow.label')}
          value={value}
          onChange={(event) => setValue(event.target.value)}
          error={!valid}
          helperText={valid ? ' ' : t('headerRow.invalid')}
          slotProps={{ htmlInput: { min: 1, step: 1 } }}
        />
        {error ? <Alert severity="error" sx={{ mt: 1 }}>{error}</Alert> : null}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={busy}>{t('headerRow.cancel')}</Button>
        <Button type="submit" variant="contained" disabled={!valid || busy}>{t('headerRow.apply')}</Button>
      </DialogActions>
    </Dialog>
  );
}
